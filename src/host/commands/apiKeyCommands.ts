import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import type { ApiKeyStore } from '../apiKey';

/** Options for automation (tests, keybindings): skip the input box. */
interface SetApiKeyOptions {
  key?: string;
}

/** Registers Set API Key and Clear API Key. */
export function registerApiKeyCommands(context: vscode.ExtensionContext, keys: ApiKeyStore): void {
  context.subscriptions.push(
    registerCommand('modelGateway.setApiKey', async (options?: SetApiKeyOptions) => {
      const entered =
        typeof options?.key === 'string'
          ? options.key
          : await vscode.window.showInputBox({
              title: vscode.l10n.t('Model Gateway: Set API Key'),
              prompt: vscode.l10n.t(
                'Paste your Model Gateway API key. It is stored in VS Code SecretStorage, never in settings.',
              ),
              placeHolder: 'sk-…', // l10n-exempt: the form of a key, not words
              password: true,
              ignoreFocusOut: true,
              validateInput: (value) =>
                value.trim() ? undefined : vscode.l10n.t('The API key cannot be empty.'),
            });
      if (entered === undefined) return false;
      const key = entered.trim();
      if (!key) {
        void vscode.window.showErrorMessage(vscode.l10n.t('The API key cannot be empty. Nothing was saved.'));
        return false;
      }
      await keys.set(key);
      if (!key.startsWith('sk-')) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            "API key saved, but it does not start with 'sk-' like Model Gateway keys do. If requests fail, check the key.",
          ),
        );
      } else {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Model Gateway API key saved in SecretStorage.'),
        );
      }
      return true;
    }),
    registerCommand('modelGateway.clearApiKey', async () => {
      await keys.clear();
      const fallback = (await keys.source()) === 'environment';
      void vscode.window.showInformationMessage(
        fallback
          ? vscode.l10n.t(
              'Model Gateway API key cleared from SecretStorage. The MODEL_GATEWAY_API_KEY environment variable is still used.',
            )
          : vscode.l10n.t('Model Gateway API key cleared.'),
      );
    }),
  );
}
