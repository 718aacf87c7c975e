import * as vscode from 'vscode';
import { isThinkingModel } from '../gateway/models';
import type { ExtensionConfig } from './config';

/** Shows the current chat model; clicking it runs Select Model. Says so when connected to the local emulator. */
export function registerStatusBar(
  context: vscode.ExtensionContext,
  getConfig: () => ExtensionConfig,
  onConfigChange: vscode.Event<ExtensionConfig>,
): void {
  const item = vscode.window.createStatusBarItem('modelGateway.model', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Model Gateway Model';
  item.command = 'modelGateway.selectModel';
  const update = (config: ExtensionConfig): void => {
    const emulatorUrl = process.env.MODEL_GATEWAY_EMULATOR_URL;
    const onEmulator = !!emulatorUrl && sameOrigin(config.baseUrl, emulatorUrl);
    const model = config.chat.model;
    item.text = `$(comment-discussion) ${model}${isThinkingModel(model) ? ' $(lightbulb)' : ''}${onEmulator ? ' (emulator)' : ''}`;
    item.tooltip = new vscode.MarkdownString(
      `**Model Gateway**\n\nModel: \`${model}\`\n\nGateway: \`${config.baseUrl}\`${
        onEmulator ? ' — the local gateway emulator' : ''
      }\n\nClick to select another model.`,
    );
  };
  update(getConfig());
  item.show();
  context.subscriptions.push(item, onConfigChange(update));
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
