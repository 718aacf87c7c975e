import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import { readContextSettings } from '../context/contextSettings';
import { CompletionEngine, type EngineStats } from '../../complete/engine';
import { completeSettings } from '../../complete/settings';
import { answerText } from '../../complete/stream';
import type { GatewayService } from '../gatewayService';
import { GatewayInlineCompletions, type ProviderState } from './provider';
import { CompletionStatusItem } from './statusItem';

/** What the extension's API exposes of completions, for tests and benchmarks. */
export interface CompletionsHandle {
  provider: vscode.InlineCompletionItemProvider;
  stats: EngineStats;
  status: CompletionStatusItem;
}

function readState(): ProviderState {
  const c = vscode.workspace.getConfiguration('modelGateway');
  return {
    settings: completeSettings({
      enabled: c.get('complete.enabled'),
      languages: c.get('complete.languages'),
      debounceMs: c.get('complete.debounceMs'),
      model: c.get('complete.model'),
      contextTokens: c.get('complete.contextTokens'),
    }),
    exclude: readContextSettings().exclude,
  };
}

/** Registers the inline completion provider, its status bar toggle and `modelGateway.toggleCompletions`. */
export function registerCompletions(
  context: vscode.ExtensionContext,
  gateway: GatewayService,
): CompletionsHandle {
  let state = readState();
  const status = new CompletionStatusItem();
  status.setEnabled(state.settings.enabled);
  const engine = new CompletionEngine({
    settings: () => state.settings,
    stream: (request, signal) => answerText(gateway.current(), request, signal),
    onFailure: (error) => {
      // Never a pop-up while typing: the log has every failure, the status item the repeated ones.
      gateway.log.warn(`Inline completion failed: ${error instanceof Error ? error.message : String(error)}`);
      status.failed(error);
    },
    onSuccess: () => status.succeeded(),
  });
  const provider = new GatewayInlineCompletions(engine, () => state);
  context.subscriptions.push(
    status,
    provider,
    vscode.languages.registerInlineCompletionItemProvider({ pattern: '**' }, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('modelGateway')) return;
      const previous = state.settings;
      state = readState();
      if (previous.model !== state.settings.model || previous.contextTokens !== state.settings.contextTokens)
        engine.clearCache();
      if (!state.settings.enabled) engine.cancelInFlight();
      status.setEnabled(state.settings.enabled);
    }),
    registerCommand('modelGateway.toggleCompletions', async (): Promise<boolean> => {
      const config = vscode.workspace.getConfiguration('modelGateway');
      const inspected = config.inspect<boolean>('complete.enabled');
      const target =
        inspected?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
      const next = !state.settings.enabled;
      await config.update('complete.enabled', next, target);
      return next;
    }),
  );
  return { provider, stats: engine.stats, status };
}
