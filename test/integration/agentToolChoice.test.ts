// The Tools picker's choice in the real extension host: a built-in tool turned off is not offered on the wire; a
// tool another extension registered with VS Code (the test fixture's `getWeather`, from vscode.lm.tools) is off
// until turned on, then offered and called through vscode.lm.invokeTool, its result on the wire.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolFixtureApi } from '../fixtures/tool-extension/extension';
import type { Emulator } from '../gateway-emulator';
import { WEATHER_ANSWER_PREFIX } from '../gateway-emulator/agentRuns';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';
import { openSession, runAgent, toolRows, type AgentSession } from './agentSession';
import { setKey, useEmulator } from './helpers';

type Body = {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string; content: string | null; tool_call_id?: string }>;
};

const bodies = (emulator: Emulator, since: number): Body[] =>
  chatRequestsOf(emulator, since).map((r) => r.body as Body);
const toolNames = (body: Body | undefined): string[] => (body?.tools ?? []).map((t) => t.function.name);

describe('Agent tools chosen in the Tools picker (real extension host, emulator)', function () {
  this.timeout(120_000);
  useSettingsRestored(['baseUrl', 'network.retries', 'agent.toolProtocol']);
  let emulator: Emulator;
  let opened: Awaited<ReturnType<typeof openSession>>;
  let session: AgentSession;
  let fixture: ToolFixtureApi;

  before(async () => {
    emulator = await useEmulator();
    await setKey();
    await vscode.workspace
      .getConfiguration('modelGateway')
      .update('agent.toolProtocol', 'native', vscode.ConfigurationTarget.Global);
    fixture = (await vscode.extensions
      .getExtension<ToolFixtureApi>('modelgateway-tests.tool-fixture')!
      .activate())!;
    opened = await openSession();
    session = opened.session;
  });
  after(async () => {
    // Back to the defaults, so other suites see every built-in tool and no registered one.
    await session.receive({ type: 'setToolEnabled', name: 'getWeather', enabled: false });
    await session.receive({ type: 'setToolEnabled', name: 'list_dir', enabled: true });
    opened.release();
    await emulator?.close();
  });

  it('a registered tool is off by default: not offered, and a call to it is an unknown tool', async () => {
    assert.ok(
      vscode.lm.tools.some((t) => t.name === fixture.toolName),
      'the fixture registered its tool',
    );
    const since = emulator.requests.length;
    const turn = await runAgent(session, 'What is the weather? [[agent:weather]]');
    const sent = bodies(emulator, since);
    assert.ok(!toolNames(sent[0]).includes('getWeather'), 'getWeather is not in tools');
    assert.ok(toolNames(sent[0]).includes('read_file'));
    assert.equal(toolRows(turn)[0]?.status, 'error');
    assert.match(sent[1]?.messages.at(-1)?.content ?? '', /getWeather/);
    assert.equal(fixture.invocations.length, 0, 'the tool never ran');
  });

  it('turned on, it is offered and called through vscode.lm.invokeTool; a built-in turned off is not offered', async () => {
    await session.receive({ type: 'setToolEnabled', name: 'getWeather', enabled: true });
    await session.receive({ type: 'setToolEnabled', name: 'list_dir', enabled: false });
    const calls = fixture.invocations.length;
    const since = emulator.requests.length;
    const turn = await runAgent(session, 'What is the weather now? [[agent:weather]]');
    const sent = bodies(emulator, since);
    assert.ok(toolNames(sent[0]).includes('getWeather'), 'getWeather is in tools');
    assert.ok(!toolNames(sent[0]).includes('list_dir'), 'list_dir is not');
    assert.deepEqual(fixture.invocations.slice(calls), [{ city: 'Lisbon' }]);
    const result = sent[1]?.messages.find((m) => m.role === 'tool');
    assert.equal(result?.content, fixture.forecast('Lisbon'), 'the tool result on the wire');
    assert.equal(toolRows(turn)[0]?.status, 'done');
    assert.ok(turn.content.endsWith(`${WEATHER_ANSWER_PREFIX}${fixture.forecast('Lisbon')}`), turn.content);
  });
});
