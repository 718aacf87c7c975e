import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import type { ExtensionConfig } from '../config';
import { showError } from '../errors';
import type { GatewayService } from '../gatewayService';
import type { LastConnection } from '../lastConnection';

/** The outcome, returned to callers such as tests. */
export type ConnectionResult = { ok: true; ms: number; model: string } | { ok: false; message: string };

/** Registers Test Connection: one small chat request, reported as "connected, N ms" or the typed error. */
export function registerTestConnection(
  context: vscode.ExtensionContext,
  gateway: GatewayService,
  getConfig: () => ExtensionConfig,
  lastConnection: LastConnection,
): void {
  context.subscriptions.push(
    registerCommand('modelGateway.testConnection', async (): Promise<ConnectionResult> => {
      if (!(await gateway.requireKey())) return { ok: false, message: vscode.l10n.t('No API key.') };
      const config = getConfig();
      const model = config.chat.model;
      const started = performance.now();
      try {
        await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Model Gateway: testing connection…'),
            cancellable: true,
          },
          async (_progress, token) => {
            const abort = new AbortController();
            const sub = token.onCancellationRequested(() => abort.abort());
            try {
              await gateway
                .current()
                .createChatCompletion(
                  { model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 16 },
                  { signal: abort.signal },
                );
            } finally {
              sub.dispose();
            }
          },
        );
        const ms = Math.round(performance.now() - started);
        // The toast can be hidden or missed: the log and the status bar's tooltip keep the result.
        gateway.log.info(`Test Connection: connected to ${config.baseUrl}, ${ms} ms (model ${model}).`);
        lastConnection.set({ baseUrl: config.baseUrl, ms, at: new Date() });
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'Model Gateway: connected, {0} ms ({1} at {2}).',
            ms,
            model,
            new URL(config.baseUrl).host,
          ),
        );
        return { ok: true, ms, model };
      } catch (error) {
        void showError(error, vscode.l10n.t('Model Gateway: connection failed.'), gateway.log);
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}
