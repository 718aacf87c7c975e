// Checkpoints of agent runs in the real extension host: Restore Checkpoint after Keep All puts every file back byte
// for byte (CRLF included) and deletes the files the runs created, only once the user confirms; checkpoints read
// back by a new store (as after a reload) restore the same bytes; a file with unsaved changes is edited in its
// buffer, and Undo, Restore Checkpoint or Reject in its review gives the buffer its text back (the disk never gets
// the unsaved text).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CheckpointStore } from '../../src/host/agent/checkpointStore';
import type { Emulator } from '../gateway-emulator';
import { EDIT_TWO_ANSWER } from '../gateway-emulator/agentRuns';
import { useSettingsRestored } from '../support/settings';
import {
  decoder,
  encoder,
  exists,
  openSession,
  readBytes,
  removeIfThere,
  runAgent,
  uriOf,
  writeBytes,
  type AgentSession,
} from './agentSession';
import { closeAllEditors, eventually, setKey, useEmulator } from './helpers';

const CRLF_FILE = 'src/crlf-notes.txt';
const CRLF_BYTES = encoder.encode('alpha\r\nbeta\r\ngamma\r\n');

describe('Agent checkpoints (real extension host, emulator)', function () {
  this.timeout(120_000);
  useSettingsRestored(['baseUrl', 'network.retries']);
  let emulator: Emulator;
  let opened: Awaited<ReturnType<typeof openSession>>;
  let session: AgentSession;
  /** What the confirmation asked, and the answers it gives in turn. */
  let asked: Array<{ question: string; detail: string; action: string }>;
  let answers: boolean[];
  const originals = new Map<string, Uint8Array>();
  let autoSave: unknown;

  before(async () => {
    // code-server saves after a delay by default; the buffers of the unsaved-file tests must stay unsaved. Turned off
    // once, first, so the workbench has applied it long before those tests (the last of this file) dirty a buffer:
    // off → default → off between two tests raced the workbench's own auto-save in a CI run.
    const files = vscode.workspace.getConfiguration('files');
    autoSave = files.inspect('autoSave')?.globalValue;
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    emulator = await useEmulator();
    await setKey();
    for (const p of ['src/sample.ts', 'README.md']) originals.set(p, await readBytes(p));
  });
  after(async () => {
    await vscode.workspace
      .getConfiguration('files')
      .update('autoSave', autoSave, vscode.ConfigurationTarget.Global);
    await emulator?.close();
  });
  beforeEach(async () => {
    asked = [];
    answers = [];
    opened = await openSession(async (question, detail, action) => {
      asked.push({ question, detail, action });
      return answers.shift() ?? false;
    });
    session = opened.session;
  });
  afterEach(async () => {
    opened.release();
    // Unsaved buffers a test left are reverted, so the next test opens the file as it is on disk.
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await closeAllEditors();
    for (const [p, bytes] of originals) await writeBytes(p, bytes);
    // A document still open in memory reloads those writes when the file watcher reports them: the next test's
    // buffer must start from the file's text.
    for (const [p, bytes] of originals) {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uriOf(p).toString());
      if (open) await eventually(() => assert.equal(open.getText(), decoder.decode(bytes)), 10_000);
    }
    await removeIfThere(CRLF_FILE);
    await removeIfThere(`${CRLF_FILE}.notes.md`);
  });

  it('Restore Checkpoint after Keep All: every file back byte for byte, created files gone, the turns removed', async () => {
    await writeBytes(CRLF_FILE, CRLF_BYTES);
    const first = await runAgent(session, 'Make greet trim the name [[agent:edit-two]]');
    assert.equal(first.status, 'complete', JSON.stringify(first.error));
    assert.ok(first.content.includes(EDIT_TWO_ANSWER));
    const second = await runAgent(session, `Edit [[file:${CRLF_FILE}]] [[agent:crlf]]`, { sameChat: true });
    assert.equal(second.status, 'complete', JSON.stringify(second.error));
    assert.deepEqual(
      second.agent!.files.map((f) => [f.path, f.created]),
      [
        [CRLF_FILE, false],
        [`${CRLF_FILE}.notes.md`, true],
      ],
    );
    // The edit kept the file's CRLF line endings.
    assert.equal(decoder.decode(await readBytes(CRLF_FILE)), 'alpha\r\nbeta (edited)\r\ngamma\r\n');
    for (const turn of [first, second])
      await session.receive({ type: 'agentDecision', turnId: turn.id, decision: 'keep' });
    assert.ok([...first.agent!.files, ...second.agent!.files].every((f) => f.decision === 'kept'));
    const changed = new Map<string, Uint8Array>();
    for (const p of ['src/sample.ts', 'README.md', CRLF_FILE]) changed.set(p, await readBytes(p));
    const userTurn = session.conversation.turns[0];
    assert.equal(userTurn.role === 'user' && userTurn.checkpoint, true);

    // Cancelled: nothing changes.
    answers = [false];
    await session.receive({ type: 'restoreCheckpoint', turnId: userTurn.id });
    assert.equal(asked.length, 1);
    assert.match(asked[0].detail, /^4 file\(s\) go back .* the 3 turn\(s\) after it are removed\.$/);
    assert.equal(session.conversation.turns.length, 4);
    for (const [p, bytes] of changed) assert.deepEqual(await readBytes(p), bytes, p);
    assert.equal(await exists(`${CRLF_FILE}.notes.md`), true);

    answers = [true];
    await session.receive({ type: 'restoreCheckpoint', turnId: userTurn.id });
    assert.equal(asked.length, 2);
    for (const [p, bytes] of originals) assert.deepEqual(await readBytes(p), bytes, p);
    assert.deepEqual([...(await readBytes(CRLF_FILE))], [...CRLF_BYTES], 'the CRLF file byte for byte');
    assert.equal(await exists(`${CRLF_FILE}.notes.md`), false, 'the file the run created is deleted');
    assert.equal(session.conversation.turns.length, 0, 'the user turn and the turns after it are removed');
  });

  it('checkpoints read back by a new store (as after a reload) restore the same bytes', async () => {
    const folder = vscode.Uri.file(path.join(os.tmpdir(), `mg-checkpoints-${process.pid}-${Date.now()}`));
    const log = { warn: (message: string) => assert.fail(message) };
    try {
      const writer = new CheckpointStore(folder, log);
      const checkpoints = await writer.of('conv/1');
      checkpoints.beginTurn('u1');
      checkpoints.record('u1', CRLF_FILE, CRLF_BYTES);
      checkpoints.record('u1', 'new.md', 'absent');
      checkpoints.beginTurn('u2');
      checkpoints.record('u2', CRLF_FILE, encoder.encode('changed\r\n'));
      await writer.save('conv/1');

      const reader = new CheckpointStore(folder, log);
      const read = await reader.of('conv/1');
      assert.deepEqual(read.turnIds(), ['u1', 'u2']);
      assert.deepEqual(read.restorePlan('u1'), [
        { path: CRLF_FILE, action: 'write', bytes: CRLF_BYTES },
        { path: 'new.md', action: 'delete' },
      ]);
      assert.deepEqual(read.restorePlan('u2'), [
        { path: CRLF_FILE, action: 'write', bytes: encoder.encode('changed\r\n') },
      ]);
    } finally {
      await Promise.resolve(vscode.workspace.fs.delete(folder, { recursive: true })).catch(() => undefined);
    }
  });

  it("a row opens its review against the file on disk while the editor has not yet reloaded the run's write", async () => {
    const document = await vscode.workspace.openTextDocument(uriOf('src/sample.ts'));
    await vscode.window.showTextDocument(document);
    const turn = await runAgent(session, 'Make greet trim the name [[agent:edit-two]]');
    assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
    const edited = decoder.decode(await readBytes('src/sample.ts'));
    const original = decoder.decode(originals.get('src/sample.ts')!);
    // The editor shows the checkpoint's text again (as when its watcher has not caught up with the run's write)...
    writeFileSync(uriOf('src/sample.ts').fsPath, original);
    await eventually(() => assert.equal(document.getText(), original), 10_000);
    // ...while the disk holds the run's text: the row is opened at once after that write.
    writeFileSync(uriOf('src/sample.ts').fsPath, edited);
    await session.receive({ type: 'openChangedFile', turnId: turn.id, path: 'src/sample.ts' });
    assert.equal(document.getText(), edited, 'the review shows the file as it is on disk');
    assert.ok(await vscode.commands.executeCommand('modelGateway.acceptHunk'), 'a hunk under review');
    assert.equal(
      vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff,
      false,
    );
  });

  for (const how of ['Undo', 'Restore Checkpoint after Keep All', 'Reject in the review'] as const)
    it(`a file with unsaved changes is edited in its buffer, not on disk; ${how} gives the buffer its text back`, async () => {
      await editUnsavedBuffer(how);
    });

  async function editUnsavedBuffer(
    how: 'Undo' | 'Restore Checkpoint after Keep All' | 'Reject in the review',
  ): Promise<void> {
    const document = await vscode.workspace.openTextDocument(uriOf('src/sample.ts'));
    await vscode.window.showTextDocument(document);
    const unsaved = new vscode.WorkspaceEdit();
    unsaved.insert(document.uri, new vscode.Position(0, 0), '// an unsaved note\n');
    assert.ok(await vscode.workspace.applyEdit(unsaved));
    assert.ok(document.isDirty);
    const dirtyText = document.getText();

    const turn = await runAgent(session, 'Make greet trim the name [[agent:edit-two]]');
    assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
    const file = turn.agent!.files.find((f) => f.path === 'src/sample.ts');
    assert.equal(file?.inBuffer, true);
    assert.ok(document.getText().includes('// an unsaved note\n'));
    assert.ok(document.getText().includes('name.trim()'));
    assert.deepEqual(await readBytes('src/sample.ts'), originals.get('src/sample.ts'), 'disk unchanged');

    if (how === 'Undo')
      await session.receive({
        type: 'agentDecision',
        turnId: turn.id,
        path: 'src/sample.ts',
        decision: 'undo',
      });
    else if (how === 'Reject in the review') {
      // The row opens the file under review; its one hunk rejected goes back into the buffer, not to disk.
      await session.receive({ type: 'openChangedFile', turnId: turn.id, path: 'src/sample.ts' });
      assert.ok(await vscode.commands.executeCommand('modelGateway.rejectHunk'), 'a hunk to reject');
      await eventually(
        () => assert.equal(turn.agent!.files.find((f) => f.path === 'src/sample.ts')?.decision, 'undone'),
        10_000,
      );
    } else {
      await session.receive({ type: 'agentDecision', turnId: turn.id, decision: 'keep' });
      answers = [true];
      await session.receive({ type: 'restoreCheckpoint', turnId: session.conversation.turns[0].id });
      assert.equal(session.conversation.turns.length, 0);
      assert.deepEqual(await readBytes('README.md'), originals.get('README.md'));
    }
    assert.equal(document.getText(), dirtyText);
    // The user's unsaved text is theirs to save: it never reaches the disk.
    assert.deepEqual(
      await readBytes('src/sample.ts'),
      originals.get('src/sample.ts'),
      'disk still unchanged',
    );
    assert.ok(document.isDirty);
  }
});
