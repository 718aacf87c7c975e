// MCP servers in the real extension host (issue 27): the workspace's .vscode/mcp.json starts the stdio fixture
// server (test/fixtures/mcp-server) on the first agent run; its tools reach the model as `fixture.<tool>` with their
// schemas, each tool's first call asks for approval, results (an error, a dropped image, a timeout) are on the
// wire, a server whose command does not exist is reported in the turn while the run goes on, and the setting
// turns a server off.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { FAIL_TEXT, LOOKUP_TOKEN, startHttpFixture } from '../fixtures/mcp-server/server';
import { MCP_ANSWER_PREFIX } from '../gateway-emulator/agentRuns';
import type { Emulator } from '../gateway-emulator';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored, withSettings } from '../support/settings';
import {
  encoder,
  exists,
  openSession,
  removeIfThere,
  startAgent,
  toolRows,
  writeBytes,
  type AgentSession,
} from './agentSession';
import { eventually, setKey, useEmulator } from './helpers';

type Body = {
  tools?: Array<{ function: { name: string; parameters: unknown } }>;
  messages: Array<{ role: string; content: string | null }>;
};

const FIXTURE_SCRIPT = join(__dirname, '..', 'fixtures', 'mcp-server', 'server.js');
const MISSING_COMMAND = 'model-gateway-no-such-mcp-command';

describe('Agent with MCP servers (real extension host, fixture server)', function () {
  this.timeout(120_000);
  useSettingsRestored(['baseUrl', 'network.retries', 'agent.mcpServers', 'agent.mcpTimeoutSeconds']);
  let emulator: Emulator;
  let session: AgentSession;
  let release: () => void;
  let hadVscode = false;

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    hadVscode = await exists('.vscode');
    const mcpJson = `{
      // JSONC, as VS Code writes it
      "servers": {
        "fixture": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(FIXTURE_SCRIPT)}] },
        "missing": { "command": "${MISSING_COMMAND}", "args": [] },
      },
    }`;
    await writeBytes('.vscode/mcp.json', encoder.encode(mcpJson));
  });
  beforeEach(async () => {
    ({ session, release } = await openSession());
  });
  afterEach(async () => {
    await session.receive({ type: 'stop' });
    release();
  });
  after(async () => {
    if (hadVscode) await removeIfThere('.vscode/mcp.json');
    else await removeIfThere('.vscode');
    await emulator?.close();
  });

  /** Answers the row awaiting approval at `index` (Run unless told) once it asks, returning its question. */
  async function approveRow(
    turn: Awaited<ReturnType<typeof startAgent>>['turn'],
    index: number,
    choice: 'run' | 'alwaysAllow' = 'run',
  ): Promise<string> {
    await eventually(() => assert.equal(toolRows(turn)[index]?.status, 'awaitingApproval'), 60_000);
    const row = toolRows(turn)[index];
    await session.receive({ type: 'agentApproval', turnId: turn.id, callId: row.id, choice });
    return row.approval ?? '';
  }

  it('calls the fixture tools after approval: results on the wire, the missing server reported, the run goes on', async () => {
    const since = emulator.requests.length;
    const { turn, sent } = await startAgent(session, 'Use the MCP tools [[agent:mcp]]');
    // Row 0 reports the server that did not start; rows 1–3 are the three calls, each asking first.
    const question = await approveRow(turn, 1);
    assert.match(question, /"lookup" of the MCP server "fixture"/);
    assert.match(question, /"word":"gateway"/);
    await approveRow(turn, 2);
    await approveRow(turn, 3);
    await sent;
    assert.equal(turn.status, 'complete', JSON.stringify(turn.error));

    const rows = toolRows(turn);
    assert.equal(rows[0].status, 'error');
    assert.match(rows[0].summary, /MCP server "missing" .* did not start: .*ENOENT/);
    assert.deepEqual(
      rows.slice(1).map((r) => [r.name, r.status]),
      [
        ['fixture.lookup', 'done'],
        ['fixture.fail', 'error'],
        ['fixture.picture', 'done'],
      ],
    );

    const requests = chatRequestsOf(emulator, since).map((r) => r.body as Body);
    const offered = requests[0].tools ?? [];
    const lookup = offered.find((t) => t.function.name === 'fixture.lookup');
    assert.ok(lookup, `offered: ${offered.map((t) => t.function.name).join(', ')}`);
    assert.deepEqual((lookup.function.parameters as { required: string[] }).required, ['word']);
    assert.ok(
      offered.some((t) => t.function.name === 'read_file'),
      'the built-in tools stay',
    );
    assert.ok(!offered.some((t) => t.function.name.startsWith('missing.')));
    const results = requests
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => m.content ?? '');
    assert.equal(results.length, 3);
    assert.equal(results[0], `${LOOKUP_TOKEN}: "gateway" means 7 letters.`);
    assert.equal(results[1], `Error: ${FAIL_TEXT}`);
    assert.equal(results[2], 'A red dot:\n[image (image/png) dropped: the agent passes only text]');
    assert.ok(turn.content.includes(`${MCP_ANSWER_PREFIX}${LOOKUP_TOKEN}`), turn.content);

    // The same tools again in this chat session: approved once, they run without asking.
    const again = await startAgent(session, 'Again [[agent:mcp]]', { sameChat: true });
    await again.sent;
    assert.equal(again.turn.status, 'complete', JSON.stringify(again.turn.error));
    assert.deepEqual(
      toolRows(again.turn)
        .slice(1)
        .map((r) => r.status),
      ['done', 'error', 'done'],
    );
  });

  it('a tool that never answers: cancelled at modelGateway.agent.mcpTimeoutSeconds, the model told so', async () => {
    await withSettings({ 'agent.mcpTimeoutSeconds': 2 }, async () => {
      const since = emulator.requests.length;
      const { turn, sent } = await startAgent(session, 'Hang [[agent:mcp-hang]]');
      await approveRow(turn, 1);
      await sent;
      assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
      const last = chatRequestsOf(emulator, since).at(-1)!.body as Body;
      const result = last.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
      assert.equal(
        result,
        'Error: The MCP tool fixture.hang did not answer within 2 s; the call was cancelled.',
      );
    });
  });

  it('Stop while a tool hangs ends the run at once, and the server still answers the next run', async () => {
    const since = emulator.requests.length;
    const { turn, sent } = await startAgent(session, 'Hang [[agent:mcp-hang]]');
    await approveRow(turn, 1);
    await eventually(() => assert.equal(toolRows(turn)[1]?.status, 'running'), 20_000);
    const stoppedAt = Date.now();
    await session.receive({ type: 'stop' });
    await sent;
    assert.ok(Date.now() - stoppedAt < 5_000, 'Stop does not wait for the tool');
    assert.equal(turn.status, 'stopped');
    assert.equal(chatRequestsOf(emulator, since).length, 1, 'no step after Stop');
    const next = await startAgent(session, 'Again [[agent:mcp]]', { sameChat: true });
    await approveRow(next.turn, 1);
    await approveRow(next.turn, 2);
    await approveRow(next.turn, 3);
    await next.sent;
    assert.equal(toolRows(next.turn)[1].status, 'done');
  });

  it('a server that exits during a call: that call and the next say so, and the next run starts it again', async () => {
    const since = emulator.requests.length;
    const { turn, sent } = await startAgent(session, 'Crash [[agent:mcp-crash]]');
    await approveRow(turn, 1);
    await approveRow(turn, 2);
    await sent;
    assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
    const last = chatRequestsOf(emulator, since).at(-1)!.body as Body;
    const results = last.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
    assert.match(results[0], /^Error: The MCP server "fixture" stopped during the call/);
    assert.match(results[1], /^Error: The MCP server "fixture" has stopped/);
    const next = await startAgent(session, 'Again [[agent:mcp]]', { sameChat: true });
    await approveRow(next.turn, 2);
    await approveRow(next.turn, 3);
    await next.sent;
    assert.equal(toolRows(next.turn)[1].name, 'fixture.lookup');
    assert.equal(toolRows(next.turn)[1].status, 'done', toolRows(next.turn)[1].result);
  });

  it('an http server from the setting replaces the same name: Streamable HTTP with its headers', async () => {
    const web = await startHttpFixture();
    try {
      const fixture = { type: 'http', url: web.url, headers: { 'X-Fixture-Token': 'tok-123' } };
      await withSettings({ 'agent.mcpServers': { fixture, missing: false } }, async () => {
        const since = emulator.requests.length;
        const { turn, sent } = await startAgent(session, 'Use the MCP tools [[agent:mcp]]');
        for (const index of [0, 1, 2]) await approveRow(turn, index);
        await sent;
        assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
        const last = chatRequestsOf(emulator, since).at(-1)!.body as Body;
        const results = last.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
        assert.equal(results[0], `${LOOKUP_TOKEN}: "gateway" means 7 letters.`);
        assert.equal(results[1], `Error: ${FAIL_TEXT}`);
        assert.ok(web.headers.length >= 4, `${web.headers.length} requests over HTTP`);
        assert.ok(web.headers.every((h) => h['x-fixture-token'] === 'tok-123'));
      });
    } finally {
      await web.close();
    }
  });

  it('Stop while a server is still starting ends the run at once, before any request', async () => {
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    await withSettings({ 'agent.mcpServers': { silent } }, async () => {
      const since = emulator.requests.length;
      const { turn, sent } = await startAgent(session, 'Use the MCP tools [[agent:mcp]]');
      const stoppedAt = Date.now();
      await session.receive({ type: 'stop' });
      await sent;
      assert.ok(Date.now() - stoppedAt < 5_000, `Stop took ${Date.now() - stoppedAt} ms`);
      assert.equal(turn.status, 'stopped');
      assert.equal(chatRequestsOf(emulator, since).length, 0, 'no model request after Stop');
    });
  });

  it('modelGateway.agent.mcpServers adds a server and turns one off by name', async () => {
    const extra = { command: process.execPath, args: [FIXTURE_SCRIPT] };
    await withSettings({ 'agent.mcpServers': { missing: false, extra } }, async () => {
      const since = emulator.requests.length;
      const { turn, sent } = await startAgent(session, 'Use the MCP tools [[agent:mcp]]');
      for (const index of [0, 1, 2]) await approveRow(turn, index);
      await sent;
      assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
      const first = chatRequestsOf(emulator, since)[0].body as Body;
      const names = (first.tools ?? []).map((t) => t.function.name);
      for (const name of ['read_file', 'fixture.lookup', 'extra.lookup', 'extra.hang'])
        assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
      assert.ok(
        !toolRows(turn).some((r) => r.id.startsWith('mcp-start-')),
        'the missing server is not started',
      );
      assert.equal(toolRows(turn)[0].name, 'fixture.lookup');
    });
  });
  // Last: Always Allow stays in the workspace's state for the rest of this window.
  it('Run allows a tool for its conversation; Always Allow for the workspace, in a new session too', async () => {
    const first = await openSession();
    try {
      const { turn, sent } = await startAgent(first.session, 'Use the MCP tools [[agent:mcp]]');
      const waitRow = async (index: number, choice: 'run' | 'alwaysAllow') => {
        await eventually(() => assert.equal(toolRows(turn)[index]?.status, 'awaitingApproval'), 60_000);
        const row = toolRows(turn)[index];
        assert.deepEqual(
          row.choices?.map((c) => c.id),
          ['run', 'skip', 'alwaysAllow'],
        );
        await first.session.receive({ type: 'agentApproval', turnId: turn.id, callId: row.id, choice });
      };
      await waitRow(1, 'alwaysAllow');
      await waitRow(2, 'run');
      await waitRow(3, 'run');
      await sent;
    } finally {
      first.release();
    }
    // A new chat session: lookup (Always Allow) runs at once; fail and picture (Run) ask again.
    const second = await openSession();
    try {
      const { turn, sent } = await startAgent(second.session, 'Once more [[agent:mcp]]');
      await eventually(() => assert.equal(toolRows(turn)[2]?.status, 'awaitingApproval'), 60_000);
      assert.equal(toolRows(turn)[1]?.status, 'done', 'the always-allowed tool ran without asking');
      await second.session.receive({ type: 'stop' });
      await sent;
    } finally {
      second.release();
    }
  });
});
