import * as assert from 'node:assert/strict';
import {
  agentRunOf,
  CARRY_OUT_ANSWER,
  COMMAND_ANSWER_PREFIX,
  COMMANDS,
  EDIT_TWO_ANSWER,
  NO_PLAN_ANSWER,
  PLAN_ANSWER,
  nextAgentAction,
  textCallBlock,
  WEATHER_ANSWER_PREFIX,
} from '../../gateway-emulator/agentRuns';
import { startEmulator, type Emulator } from '../../gateway-emulator';
import { chatBody, MODEL, parseSse, post } from './helpers';

const TOOLS = ['read_file', 'search_text', 'edit_file'].map((name) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: {} } },
}));

type Message = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string };

/** A native conversation: the marker, then one assistant call and one tool result per entry of `results`. */
function nativeBody(script: string, results: Array<[string, string]>): Record<string, unknown> {
  const messages: Message[] = [{ role: 'user', content: `Go [[agent:${script}]]` }];
  results.forEach(([name, content], i) => {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name, arguments: '{}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content });
  });
  return { model: MODEL, messages, tools: TOOLS, stream: true };
}

/** The same conversation in the text protocol: calls in the text, results in user messages. */
function textBody(script: string, results: Array<[string, string]>): Record<string, unknown> {
  const messages: Message[] = [
    { role: 'system', content: `Call tools like this:\n${textCallBlock('read_file', {})}` },
    { role: 'user', content: `Go [[agent:${script}]]` },
  ];
  for (const [name, content] of results) {
    messages.push({ role: 'assistant', content: textCallBlock(name, {}) });
    messages.push({
      role: 'user',
      content: `<tool_result name="${name}" id="x">\n${content}\n</tool_result>`,
    });
  }
  return { model: MODEL, messages, stream: true };
}

describe('Emulator: scripted agent runs', () => {
  for (const [label, body] of [
    ['native', nativeBody],
    ['text', textBody],
  ] as const) {
    it(`command scripts run their command, then react to its result (${label})`, () => {
      const first = nextAgentAction(agentRunOf(body('command-fail', []))!);
      assert.deepEqual(first.kind === 'call' && first.calls, [
        { name: 'run_command', args: { command: COMMANDS.fail } },
      ]);
      const failed = nextAgentAction(
        agentRunOf(body('command-fail', [['run_command', 'boom: no such test\n[exit code 3]']]))!,
      );
      assert.deepEqual(failed, {
        kind: 'answer',
        text: `It failed. ${COMMAND_ANSWER_PREFIX}boom: no such test\n[exit code 3]`,
      });
      const printed = nextAgentAction(
        agentRunOf(body('command-print', [['run_command', '42\n[exit code 0]']]))!,
      );
      assert.deepEqual(printed, { kind: 'answer', text: `${COMMAND_ANSWER_PREFIX}42\n[exit code 0]` });
      const chained = nextAgentAction(
        agentRunOf(body('command-chain', [['run_command', '42\n[exit code 0]']]))!,
      );
      assert.deepEqual(chained.kind === 'call' && chained.calls[0].args, { command: COMMANDS.chained });
    });

    it(`edit-two reads, searches, retries an ambiguous edit, edits the README, then answers (${label})`, () => {
      const steps: Array<[string, string]> = [];
      const names: string[] = [];
      for (let i = 0; i < 10; i++) {
        const state = agentRunOf(body('edit-two', steps));
        assert.ok(state);
        assert.equal(state.protocol, label);
        const action = nextAgentAction(state);
        if (action.kind === 'answer') {
          assert.equal(action.text, EDIT_TWO_ANSWER);
          break;
        }
        assert.equal(action.kind, 'call');
        if (action.kind !== 'call') return;
        const { name, args } = action.calls[0];
        names.push(name);
        // The first edit is ambiguous; the loop answers it with an error naming the reason.
        const edits = names.filter((n) => n === 'edit_file').length;
        const result =
          name === 'edit_file' && edits === 1
            ? 'Error: edit 1: oldText matches 2 places in src/sample.ts; add more context.'
            : name === 'edit_file'
              ? `Edited ${String(args.path)} +1 -1`
              : 'ok';
        steps.push([name, result]);
      }
      assert.deepEqual(names, ['read_file', 'search_text', 'edit_file', 'edit_file', 'edit_file']);
    });
  }

  for (const [label, body] of [
    ['native', nativeBody],
    ['text', textBody],
  ] as const) {
    it(`plan reads, searches, then answers a numbered plan (${label})`, () => {
      const first = nextAgentAction(agentRunOf(body('plan', []))!);
      assert.deepEqual(first.kind === 'call' && first.calls, [
        { name: 'read_file', args: { path: 'src/sample.ts' } },
      ]);
      const second = nextAgentAction(agentRunOf(body('plan', [['read_file', 'ok']]))!);
      assert.deepEqual(second.kind === 'call' && second.calls, [
        { name: 'search_text', args: { query: 'greet' } },
      ]);
      const last = nextAgentAction(
        agentRunOf(
          body('plan', [
            ['read_file', 'ok'],
            ['search_text', 'ok'],
          ]),
        )!,
      );
      assert.deepEqual(last, { kind: 'answer', text: PLAN_ANSWER });
      assert.match(PLAN_ANSWER, /^1\. .*\n2\. .*\n3\. /m);
    });

    it(`"Carry out this plan" after the plan reads, edits, answers; without the plan it says so (${label})`, () => {
      const after = (prior: string, results: Array<[string, string]>): Record<string, unknown> => {
        const planned = body('plan', []) as { messages: Message[] };
        const carry = body('x', results) as { messages: Message[] };
        const messages = [
          ...planned.messages,
          { role: 'assistant', content: prior },
          ...carry.messages
            .filter((m) => m.role !== 'system')
            .map((m) => (m.content === 'Go [[agent:x]]' ? { ...m, content: 'Carry out this plan' } : m)),
        ];
        return { ...carry, messages };
      };
      const withPlan = `Reading.${PLAN_ANSWER}`;
      const steps = [
        nextAgentAction(agentRunOf(after(withPlan, []))!),
        nextAgentAction(agentRunOf(after(withPlan, [['read_file', 'ok']]))!),
        nextAgentAction(
          agentRunOf(
            after(withPlan, [
              ['read_file', 'ok'],
              ['edit_file', 'Edited src/sample.ts +1 -1'],
            ]),
          )!,
        ),
      ];
      assert.deepEqual(
        steps.map((a) => (a.kind === 'call' ? a.calls[0].name : a.kind)),
        ['read_file', 'edit_file', 'answer'],
      );
      assert.deepEqual(steps[2], { kind: 'answer', text: CARRY_OUT_ANSWER });
      assert.deepEqual(nextAgentAction(agentRunOf(after('Some other answer.', []))!), {
        kind: 'answer',
        text: NO_PLAN_ANSWER,
      });
    });
  }

  it('weather calls getWeather for Lisbon, then answers with the result it received (text protocol)', () => {
    const first = nextAgentAction(agentRunOf(textBody('weather', []))!);
    assert.deepEqual(first.kind === 'call' && first.calls, [
      { name: 'getWeather', args: { city: 'Lisbon' } },
    ]);
    const second = nextAgentAction(agentRunOf(textBody('weather', [['getWeather', 'Sunny, 24 °C']]))!);
    assert.deepEqual(second, { kind: 'answer', text: `${WEATHER_ANSWER_PREFIX}Sunny, 24 °C` });
  });

  it('without tools offered, a scripted request gets a plain answer', () => {
    const state = agentRunOf({ model: MODEL, messages: [{ role: 'user', content: '[[agent:edit-two]]' }] });
    assert.equal(state?.protocol, 'none');
    assert.equal(nextAgentAction(state!).kind, 'answer');
  });

  describe('over HTTP', () => {
    let emulator: Emulator;
    before(async () => {
      emulator = await startEmulator();
    });
    after(() => emulator.close());

    it('streams a native tool call with its JSON arguments', async () => {
      const response = await post(emulator.url, '/v1/chat/completions', nativeBody('edit-two', []));
      assert.equal(response.status, 200);
      const events = parseSse(await response.text()).filter((e) => e.data !== '[DONE]');
      const deltas = events.map(
        (e) =>
          (
            JSON.parse(e.data) as {
              choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>;
            }
          ).choices[0],
      );
      const args = deltas
        .flatMap(
          (d) =>
            (d.delta.tool_calls as Array<{ function: { arguments?: string; name?: string } }> | undefined) ??
            [],
        )
        .map((c) => c.function.arguments ?? '')
        .join('');
      assert.deepEqual(JSON.parse(args), { path: 'src/sample.ts' });
      assert.equal(deltas.at(-1)?.finish_reason, 'tool_calls');
    });

    it('streams a text-protocol call block when tools travel in the system prompt', async () => {
      const response = await post(emulator.url, '/v1/chat/completions', textBody('edit-two', []));
      const text = parseSse(await response.text())
        .filter((e) => e.data !== '[DONE]')
        .map(
          (e) =>
            (JSON.parse(e.data) as { choices: Array<{ delta: { content?: string } }> }).choices[0].delta
              .content ?? '',
        )
        .join('');
      assert.ok(text.includes(textCallBlock('read_file', { path: 'src/sample.ts' })), text);
    });

    it('[[fault:no-tools]] rejects `tools` with a 400, as a server without tool calling does', async () => {
      const body = { ...chatBody('Go [[agent:edit-two]] [[fault:no-tools]]'), tools: TOOLS, stream: true };
      const response = await post(emulator.url, '/v1/chat/completions', body);
      assert.equal(response.status, 400);
      assert.match(await response.text(), /tools/);
    });
  });
});
