import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKey';

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
export const WALKTHROUGH_ID = 'gettingStarted';
/** globalState flag: the walkthrough was opened once, so activation never opens it again. */
export const WALKTHROUGH_SHOWN_KEY = 'modelGateway.walkthroughShown';
/** Context key the "Set your API key" step completes on (`onContext:`), true while a key is available. */
const HAS_KEY_CONTEXT = 'modelGateway.hasApiKey';

/**
 * Keeps the key step's context key honest and, on the first activation without a key, opens the walkthrough
 * once. The flag is written before opening, so a crash or a dismissal never leads to a second opening.
 */
export function registerWalkthrough(
  context: vscode.ExtensionContext,
  keys: ApiKeyStore,
  log: vscode.LogOutputChannel,
): void {
  const syncKeyContext = async (): Promise<boolean> => {
    const hasKey = (await keys.get()) !== undefined;
    await vscode.commands.executeCommand('setContext', HAS_KEY_CONTEXT, hasKey);
    return hasKey;
  };
  context.subscriptions.push(keys.onDidChange(() => void syncKeyContext()));
  void syncKeyContext()
    .then(async (hasKey) => {
      if (hasKey || context.globalState.get<boolean>(WALKTHROUGH_SHOWN_KEY)) return;
      await context.globalState.update(WALKTHROUGH_SHOWN_KEY, true);
      await vscode.commands.executeCommand(
        'workbench.action.openWalkthrough',
        `${context.extension.id}#${WALKTHROUGH_ID}`,
        false,
      );
    })
    .catch((error: unknown) => log.warn(`Could not open the walkthrough: ${String(error)}`));
}
