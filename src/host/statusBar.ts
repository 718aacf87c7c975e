import * as vscode from 'vscode';
import { readableModelName } from '../gateway/modelNames';
import { modelNote } from '../gateway/discovery';
import type { ExtensionConfig } from './config';
import { clockTime, type LastConnection } from './lastConnection';
import type { ModelDirectory } from './modelDirectory';

/**
 * Shows the default model (new chats, editor commands); clicking it runs Select Model. Says so when connected
 * to the local emulator. A chat's own model is its Model menu; the tooltip says which is which.
 */
export function registerStatusBar(
  context: vscode.ExtensionContext,
  getConfig: () => ExtensionConfig,
  directory: ModelDirectory,
  lastConnection: LastConnection,
): void {
  const item = vscode.window.createStatusBarItem('modelGateway.model', vscode.StatusBarAlignment.Right, 100);
  item.name = vscode.l10n.t('Model Gateway Model');
  item.command = 'modelGateway.selectModel';
  const update = (config: ExtensionConfig): void => {
    const emulatorUrl = process.env.MODEL_GATEWAY_EMULATOR_URL;
    const onEmulator = !!emulatorUrl && sameOrigin(config.baseUrl, emulatorUrl);
    const model = config.chat.model;
    const name = readableModelName(model);
    const info = directory.find(model);
    const about = info
      ? ` ${modelNote(info)}.`
      : ` ${vscode.l10n.t('Neither the catalogue nor the server lists this model.')}`;
    item.text = `$(comment-discussion) ${onEmulator ? vscode.l10n.t('{0} (emulator)', name) : name}`;
    // Screen readers get plain words, not the codicon name or the tooltip's Markdown.
    item.accessibilityInformation = {
      label: onEmulator
        ? vscode.l10n.t('Model Gateway model: {0}, emulator', name)
        : vscode.l10n.t('Model Gateway model: {0}', name),
      role: 'button',
    };
    const gateway = onEmulator
      ? vscode.l10n.t('Gateway: `{0}` — the local gateway emulator', config.baseUrl)
      : vscode.l10n.t('Gateway: `{0}`', config.baseUrl);
    item.tooltip = new vscode.MarkdownString(
      [
        '**Model Gateway**',
        vscode.l10n.t(
          'Default model: {0} (`{1}`), for new chats, Generate Code and Explain Selection.{2} A chat keeps its own model: see its Model menu.',
          name,
          model,
          about,
        ),
        gateway,
        ...connectedLine(lastConnection, config.baseUrl),
        vscode.l10n.t('Click to change the default model.'),
      ].join('\n\n'),
    );
  };
  update(getConfig());
  item.show();
  // The directory fires on settings changes too, and when the server's list arrives.
  context.subscriptions.push(
    item,
    directory.onDidChange(() => update(getConfig())),
    lastConnection.onDidChange(() => update(getConfig())),
  );
}

/** The last successful Test Connection, while it is for the current base URL (another address says nothing). */
function connectedLine(lastConnection: LastConnection, baseUrl: string): string[] {
  const last = lastConnection.current;
  if (!last || last.baseUrl !== baseUrl) return [];
  return [vscode.l10n.t('Connected to `{0}`, {1} ms, at {2}.', last.baseUrl, last.ms, clockTime(last.at))];
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
