import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator, type Emulator, type EmulatorOptions } from '../gateway-emulator';
import { eventually } from '../support/poll';
import { setSetting, withSettings } from '../support/settings';

export const TEST_KEY = 'sk-integration-test-key-5f1c0a';

/** Starts an emulator in the extension host that accepts TEST_KEY (and nothing but its default keys). */
export function keyedEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, keys: [TEST_KEY], ...options });
}

/** Starts an emulator inside the extension host and points the extension at it. */
export async function useEmulator(): Promise<Emulator> {
  const emulator = await keyedEmulator();
  await setSetting('baseUrl', emulator.url);
  await setSetting('network.retries', 0);
  return emulator;
}

export { setSetting, withSettings };

/**
 * Runs `body` with the extension pointed at another emulator (started with `options`, accepting TEST_KEY),
 * then points it back at the previous gateway and closes that emulator, also when `body` fails.
 */
export async function withGateway<T>(
  options: EmulatorOptions,
  body: (gateway: Emulator) => Promise<T>,
): Promise<T> {
  const gateway = await keyedEmulator(options);
  try {
    return await withSettings({ baseUrl: gateway.url }, () => body(gateway));
  } finally {
    await gateway.close();
  }
}

/** Stores a key through the real command (its automation option skips the input box). */
export async function setKey(key = TEST_KEY): Promise<void> {
  const ok = await vscode.commands.executeCommand<boolean>('modelGateway.setApiKey', { key });
  assert.equal(ok, true);
}

/** The workspace folder the harness opened. */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the harness opens a workspace folder');
  return folder.uri;
}

/** Opens a new file in the workspace with the given text and shows it. */
export async function openFile(name: string, text: string, language?: string): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const doc = await vscode.workspace.openTextDocument(uri);
  const typed = language ? await vscode.languages.setTextDocumentLanguage(doc, language) : doc;
  return vscode.window.showTextDocument(typed);
}

export { eventually };

/** Closes all editors without saving prompts. */
export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * Registers the hooks of a suite that edits documents through the extension: before its tests, an emulator the
 * extension uses (useEmulator) and TEST_KEY stored; after each test, any review rejected, every editor closed
 * and the emulator's records cleared; after all, the emulator closed. `receive`, if given, gets the emulator.
 */
export function useEditingSuite(receive?: (emulator: Emulator) => unknown): void {
  let emulator: Emulator | undefined;
  before(async () => {
    emulator = await useEmulator();
    await setKey();
    receive?.(emulator);
  });
  after(async () => {
    await emulator?.close();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('modelGateway.rejectEdit');
    await closeAllEditors();
    emulator?.reset();
  });
}

/**
 * Registers the hooks of a suite that starts emulators of its own: before its tests, the extension activated,
 * TEST_KEY stored and retries off; after them, every emulator the returned `start` made closed.
 */
export function useOwnEmulators(): (options?: EmulatorOptions) => Promise<Emulator> {
  const started: Emulator[] = [];
  before(async () => {
    await vscode.extensions.getExtension('modelgateway.model-gateway')!.activate();
    await setKey();
    await setSetting('network.retries', 0);
  });
  after(async () => {
    await Promise.all(started.splice(0).map((e) => e.close()));
  });
  return async (options = {}) => {
    const emulator = await keyedEmulator(options);
    started.push(emulator);
    return emulator;
  };
}
