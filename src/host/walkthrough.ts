import * as vscode from 'vscode';
import type { ConversationStore } from '../chat/store';
import type { ApiKeyStore } from './apiKey';
import type { GatewayService } from './gatewayService';
import { ourCommandRan } from './ourCommands';

/** The walkthrough's id in package.json (`contributes.walkthroughs`). */
export const WALKTHROUGH_ID = 'gettingStarted';
/** globalState flag: the walkthrough was opened once, so activation never opens it again. */
export const WALKTHROUGH_SHOWN_KEY = 'modelGateway.walkthroughShown';
/** globalState flag: a request to the gateway once succeeded, so the connection step stays done. */
const CONNECTION_WORKED_KEY = 'modelGateway.connectionWorked';

/**
 * Context keys the steps complete on (`onContext:` in package.json). They are set from the real state at
 * activation, so a step done before the walkthrough first opens (a key, a chat) shows as done.
 */
const CONTEXT = {
  hasKey: 'modelGateway.hasApiKey',
  baseUrlSet: 'modelGateway.baseUrlSet',
  connectionWorked: 'modelGateway.connectionWorked',
  hasConversation: 'modelGateway.hasConversation',
} as const;

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

const setContext = (key: string, value: boolean): Thenable<unknown> =>
  vscode.commands.executeCommand('setContext', key, value);

/**
 * Marks a step done in VS Code's own record of walkthrough progress. Needed because VS Code completes an
 * `onContext:` step only when the key *changes* to true after the walkthrough was registered: a key already true
 * then (a key set, a chat used before the walkthrough first opens) never checks the step. The record is saved
 * even when the walkthrough is not registered yet (the command then fails, which is expected and harmless).
 */
function markStepDone(context: vscode.ExtensionContext, step: string, log: vscode.LogOutputChannel): void {
  const id = `${context.extension.id}#${WALKTHROUGH_ID}#${step}`;
  void vscode.commands
    .executeCommand('welcome.markStepComplete', id)
    .then(undefined, (error: unknown) =>
      log.debug(`Walkthrough step ${step} noted as done: ${String(error)}`),
    );
}

/** The base URL was chosen by the user: set in any settings scope (the default alone is not a choice). */
function baseUrlConfigured(): boolean {
  const seen = vscode.workspace.getConfiguration('modelGateway').inspect<string>('baseUrl');
  return [seen?.globalValue, seen?.workspaceValue, seen?.workspaceFolderValue].some((v) => v !== undefined);
}

/** What the walkthrough's steps read besides the key. */
export interface WalkthroughState {
  gateway: GatewayService;
  store: ConversationStore;
}

/**
 * Keeps the steps' context keys true to the real state and, on the first activation without a key, opens the
 * walkthrough once, unless the user activated us by running one of our commands (it would take their focus).
 * The flag is written before opening, so a crash or a dismissal never leads to a second opening.
 */
export function registerWalkthrough(
  context: vscode.ExtensionContext,
  keys: ApiKeyStore,
  log: vscode.LogOutputChannel,
  state: WalkthroughState,
): void {
  /** Sets a step's context key and, when true, records the step as done (see {@link markStepDone}). */
  const stepState = async (key: string, step: string, done: boolean): Promise<void> => {
    await setContext(key, done);
    if (done) markStepDone(context, step, log);
  };
  const syncKeyContext = async (): Promise<boolean> => {
    const hasKey = (await keys.get()) !== undefined;
    await stepState(CONTEXT.hasKey, 'setApiKey', hasKey);
    return hasKey;
  };
  const connectionWorked = async (): Promise<void> => {
    if (!context.globalState.get<boolean>(CONNECTION_WORKED_KEY))
      await context.globalState.update(CONNECTION_WORKED_KEY, true);
    await stepState(CONTEXT.connectionWorked, 'testConnection', true);
  };
  const syncBaseUrl = (): Promise<void> => stepState(CONTEXT.baseUrlSet, 'baseUrl', baseUrlConfigured());
  context.subscriptions.push(
    keys.onDidChange(() => void syncKeyContext()),
    state.gateway.onDidSucceed(() => void connectionWorked()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('modelGateway.baseUrl')) void syncBaseUrl();
    }),
  );
  void syncBaseUrl();
  if (context.globalState.get<boolean>(CONNECTION_WORKED_KEY)) void connectionWorked();
  void state.store
    .hasAny()
    .then((any) => stepState(CONTEXT.hasConversation, 'chat', any))
    .then(undefined, (error: unknown) => log.warn(`Could not read the chat history: ${String(error)}`));
  void syncKeyContext()
    .then(async (hasKey) => {
      // A command that activated us runs as soon as it is registered, before these round trips to the
      // workbench (secrets, storage) come back: by now the flag says whether the user started one.
      if (hasKey || ourCommandRan() || (await shownBefore(context)) || ourCommandRan()) return;
      await markShown(context);
      await vscode.commands.executeCommand(
        'workbench.action.openWalkthrough',
        `${context.extension.id}#${WALKTHROUGH_ID}`,
        false,
      );
    })
    .catch((error: unknown) => log.warn(`Could not open the walkthrough: ${String(error)}`));
}
