// What a send carries when something changed after its chip was attached: the context settings (kept once read,
// issue 25) and an open editor's text (what the chip made is kept for its version) must be those at Enter.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Conversation } from '../../src/chat/types';
import type { Emulator } from '../gateway-emulator';
import { chatRequestsOf, lastChatBody, untilAnsweredSince } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';
import { eventually, setKey, setSetting, useEmulator, workspaceRoot } from './helpers';

interface SessionApi {
  openChatSession(): Promise<{
    session: {
      conversation: Conversation;
      receive(raw: unknown): Promise<void>;
      context: { pendingTokens: number };
    };
    release(): void;
  }>;
}

const PROBE = 'notes/settings-probe.txt';
const LINES = Array.from({ length: 600 }, (_, i) => `probe line ${i + 1} of the settings file`).join('\n');

describe('Context changed between attaching and sending (real extension host)', function () {
  this.timeout(60_000);
  useSettingsRestored(['baseUrl', 'context.exclude', 'context.maxFileTokens']);
  let emulator: Emulator;
  let opened: Awaited<ReturnType<SessionApi['openChatSession']>>;
  const probe = () => vscode.Uri.joinPath(workspaceRoot(), PROBE);

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    await vscode.workspace.fs.writeFile(probe(), new TextEncoder().encode(LINES));
    const api = (await vscode.extensions.getExtension<SessionApi>('modelgateway.model-gateway')!.activate())!;
    opened = await api.openChatSession();
  });
  beforeEach(async () => {
    await setSetting('context.maxFileTokens', undefined);
    await setSetting('context.exclude', undefined);
  });
  after(async () => {
    await opened?.session.receive({ type: 'newChat' });
    opened?.release();
    await vscode.workspace.fs.delete(probe());
    await emulator?.close();
  });

  /** Attaches the probe file as a dropped file, and waits for its chip. */
  async function attach(): Promise<void> {
    const { session } = opened;
    await session.receive({ type: 'dropFiles', uris: [probe().toString()] });
    await eventually(() => assert.ok(session.context.pendingTokens > 0, 'the chip is attached'));
  }

  /** Sends `text`, waits for the answer, and returns what the request's user message said. */
  async function sendAndRead(text: string): Promise<string> {
    const since = emulator.requests.length;
    await opened.session.receive({ type: 'send', text });
    await untilAnsweredSince(emulator, since);
    const sent = lastChatBody(emulator).messages.at(-1);
    assert.equal(sent?.role, 'user');
    return String(sent.content);
  }

  it('a token limit lowered after the chip was attached cuts the file the next send carries', async () => {
    await opened.session.receive({ type: 'newChat' });
    await attach();
    assert.match(await sendAndRead('whole file'), /probe line 600 of/);
    await attach();
    await setSetting('context.maxFileTokens', 100);
    const cut = await sendAndRead('cut file');
    assert.match(cut, /probe line 1 of/);
    assert.doesNotMatch(cut, /probe line 600 of/, 'the lowered limit applied to this send');
  });

  it('a file open in an editor is sent with the unsaved edit made after its chip was attached', async () => {
    await opened.session.receive({ type: 'newChat' });
    const editor = await vscode.window.showTextDocument(probe(), { preview: false });
    try {
      await attach();
      // The chip was made from the editor's text; this edit is a new version of it, never saved.
      await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'unsaved line one\n'));
      assert.match(await sendAndRead('with the edit'), /```plaintext\nunsaved line one\nprobe line 1 of/);
      await attach();
      assert.match(await sendAndRead('unchanged since attached'), /unsaved line one/);
      await attach();
      await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'unsaved line two\n'));
      assert.match(await sendAndRead('edited again'), /```plaintext\nunsaved line two\nunsaved line one\n/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('a secrets pattern added after the chip was attached refuses the send', async () => {
    await opened.session.receive({ type: 'newChat' });
    await attach();
    await setSetting('context.exclude', ['**/settings-probe.txt']);
    const before = chatRequestsOf(emulator).length;
    await opened.session.receive({ type: 'send', text: 'must not go' });
    assert.equal(chatRequestsOf(emulator).length, before, 'nothing was sent');
    assert.equal(opened.session.conversation.turns.length, 0, 'the question was not added');
    await setSetting('context.exclude', undefined);
    await attach();
    assert.match(await sendAndRead('goes now'), /probe line 600 of/, 'the pattern removed applies at once');
  });
});
