// How the user and the loop control an agent run in the real extension host: protected files wait for Approve or
// Skip (nothing on disk changes before, and only the webview's click answers), Stop in the middle of a step, a
// malformed call the run recovers from on both protocols, the step limit and Continue, and a repeating call.
import * as assert from 'node:assert/strict';
import type { Emulator } from '../gateway-emulator';
import { chatRequestsOf, untilClosedSince, untilRequestSince } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';
import {
  decoder,
  exists,
  openSession,
  readBytes,
  removeIfThere,
  runAgent,
  startAgent,
  toolRows,
  writeBytes,
  type AgentSession,
} from './agentSession';
import { eventually, setKey, useEmulator, withSettings } from './helpers';

type Body = {
  tools?: unknown[];
  messages: Array<{ role: string; content: string | null; tool_call_id?: string }>;
};

const SAMPLE = 'src/sample.ts';

describe('Agent runs under the user’s control (real extension host, emulator)', function () {
  this.timeout(120_000);
  useSettingsRestored(['baseUrl', 'network.retries']);
  let emulator: Emulator;
  let opened: Awaited<ReturnType<typeof openSession>>;
  let session: AgentSession;
  let sample: Uint8Array;

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    sample = await readBytes(SAMPLE);
  });
  beforeEach(async () => {
    opened = await openSession();
    session = opened.session;
  });
  afterEach(async () => {
    await session.receive({ type: 'stop' });
    opened.release();
    await writeBytes(SAMPLE, sample);
  });
  after(() => emulator?.close());

  it('protected files: nothing is written before a click; Skip declines, Approve writes; no other message answers', async () => {
    const hadVscode = await exists('.vscode');
    try {
      const since = emulator.requests.length;
      const { turn, sent } = await startAgent(session, 'Configure the editor [[agent:protected]]');
      await eventually(() => assert.equal(toolRows(turn)[0]?.status, 'awaitingApproval'), 20_000);
      const first = toolRows(turn)[0];
      assert.match(first.approval ?? '', /\.vscode\/settings\.json/);
      assert.equal(await exists('.vscode/settings.json'), false, 'nothing is written while waiting');
      const user = session.conversation.turns.at(-2)!;
      // Approvals that do not name this row (another turn, another call) answer nothing.
      await session.receive({ type: 'agentApproval', turnId: user.id, callId: first.id, choice: 'approve' });
      await session.receive({
        type: 'agentApproval',
        turnId: turn.id,
        callId: `${first.id}x`,
        choice: 'approve',
      });
      // Nor does a choice the row did not offer (a protected file offers Approve and Skip, not Run).
      await session.receive({ type: 'agentApproval', turnId: turn.id, callId: first.id, choice: 'run' });
      await session.receive({
        type: 'agentApproval',
        turnId: turn.id,
        callId: first.id,
        choice: 'alwaysAllow',
      });
      assert.equal(toolRows(turn)[0].status, 'awaitingApproval');
      assert.deepEqual(
        toolRows(turn)[0].choices?.map((c) => c.id),
        ['approve', 'skip'],
      );
      await session.receive({ type: 'agentApproval', turnId: turn.id, callId: first.id, choice: 'skip' });

      await eventually(() => assert.equal(toolRows(turn)[1]?.status, 'awaitingApproval'), 20_000);
      assert.equal(toolRows(turn)[0].status, 'skipped');
      assert.equal(await exists('.vscode/settings.json'), false, 'a skipped file is never written');
      assert.equal(await exists('.vscode/tasks.json'), false, 'nothing is written while waiting');
      const second = toolRows(turn)[1];
      await session.receive({ type: 'agentApproval', turnId: turn.id, callId: second.id, choice: 'approve' });
      await sent;

      assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
      assert.deepEqual(
        toolRows(turn).map((r) => r.status),
        ['skipped', 'done'],
      );
      assert.equal(await exists('.vscode/settings.json'), false);
      assert.equal(
        decoder.decode(await readBytes('.vscode/tasks.json')),
        '{ "version": "2.0.0", "tasks": [] }\n',
      );
      // The model read that the user declined the first and that the second was created.
      const last = chatRequestsOf(emulator, since).at(-1)!.body as Body;
      const results = last.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
      assert.equal(results.length, 2);
      assert.match(results[0], /^Error: The user declined: \.vscode\/settings\.json was not changed/);
      assert.match(results[1], /^Created \.vscode\/tasks\.json/);
      assert.deepEqual(
        turn.agent!.files.map((f) => [f.path, f.created]),
        [['.vscode/tasks.json', true]],
      );
    } finally {
      if (hadVscode) {
        await removeIfThere('.vscode/settings.json');
        await removeIfThere('.vscode/tasks.json');
      } else await removeIfThere('.vscode');
    }
  });

  it('Stop while a protected file waits for approval: the turn ends stopped, nothing written, a late click does nothing', async () => {
    const hadVscode = await exists('.vscode');
    try {
      const since = emulator.requests.length;
      const { turn, sent } = await startAgent(session, 'Configure the editor [[agent:protected]]');
      await eventually(() => assert.equal(toolRows(turn)[0]?.status, 'awaitingApproval'), 20_000);
      await session.receive({ type: 'stop' });
      await sent;
      assert.equal(turn.status, 'stopped');
      assert.equal(await exists('.vscode/settings.json'), false);
      assert.equal(chatRequestsOf(emulator, since).length, 1, 'no step after Stop');
      // The row leaves its question and says the call was not run: skipped, not an error.
      assert.equal(toolRows(turn)[0].approval, undefined);
      assert.equal(toolRows(turn)[0].status, 'skipped');
      assert.match(toolRows(turn)[0].summary, /not run: stopped$/);
      assert.match(toolRows(turn)[0].result ?? '', /^Stopped by the user/);
      // A click that comes after Stop answers nothing.
      const callId = toolRows(turn)[0].id;
      await session.receive({ type: 'agentApproval', turnId: turn.id, callId, choice: 'approve' });
      assert.equal(await exists('.vscode/settings.json'), false);
    } finally {
      if (hadVscode) await removeIfThere('.vscode/settings.json');
      else await removeIfThere('.vscode');
    }
  });

  it('Stop while a step streams: the request is closed, the turn ends stopped, no file changed', async () => {
    const since = emulator.requests.length;
    const { turn, sent } = await startAgent(session, 'Think about greet [[agent:stall]]');
    await untilRequestSince(
      emulator,
      since,
      () => chatRequestsOf(emulator, since).length >= 2,
      20_000,
      'the second step at the gateway',
    );
    await eventually(() => assert.match(turn.content, /Thinking it over/), 10_000);
    await session.receive({ type: 'stop' });
    await untilClosedSince(emulator, since, 'the stalled request closed by the client');
    await sent;
    assert.equal(turn.status, 'stopped');
    assert.equal(chatRequestsOf(emulator, since).length, 2, 'no step after Stop');
    assert.deepEqual(
      toolRows(turn).map((r) => [r.name, r.status]),
      [['read_file', 'done']],
    );
    assert.deepEqual(turn.agent!.files, []);
    assert.deepEqual(await readBytes(SAMPLE), sample);
    assert.ok(chatRequestsOf(emulator, since)[1].clientClosed, 'the second step is the one closed');
  });

  // The text run uses a model of its own: auto remembers the switch to text for a model and gateway.
  for (const [protocol, marker, model] of [
    ['native', '', undefined],
    ['text', ' [[fault:no-tools]]', 'alpha-haiku-4-5-20251001'],
  ] as const)
    it(`a malformed call shows its error and the run recovers (${protocol} protocol)`, async () => {
      const since = emulator.requests.length;
      const turn = await runAgent(session, `Read sample [[agent:malformed]]${marker}`, { model });
      assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
      assert.equal(turn.agent?.protocol, protocol);
      const rows = toolRows(turn);
      assert.deepEqual(
        rows.map((r) => r.status),
        ['error', 'done'],
      );
      assert.match(rows[0].result ?? '', /^The tool call could not be read: .*not .*JSON/);
      assert.match(turn.content, /Recovered after: .*could not be read/);
      // The model was told of the error and then got the file.
      const bodies = chatRequestsOf(emulator, since)
        .filter((r) => r.status === 200)
        .map((r) => r.body as Body);
      assert.equal(bodies.length, 3);
      assert.ok(JSON.stringify(bodies[2].messages).includes('export function greet'));
    });

  it('the step limit pauses the run; Continue goes on for as many steps again', async () => {
    await withSettings({ 'agent.maxSteps': 3 }, async () => {
      const since = emulator.requests.length;
      const turn = await runAgent(session, 'Read it line by line [[agent:long]]');
      assert.equal(turn.agent?.paused, true);
      assert.equal(toolRows(turn).length, 3);
      assert.equal(chatRequestsOf(emulator, since).length, 3);
      await session.receive({ type: 'agentContinue', turnId: turn.id });
      assert.equal(turn.agent?.paused, true);
      assert.equal(toolRows(turn).length, 6);
      const bodies = chatRequestsOf(emulator, since).map((r) => r.body as Body);
      assert.equal(bodies.length, 6);
      // The continued steps carry on the same messages.
      assert.deepEqual(bodies[3].messages.slice(0, bodies[2].messages.length), bodies[2].messages);
      assert.deepEqual(
        toolRows(turn).map((r) => r.status),
        ['done', 'done', 'done', 'done', 'done', 'done'],
      );
    });
  });

  it('the same call with the same result again and again ends the run with the reason', async () => {
    const since = emulator.requests.length;
    const turn = await runAgent(session, 'Read it [[agent:loop]]');
    assert.equal(turn.status, 'error');
    assert.match(turn.error?.message ?? '', /called read_file 3 times in a row with the same input/);
    assert.equal(toolRows(turn).length, 3);
    assert.equal(chatRequestsOf(emulator, since).length, 3);
  });
});
