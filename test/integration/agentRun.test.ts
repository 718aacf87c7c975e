// The agent's host path in the real extension host: a chat session in Agent mode runs the emulator's scripted
// plan (read, search, an ambiguous edit retried, an edit of a second file, answer) on the native protocol and, after
// the server rejects `tools`, on the text protocol; the changed files' Keep and Undo act on the bytes on disk.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantTurn, Conversation } from '../../src/chat/types';
import { EDIT_TWO_ANSWER } from '../gateway-emulator/agentRuns';
import type { Emulator } from '../gateway-emulator';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';
import { eventually, setKey, useEmulator, workspaceRoot } from './helpers';

interface SessionApi {
  openChatSession(): Promise<{
    session: { conversation: Conversation; receive(raw: unknown): Promise<void> };
    release(): void;
  }>;
}

type Body = {
  model: string;
  tools?: unknown[];
  messages: Array<{ role: string; content: string | null; tool_calls?: unknown[] }>;
};

const decoder = new TextDecoder();
const read = async (path: string): Promise<Uint8Array> =>
  vscode.workspace.fs.readFile(vscode.Uri.joinPath(workspaceRoot(), path));
const write = (path: string, bytes: Uint8Array) =>
  vscode.workspace.fs.writeFile(vscode.Uri.joinPath(workspaceRoot(), path), bytes);

describe('Agent mode in the chat (real extension host, emulator)', function () {
  this.timeout(120_000);
  useSettingsRestored(['baseUrl', 'network.retries']);
  let emulator: Emulator;
  let opened: Awaited<ReturnType<SessionApi['openChatSession']>>;
  const originals = new Map<string, Uint8Array>();

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    for (const path of ['src/sample.ts', 'README.md']) originals.set(path, await read(path));
  });
  beforeEach(async () => {
    const api = (await vscode.extensions.getExtension<SessionApi>('modelgateway.model-gateway')!.activate())!;
    opened = await api.openChatSession();
    for (const [path, bytes] of originals) await write(path, bytes);
  });
  afterEach(async () => {
    // The next suite's session starts from an empty Ask conversation, as it would without these tests.
    await opened.session.receive({ type: 'newChat' });
    opened.release();
  });
  after(async () => {
    for (const [path, bytes] of originals) await write(path, bytes);
    await emulator?.close();
  });

  /** Sends `text` in Agent mode and waits for the run's turn to end. */
  async function runAgent(text: string, model?: string): Promise<AssistantTurn> {
    const { session } = opened;
    await session.receive({ type: 'newChat' });
    if (model) await session.receive({ type: 'setModel', model });
    await session.receive({ type: 'setMode', mode: 'agent' });
    assert.equal(session.conversation.mode, 'agent');
    await session.receive({ type: 'send', text });
    const turn = session.conversation.turns.at(-1) as AssistantTurn;
    await eventually(() => assert.notEqual(turn.status, 'streaming'), 60_000);
    return turn;
  }

  it('native: read, search, edit two files (retrying an ambiguous edit), answer; Keep one and Undo the other', async () => {
    const since = emulator.requests.length;
    const turn = await runAgent('Make greet trim the name [[agent:edit-two]]');
    assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
    assert.equal(turn.agent?.protocol, 'native');
    // On the wire: six steps, each with the tools, each starting with the previous step's messages.
    const bodies = chatRequestsOf(emulator, since).map((r) => r.body as Body);
    assert.equal(bodies.length, 6);
    assert.ok(bodies.every((b) => (b.tools ?? []).length >= 9));
    for (let i = 1; i < bodies.length; i++)
      assert.deepEqual(bodies[i].messages.slice(0, bodies[i - 1].messages.length), bodies[i - 1].messages);
    const last = bodies.at(-1)!.messages;
    assert.ok(
      last.some((m) => m.role === 'tool' && /^Error: .*oldText occurs 2 times/.test(m.content ?? '')),
    );
    assert.equal(last.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length, 5);
    // In the turn: the rows in order, the answer, the changed files.
    const rows = turn.agent!.parts.filter((p) => p.kind === 'tool');
    assert.deepEqual(
      rows.map((r) => [r.name, r.status]),
      [
        ['read_file', 'done'],
        ['search_text', 'done'],
        ['edit_file', 'error'],
        ['edit_file', 'done'],
        ['edit_file', 'done'],
      ],
    );
    assert.ok(turn.content.includes(EDIT_TWO_ANSWER));
    assert.deepEqual(
      turn.agent!.files.map((f) => [f.path, f.added, f.removed, f.decision]),
      [
        ['src/sample.ts', 1, 1, 'pending'],
        ['README.md', 2, 0, 'pending'],
      ],
    );
    const sample = decoder.decode(await read('src/sample.ts'));
    assert.ok(sample.includes('return `Hello, ${name.trim()}!`;'));
    assert.ok(decoder.decode(await read('README.md')).includes('`greet` trims the name it is given.'));
    // The user turn offers its checkpoint.
    const user = opened.session.conversation.turns.at(-2);
    assert.equal(user?.role === 'user' && user.checkpoint, true);

    await opened.session.receive({
      type: 'agentDecision',
      turnId: turn.id,
      path: 'src/sample.ts',
      decision: 'keep',
    });
    await opened.session.receive({
      type: 'agentDecision',
      turnId: turn.id,
      path: 'README.md',
      decision: 'undo',
    });
    assert.deepEqual(await read('README.md'), originals.get('README.md'));
    assert.equal(decoder.decode(await read('src/sample.ts')), sample);
    assert.deepEqual(
      turn.agent!.files.map((f) => f.decision),
      ['kept', 'undone'],
    );
  });

  it('auto: a server that rejects `tools` gets the text protocol, and the run completes the same', async () => {
    const since = emulator.requests.length;
    const model = 'alpha-haiku-4-5-20251001';
    const turn = await runAgent('Make greet trim the name [[agent:edit-two]] [[fault:no-tools]]', model);
    assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
    assert.equal(turn.agent?.protocol, 'text');
    const requests = chatRequestsOf(emulator, since);
    assert.equal(requests[0].status, 400, 'the first request, with tools, is refused');
    const later = requests.slice(1).map((r) => r.body as Body);
    assert.equal(later.length, 6);
    assert.ok(later.every((b) => b.tools === undefined && b.messages[0].content?.includes('<tool_call>')));
    assert.ok(later.every((b) => b.messages.every((m) => m.role !== 'tool')));
    assert.ok(turn.content.includes(EDIT_TWO_ANSWER));
    assert.equal(turn.agent!.files.length, 2);
    assert.ok(decoder.decode(await read('src/sample.ts')).includes('name.trim()'));
  });

  it('refusals: .env and a path outside the workspace are refused with reasons, and nothing is read', async () => {
    await write('.env', new TextEncoder().encode('SECRET=agent-must-not-see-9f2\n'));
    try {
      const since = emulator.requests.length;
      const turn = await runAgent('Read the secrets [[agent:refusals]]');
      assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
      const wire = JSON.stringify(chatRequestsOf(emulator, since).map((r) => r.body));
      assert.ok(!wire.includes('agent-must-not-see-9f2'), 'the secret never reached the gateway');
      const rows = turn.agent!.parts.filter((p) => p.kind === 'tool');
      assert.deepEqual(
        rows.map((r) => r.status),
        ['error', 'error'],
      );
      assert.match(rows[0].kind === 'tool' ? (rows[0].result ?? '') : '', /secrets pattern/);
      assert.match(
        rows[1].kind === 'tool' ? (rows[1].result ?? '') : '',
        /outside the workspace|without '\.\.'/,
      );
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), '.env'));
    }
  });
  it('rules files: AGENTS.md goes into the system prompt of Agent and Ask turns, and the run names it', async () => {
    const rules = 'Always write tests with node:test. rules-marker-4471';
    await write('AGENTS.md', new TextEncoder().encode(`# Conventions\n${rules}\n`));
    try {
      const since = emulator.requests.length;
      const turn = await runAgent('Make greet trim the name [[agent:edit-two]]');
      assert.deepEqual(turn.agent?.rules, ['AGENTS.md']);
      const agentBodies = chatRequestsOf(emulator, since).map((r) => r.body as Body);
      assert.ok(
        agentBodies.every((b) => b.messages[0].role === 'system' && b.messages[0].content?.includes(rules)),
      );
      const askSince = emulator.requests.length;
      await opened.session.receive({ type: 'setMode', mode: 'ask' });
      await opened.session.receive({ type: 'send', text: 'Hello there' });
      const answer = opened.session.conversation.turns.at(-1) as AssistantTurn;
      await eventually(() => assert.notEqual(answer.status, 'streaming'), 30_000);
      const ask = chatRequestsOf(emulator, askSince).map((r) => r.body as Body);
      assert.equal(ask.length, 1);
      assert.ok(ask[0].messages[0].role === 'system' && ask[0].messages[0].content?.includes(rules));
      assert.equal(ask[0].tools, undefined, 'Ask sends no tools');
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), 'AGENTS.md'));
    }
  });

  it('rules files of every kind, read side by side, keep their order; other files of the rules folder are left out', async () => {
    const text = (marker: string) => new TextEncoder().encode(`Rule ${marker}\n`);
    await write('CLAUDE.md', text('claude-7301'));
    await write('.github/copilot-instructions.md', text('copilot-7302'));
    await write('.modelgateway/rules/b.md', text('folder-b-7303'));
    await write('.modelgateway/rules/a.md', text('folder-a-7304'));
    await write('.modelgateway/rules/notes.txt', text('not-markdown-7305'));
    await write('.modelgateway/rules/folder.md/inside.md', text('in-a-folder-7306'));
    const order = ['copilot-7302', 'claude-7301', 'folder-a-7304', 'folder-b-7303'];
    try {
      const since = emulator.requests.length;
      const turn = await runAgent('Make greet trim the name [[agent:edit-two]]');
      assert.deepEqual(turn.agent?.rules, [
        '.github/copilot-instructions.md',
        'CLAUDE.md',
        '.modelgateway/rules/a.md',
        '.modelgateway/rules/b.md',
      ]);
      const askSince = emulator.requests.length;
      await opened.session.receive({ type: 'setMode', mode: 'ask' });
      await opened.session.receive({ type: 'send', text: 'Hello there' });
      const answer = opened.session.conversation.turns.at(-1) as AssistantTurn;
      await eventually(() => assert.notEqual(answer.status, 'streaming'), 30_000);
      const bodies = [since, askSince].map((from) => chatRequestsOf(emulator, from)[0].body as Body);
      for (const body of bodies) {
        const system = body.messages[0].role === 'system' ? (body.messages[0].content ?? '') : '';
        const at = order.map((marker) => system.indexOf(marker));
        assert.ok(
          at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1])),
          `in order: ${JSON.stringify(at)}`,
        );
        assert.ok(!system.includes('not-markdown-7305') && !system.includes('in-a-folder-7306'));
      }
    } finally {
      for (const path of ['CLAUDE.md', '.github', '.modelgateway'])
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(workspaceRoot(), path), { recursive: true });
    }
  });
});
