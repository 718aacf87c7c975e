// MCP servers in the real editor (issue 27): the user's mcp.json (in code-server's user data, found from the
// extension's global storage) starts the stdio fixture server on the first agent run. Each fixture tool's first call
// waits for Run; the results reach the model (the emulator's request log); a server whose command does not
// exist is reported in the turn and the run goes on; Stop ends a run whose tool never answers.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { FAIL_TEXT, LOOKUP_TOKEN } from '../fixtures/mcp-server/server';
import { MCP_ANSWER_PREFIX } from '../gateway-emulator/agentRuns';
import { acceptInputBox } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { chatRequestsOf } from '../support/emulatorRequests';
import { articles, emulator, openAgentChat, send, until } from './chatHelpers';

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string | null }>;
};

const FIXTURE_SCRIPT = join(__dirname, '..', 'fixtures', 'mcp-server', 'server.js');

describe('Agent with MCP servers in the real editor', function () {
  this.timeout(180_000);
  let userMcpJson: string;
  let before_: string | undefined;

  before(() => {
    userMcpJson = join(e2e().server.userDataDir, 'User', 'mcp.json');
    before_ = existsSync(userMcpJson) ? readFileSync(userMcpJson, 'utf8') : undefined;
    const servers = {
      fixture: { type: 'stdio', command: process.execPath, args: [FIXTURE_SCRIPT] },
      missing: { type: 'stdio', command: 'model-gateway-no-such-mcp-command' },
    };
    writeFileSync(userMcpJson, `// The user's MCP servers\n${JSON.stringify({ servers }, null, 2)}\n`);
  });
  // Later suites run the agent without these servers.
  after(() => {
    if (before_ === undefined) rmSync(userMcpJson, { force: true });
    else writeFileSync(userMcpJson, before_);
  });

  /** Clicks the first Run the transcript shows (bounded wait). */
  async function approve(frame: FrameLocator): Promise<void> {
    const button = frame.getByRole('button', { name: 'Run', exact: true }).first();
    await button.waitFor({ timeout: 60_000 });
    await button.click();
  }

  it('calls the fixture tools after Run: the results are on the wire, the missing server is reported', async () => {
    const frame = await openAgentChat(e2e().page);
    const since = emulator().requests.length;
    await send(frame, 'Use the MCP tools [[agent:mcp]]');
    const answer = articles(frame, /^Assistant /).last();
    await answer.getByText(/"lookup" of the MCP server "fixture"/).waitFor({ timeout: 60_000 });
    await approve(frame);
    await approve(frame);
    await approve(frame);
    await until(
      async () => (await answer.innerText()).includes(MCP_ANSWER_PREFIX),
      60_000,
      'the agent’s answer quoting the MCP results',
    );
    await answer
      .getByRole('button', { name: /MCP server "missing" .*did not start/ })
      .waitFor({ timeout: 10_000 });
    const bodies = chatRequestsOf(emulator(), since).map((r) => r.body as Body);
    assert.ok((bodies[0].tools ?? []).some((t) => t.function.name === 'fixture.lookup'));
    const results = bodies
      .at(-1)!
      .messages.filter((m) => m.role === 'tool')
      .map((m) => m.content ?? '');
    assert.deepEqual(results, [
      `${LOOKUP_TOKEN}: "gateway" means 7 letters.`,
      `Error: ${FAIL_TEXT}`,
      'A red dot:\n[image (image/png) dropped: the agent passes only text]',
    ]);
    assert.ok((await answer.innerText()).includes(LOOKUP_TOKEN));
  });

  it('Stop while the hanging tool runs ends the run, with no further request', async () => {
    const frame = await openAgentChat(e2e().page);
    const since = emulator().requests.length;
    await send(frame, 'Hang [[agent:mcp-hang]]');
    await approve(frame);
    const stop = frame.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor({ timeout: 10_000 });
    await stop.click();
    const answer = articles(frame, /^Assistant /).last();
    await answer
      .getByText(/Stopped/)
      .first()
      .waitFor({ timeout: 15_000 });
    assert.equal(chatRequestsOf(emulator(), since).length, 1, 'no step after Stop');
  });

  // Last: it rewrites the user's mcp.json; `after` puts back what was there before the suite.
  it('an ${input:…} value is asked once in a password box, reaches the server, and is in no log', async () => {
    const secret = `mcp-secret-${Date.now()}`;
    const servers = {
      fixture: {
        type: 'stdio',
        command: process.execPath,
        args: [FIXTURE_SCRIPT],
        env: { MCP_FIXTURE_SECRET: '${input:fixture-token}' },
      },
    };
    const inputs = [
      { type: 'promptString', id: 'fixture-token', description: 'Fixture token', password: true },
    ];
    writeFileSync(userMcpJson, JSON.stringify({ inputs, servers }, null, 2));
    const run = async (text: string, asked: boolean): Promise<string[]> => {
      const frame = await openAgentChat(e2e().page);
      const since = emulator().requests.length;
      await send(frame, text);
      if (asked) await acceptInputBox(e2e().page, secret, { password: true, timeoutMs: 60_000 });
      for (let i = 0; i < 3; i++) await approve(frame);
      const answer = articles(frame, /^Assistant /).last();
      await until(async () => (await answer.innerText()).includes(MCP_ANSWER_PREFIX), 60_000, 'the answer');
      return (chatRequestsOf(emulator(), since).at(-1)!.body as Body).messages
        .filter((m) => m.role === 'tool')
        .map((m) => m.content ?? '');
    };
    const first = await run('Use the MCP tools [[agent:mcp]]', true);
    assert.equal(first[0], `${LOOKUP_TOKEN}: "gateway" means 7 letters. Secret: ${secret}.`);
    // The window's reload leaves none of the old extension host's servers running (deactivate closes them, and a
    // server whose host is gone sees its stdin end).
    const running = fixtureServerPids();
    assert.ok(running.length > 0, 'the fixture server runs');
    await e2e().reload();
    await until(
      () => fixtureServerPids().every((pid) => !running.includes(pid)),
      20_000,
      `the servers of the old extension host to exit (${running.join(', ')})`,
    );
    // A new extension host starts the server again with the stored value: no box this time.
    const again = await run('Once more [[agent:mcp]]', false);
    assert.equal(again[0], first[0]);
    assert.equal(await e2e().page.locator('.quick-input-widget input[type="password"]').count(), 0);
    const logs = filesUnder(join(e2e().server.userDataDir, 'logs'));
    assert.ok(logs.length > 0, 'the logs were searched');
    for (const file of logs)
      assert.ok(!readFileSync(file, 'utf8').includes(secret), `the secret is in ${file}`);
  });
});

/** The running fixture server processes (a zombie's command line is empty). */
function fixtureServerPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(FIXTURE_SCRIPT) ? [Number(pid)] : [];
      } catch {
        return []; // exited meanwhile
      }
    });
}

/** Every file below `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}
