// Plan mode's host path in the real extension host (issue 27): a Plan run offers only the read-only tools on both
// tool protocols, and an edit the model calls anyway comes back as a tool error while the file stays as it was.
import * as assert from 'node:assert/strict';
import { PLAN_ANSWER } from '../gateway-emulator/agentRuns';
import type { Emulator } from '../gateway-emulator';
import type { AssistantTurn } from '../../src/chat/types';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored, withSettings } from '../support/settings';
import { openSession, readBytes, toolRows, writeBytes, type AgentSession } from './agentSession';
import { eventually, setKey, useEmulator } from './helpers';

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string | null }>;
};

const EDIT_TOOLS = ['edit_file', 'create_file', 'delete_file'];

describe('Plan mode in the chat (real extension host, emulator)', function () {
  this.timeout(120_000);
  useSettingsRestored(['baseUrl', 'network.retries']);
  let emulator: Emulator;
  let opened: Awaited<ReturnType<typeof openSession>>;
  let sample: Uint8Array | undefined;

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    opened = await openSession();
    sample = await readBytes('src/sample.ts');
  });
  after(async () => {
    // A run that edited after all (a failure) leaves the fixture as the next suites expect it.
    if (sample) await writeBytes('src/sample.ts', sample);
    // The next suite's session starts from an empty Ask conversation, as it would without these tests.
    await opened?.session.receive({ type: 'newChat' });
    opened?.release();
    await emulator?.close();
  });

  /** Sends `text` in Plan mode in a new chat and waits for the run's turn to end. */
  async function plan(session: AgentSession, text: string): Promise<AssistantTurn> {
    await session.receive({ type: 'newChat' });
    await session.receive({ type: 'setMode', mode: 'plan' });
    assert.equal(session.conversation.mode, 'plan');
    await session.receive({ type: 'send', text });
    const turn = session.conversation.turns.at(-1) as AssistantTurn;
    await eventually(() => assert.notEqual(turn.status, 'streaming'), 60_000);
    return turn;
  }

  for (const protocol of ['native', 'text'] as const) {
    it(`an edit called anyway is refused as a tool that is not offered; the file is untouched (${protocol})`, async () => {
      const before = await readBytes('src/sample.ts');
      const since = emulator.requests.length;
      const turn = await withSettings({ 'agent.toolProtocol': protocol }, () =>
        plan(opened.session, 'Plan a trim [[agent:plan-edit]]'),
      );
      assert.equal(turn.status, 'complete', JSON.stringify(turn.error));
      assert.equal(turn.agent?.plan, true);
      assert.equal(turn.agent?.protocol, protocol);
      const [row] = toolRows(turn);
      assert.equal(row.name, 'edit_file');
      assert.equal(row.status, 'error');
      // The loop's words (native) or the text parser's: either way the model learns the tool is not there.
      assert.match(
        row.result ?? '',
        /(Unknown tool|There is no tool named) "edit_file"\. The tools are: read_file, list_dir/,
      );
      assert.ok(turn.content.includes(PLAN_ANSWER));
      assert.deepEqual(await readBytes('src/sample.ts'), before);
      assert.deepEqual(turn.agent?.files, []);
      // On the wire: no edit tool offered, natively or in the text protocol's system prompt.
      const bodies = chatRequestsOf(emulator, since).map((r) => r.body as Body);
      assert.equal(bodies.length, 2);
      for (const body of bodies) {
        const offered =
          protocol === 'native'
            ? (body.tools ?? []).map((t) => t.function.name)
            : [...(body.messages[0].content ?? '').matchAll(/^- (\w+): /gm)].map((m) => m[1]);
        if (protocol === 'text') assert.equal(body.tools, undefined);
        assert.ok(offered.includes('read_file'), JSON.stringify(offered));
        for (const name of EDIT_TOOLS) assert.ok(!offered.includes(name), `${name} offered (${protocol})`);
        assert.match(body.messages[0].content ?? '', /numbered plan/);
      }
    });
  }
});
