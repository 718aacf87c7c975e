import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator, RecordedRequest } from '../gateway-emulator';
import { expectedCompletion } from '../gateway-emulator/completionAnswers';
import type { CompletionsHandle } from '../../src/host/complete/registerCompletions';
import { closeAllEditors, eventually, openFile, setKey, setSetting, useEmulator } from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';
import { sleep } from '../support/poll';
import { useSettingsRestored } from '../support/settings';

const chats = (e: Emulator): RecordedRequest[] => chatRequestsOf(e);

async function handle(): Promise<CompletionsHandle> {
  const extension = vscode.extensions.getExtension<{ completions: CompletionsHandle }>(
    'modelgateway.model-gateway',
  );
  return (await extension!.activate()).completions;
}

/** Types text one character at a time, as the keyboard does. */
async function typeText(text: string, gapMs = 0): Promise<void> {
  for (const ch of text) {
    await vscode.commands.executeCommand('type', { text: ch });
    if (gapMs) await sleep(gapMs);
  }
}

async function openAt(
  name: string,
  text: string,
  line: number,
  character: number,
): Promise<vscode.TextEditor> {
  const editor = await openFile(name, text, name.endsWith('.ts') ? 'typescript' : undefined);
  editor.selection = new vscode.Selection(line, character, line, character);
  return editor;
}

describe('Inline completions (real editor)', function () {
  this.timeout(30_000);
  useSettingsRestored(['complete.enabled', 'complete.debounceMs']);
  let emulator: Emulator;
  before(async () => {
    emulator = await useEmulator();
    await setKey();
    await setSetting('complete.debounceMs', 150);
  });
  beforeEach(async () => {
    await setSetting('complete.enabled', true);
    emulator.reset();
  });
  afterEach(async () => {
    await closeAllEditors();
  });
  after(async () => {
    await emulator.close();
  });

  it('suggests after a pause in typing, and accepting inserts the suggestion', async () => {
    const editor = await openAt('complete-pause.ts', 'function main() {\n  let v = \n}\n', 1, 10);
    // A digit: a letter would open the suggest widget, which hides ghost text that does not match it.
    await typeText('1');
    await eventually(() => assert.equal(chats(emulator).length, 1));
    const expected = expectedCompletion({
      language: 'typescript',
      before: 'function main() {\n  let v = 1',
      after: '',
    });
    await eventually(async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      assert.equal(editor.document.lineAt(1).text, `  let v = 1${expected}`);
    });
    const body = chats(emulator)[0].body as { model: string };
    assert.equal(body.model, 'alpha-haiku-4-5-20251001');
  });

  it('explicit trigger on an empty line suggests a block, and typing through it sends no request', async () => {
    const editor = await openAt('complete-block.ts', 'function main() {\n  \n}\n', 1, 2);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await eventually(() => assert.equal(chats(emulator).length, 1));
    const block = expectedCompletion({ language: 'typescript', before: 'function main() {\n  ', after: '' });
    const stats = await handle();
    const hitsBefore = stats.stats.cacheHits;
    await sleep(300);
    await typeText(block.slice(0, 12), 40);
    await sleep(500);
    assert.equal(chats(emulator).length, 1, 'typing through the suggestion makes no request');
    assert.ok(stats.stats.cacheHits > hitsBefore, 'served from the cache');
    await eventually(async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      assert.equal(editor.document.getText(), `function main() {\n  ${block}\n}\n`);
    });
  });

  it('typing during a request cancels it, and the gateway sees the connection close', async () => {
    await openAt('complete-cancel.ts', '// [[fault:slow-first-byte:4000]]\nconst a = \n', 1, 10);
    await typeText('x');
    await eventually(() => assert.equal(chats(emulator).length, 1));
    await typeText('y');
    await eventually(() => assert.equal(chats(emulator)[0].clientClosed, true), 3000);
    assert.equal(chats(emulator)[0].status === undefined || chats(emulator)[0].responseEnded === false, true);
  });

  it('makes no request in an excluded file or when turned off', async () => {
    await openAt('.env', 'API_TOKEN=\n', 0, 10);
    await typeText('abc', 30);
    await sleep(800);
    assert.equal(chats(emulator).length, 0, 'excluded by modelGateway.context.exclude');
    await closeAllEditors();

    await setSetting('complete.enabled', false);
    await openAt('complete-off.ts', 'const b = \n', 0, 10);
    await typeText('abc', 30);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await sleep(800);
    assert.equal(chats(emulator).length, 0, 'off');
  });

  it('the toggle command and status bar item switch completions', async () => {
    const { status } = await handle();
    const config = (): boolean | undefined =>
      vscode.workspace.getConfiguration('modelGateway').get<boolean>('complete.enabled');
    assert.equal(status.state.command, 'modelGateway.toggleCompletions');
    assert.equal(await vscode.commands.executeCommand('modelGateway.toggleCompletions'), false);
    await eventually(() => assert.equal(config(), false));
    await eventually(() => assert.match(status.state.text, /circle-slash/));
    assert.equal(await vscode.commands.executeCommand('modelGateway.toggleCompletions'), true);
    await eventually(() => assert.match(status.state.text, /sparkle/));
  });

  it('a rejected key shows in the status bar item with its action, never as a pop-up request loop', async () => {
    const { status } = await handle();
    await setKey('bad-key');
    try {
      await openAt('complete-401.ts', 'const c = \n', 0, 10);
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await eventually(() => assert.equal(status.state.command, 'modelGateway.setApiKey'));
      assert.match(status.state.text, /warning/);
    } finally {
      await setKey();
    }
    await typeText('1');
    await eventually(() => assert.equal(status.state.command, 'modelGateway.toggleCompletions'));
  });
});
