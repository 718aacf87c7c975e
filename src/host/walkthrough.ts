import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKey';

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
export const WALKTHROUGH_ID = 'gettingStarted';
/** globalState flag: the walkthrough was opened once, so activation never opens it again. */
export const WALKTHROUGH_SHOWN_KEY = 'modelGateway.walkthroughShown';
/** Context key the "Set your API key" step completes on (`onContext:`), true while a key is available. */
const HAS_KEY_CONTEXT = 'modelGateway.hasApiKey';

/**
 * The same flag as a file in the extension's global storage. globalState alone was not enough: in a browser
 * workbench (code-server) it lives in the page's storage, written back a while later, so a reload soon after the
 * first opening could find no flag and open the walkthrough a second time. The file is on the extension host's
 * disk as soon as the write returns.
 */
const WALKTHROUGH_SHOWN_FILE = 'walkthrough-shown';

async function shownBefore(context: vscode.ExtensionContext): Promise<boolean> {
  if (context.globalState.get<boolean>(WALKTHROUGH_SHOWN_KEY)) return true;
  try {
    await vscode.workspace.fs.stat(vscode.Uri.joinPath(context.globalStorageUri, WALKTHROUGH_SHOWN_FILE));
    return true;
  } catch {
    return false;
  }
}

async function markShown(context: vscode.ExtensionContext): Promise<void> {
  await context.globalState.update(WALKTHROUGH_SHOWN_KEY, true);
  await vscode.workspace.fs.createDirectory(context.globalStorageUri);
  await vscode.workspace.fs.writeFile(
    vscode.Uri.joinPath(context.globalStorageUri, WALKTHROUGH_SHOWN_FILE),
    new Uint8Array(0),
  );
}

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
      if (hasKey || (await shownBefore(context))) return;
      await markShown(context);
      await vscode.commands.executeCommand(
        'workbench.action.openWalkthrough',
        `${context.extension.id}#${WALKTHROUGH_ID}`,
        false,
      );
    })
    .catch((error: unknown) => log.warn(`Could not open the walkthrough: ${String(error)}`));
}
