import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { type AgentEvent, MAX_BAD_CALLS_IN_A_ROW, continueAgent, runAgent } from '../../../src/agent/loop';
import { BUILTIN_TOOLS } from '../../../src/agent/builtinTools';
import type { AgentMessage, ModelStepEvent } from '../../../src/agent/types';
import { ScriptedModel, baseOptions, call, fakeTool, hangingStream, say } from './fakes';

const toolMessages = (messages: readonly AgentMessage[]) =>
  messages.filter((m): m is Extract<AgentMessage, { role: 'tool' }> => m.role === 'tool');

describe('agent loop: steps and tool calls', () => {
  it('ends with the answer when the model calls no tool', async () => {
    const model = new ScriptedModel([[say('Done.'), { type: 'finish', reason: 'stop' }]]);
    const result = await runAgent(baseOptions(model, { read_file: fakeTool('read_file') }));
    assert.equal(result.status, 'done');
    assert.equal(result.steps, 1);
    assert.deepEqual(result.messages.at(-1), { role: 'assistant', content: 'Done.' });
  });

  it('runs the calls in order, appends their results and calls the model again with them', async () => {
    const order: string[] = [];
    const read = fakeTool('read_file', (input) => {
      order.push(String(input.path));
      return { content: `text of ${String(input.path)}` };
    });
    const model = new ScriptedModel([
      [say('Reading.'), call('read_file', { path: 'a.ts' }), call('read_file', { path: 'b.ts' })],
      [say('Both read.')],
    ]);
    const result = await runAgent(baseOptions(model, { read_file: read }));
    assert.equal(result.status, 'done');
    assert.deepEqual(order, ['a.ts', 'b.ts']);
    const second = model.requests[1];
    assert.deepEqual(
      toolMessages(second).map((m) => m.content),
      ['text of a.ts', 'text of b.ts'],
    );
    const assistant = second[2];
    assert.equal(assistant.role, 'assistant');
    assert.equal(assistant.content, 'Reading.');
    assert.deepEqual(
      assistant.role === 'assistant' && assistant.toolCalls?.map((c) => c.id),
      toolMessages(second).map((m) => m.callId),
    );
  });

  it('stops at maxSteps with stepLimit and continues for up to maxSteps more', async () => {
    const steps = Array.from({ length: 7 }, (_, i) => [call('read_file', { path: `f${i}.ts` })]);
    const model = new ScriptedModel([...steps, [say('All read.')]]);
    const options = baseOptions(model, { read_file: fakeTool('read_file') }, { maxSteps: 3 });
    const first = await runAgent(options);
    assert.equal(first.status, 'stepLimit');
    assert.equal(model.calls, 3);
    assert.equal(first.messages.at(-1)?.role, 'tool', 'the last step’s results are in, unanswered');
    const second = await continueAgent(first, options);
    assert.equal(second.status, 'stepLimit');
    assert.equal(model.calls, 6);
    assert.deepEqual(model.requests[3], first.messages, 'the continuation starts from where the run paused');
    const third = await continueAgent(second, options);
    assert.equal(third.status, 'done');
    assert.equal(third.steps, 2);
    assert.equal(model.calls, 8);
    assert.equal(third.messages.at(-1)?.content, 'All read.');
    assert.equal(toolMessages(third.messages).length, 7);
  });

  it('passes a tool error back to the model and goes on', async () => {
    const failing = fakeTool('read_file', () => {
      throw new Error('EACCES: permission denied');
    });
    const model = new ScriptedModel([[call('read_file', { path: 'a.ts' })], [say('Cannot read it.')]]);
    const result = await runAgent(baseOptions(model, { read_file: failing }));
    assert.equal(result.status, 'done');
    const [tool] = toolMessages(model.requests[1]);
    assert.equal(tool.isError, true);
    assert.match(tool.content, /EACCES: permission denied/);
  });

  it('fails with the model’s error, not a crash', async () => {
    const model = new ScriptedModel([
      () =>
        (async function* (): AsyncGenerator<ModelStepEvent> {
          yield say('Hal');
          throw new Error('502 Bad Gateway');
        })(),
    ]);
    const result = await runAgent(baseOptions(model, {}));
    assert.equal(result.status, 'failed');
    assert.equal(result.error?.kind, 'model');
    assert.equal(result.error?.message, '502 Bad Gateway');
  });
});

describe('agent loop: a model that goes wrong', () => {
  it('stops when the same call returns the same result three times in a row', async () => {
    const same = () => [call('read_file', { path: 'a.ts', startLine: 1 })];
    const model = new ScriptedModel([same(), same(), same(), same()]);
    const read = fakeTool('read_file');
    const result = await runAgent(baseOptions(model, { read_file: read }));
    assert.equal(result.status, 'failed');
    assert.equal(result.error?.kind, 'repeatedCall');
    assert.match(result.error?.message ?? '', /read_file 3 times/);
    assert.equal(read.runs.length, 3);
    assert.equal(model.calls, 3);
  });

  it('does not stop a repeated call whose result changes (keys in any order are the same input)', async () => {
    let n = 0;
    const poll = fakeTool('get_problems', () => ({ content: `problems: ${++n}` }));
    const model = new ScriptedModel([
      [call('get_problems', { path: 'a.ts', startLine: 1 })],
      [call('get_problems', { startLine: 1, path: 'a.ts' })],
      [call('get_problems', { path: 'a.ts', startLine: 1 })],
      [call('get_problems', { path: 'a.ts', startLine: 1 })],
      [say('Fixed.')],
    ]);
    const result = await runAgent(baseOptions(model, { get_problems: poll }));
    assert.equal(result.status, 'done');
    assert.equal(poll.runs.length, 4);
  });

  it('answers malformed calls with the reason, and stops after three in a row', async () => {
    const malformed = (i: number): ModelStepEvent => ({
      type: 'malformedCall',
      call: {
        id: `bad_${i}`,
        name: 'read_file',
        reason: 'the arguments are not valid JSON',
        raw: '{"path": ',
      },
    });
    const model = new ScriptedModel([[malformed(1)], [malformed(2)], [malformed(3)], [say('never')]]);
    const result = await runAgent(baseOptions(model, { read_file: fakeTool('read_file') }));
    assert.equal(result.status, 'failed');
    assert.equal(result.error?.kind, 'malformedCalls');
    assert.match(result.error?.message ?? '', /3 tool calls in a row/);
    assert.match(result.error?.message ?? '', /not valid JSON/);
    assert.equal(model.calls, MAX_BAD_CALLS_IN_A_ROW);
    const errors = toolMessages(model.requests[2]);
    assert.equal(errors.length, 2);
    for (const e of errors) {
      assert.equal(e.isError, true);
      assert.match(e.content, /could not be read: the arguments are not valid JSON/);
    }
    const lastAssistant = model.requests[2].at(-2);
    assert.equal(
      lastAssistant?.role === 'assistant' && lastAssistant.toolCalls?.[0].raw,
      '{"path": ',
      'the malformed call stays in the transcript as written',
    );
    assert.equal(toolMessages(result.messages).length, 3, 'every call is answered, the last too');
  });

  it('reports an unknown tool with the list of tools, then recovers', async () => {
    const read = fakeTool('read_file');
    const model = new ScriptedModel([
      [call('open_file', { path: 'a.ts' })],
      [call('read_file', { path: 'a.ts' })],
      [say('Read it.')],
    ]);
    const result = await runAgent(baseOptions(model, { read_file: read, list_dir: fakeTool('list_dir') }));
    assert.equal(result.status, 'done');
    const [error] = toolMessages(model.requests[1]);
    assert.equal(error.isError, true);
    assert.equal(error.content, 'Unknown tool "open_file". The tools are: read_file, list_dir.');
    assert.deepEqual(read.runs, [{ path: 'a.ts' }]);
  });

  it('names invalid input (missing field, wrong type, unknown field) and does not run the tool', async () => {
    const read = fakeTool('read_file');
    const model = new ScriptedModel([
      [call('read_file', { startLine: '3', file: 'a.ts' })],
      [call('read_file', { path: 'a.ts', startLine: 3 })],
      [say('ok')],
    ]);
    const result = await runAgent(baseOptions(model, { read_file: read }));
    assert.equal(result.status, 'done');
    const [error] = toolMessages(model.requests[1]);
    assert.equal(error.isError, true);
    assert.match(error.content, /missing required field "path"/);
    assert.match(error.content, /"startLine" must be an integer, not a string \("3"\)/);
    assert.match(error.content, /unknown field "file"/);
    assert.deepEqual(read.runs, [{ path: 'a.ts', startLine: 3 }]);
  });

  it('counts bad calls in a row only: a good call in between resets the count', async () => {
    const bad = () => [call('nope', {})];
    const good = (p: string) => [call('read_file', { path: p })];
    const model = new ScriptedModel([bad(), bad(), good('a'), bad(), bad(), good('b'), [say('done')]]);
    const result = await runAgent(baseOptions(model, { read_file: fakeTool('read_file') }));
    assert.equal(result.status, 'done');
    assert.equal(model.calls, 7);
  });
});

describe('agent loop: Stop', () => {
  it('between steps: no further model call', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([[call('read_file', { path: 'a.ts' })], [say('never')]]);
    const onEvent = (e: AgentEvent) => {
      if (e.type === 'toolEnd') controller.abort();
    };
    const result = await runAgent(
      baseOptions(model, { read_file: fakeTool('read_file') }, { signal: controller.signal, onEvent }),
    );
    assert.equal(result.status, 'stopped');
    assert.equal(model.calls, 1);
    assert.equal(result.messages.at(-1)?.role, 'tool');
  });

  it('during a tool: the tool gets the signal, the next call does not run, every call is answered', async () => {
    const controller = new AbortController();
    let toolSawAbort = false;
    const slow = fakeTool('run_command', (_input, signal) => {
      controller.abort();
      toolSawAbort = signal.aborted;
      return new Promise(() => undefined); // ignores the signal: the run must end all the same
    });
    const read = fakeTool('read_file');
    const model = new ScriptedModel([
      [call('run_command', { path: 'x' }), call('read_file', { path: 'a.ts' })],
    ]);
    const ends: Array<{ name: string; stopped?: boolean }> = [];
    const onEvent = (e: AgentEvent) => {
      if (e.type === 'toolEnd') ends.push({ name: e.call.name, stopped: e.stopped });
    };
    const result = await runAgent(
      baseOptions(model, { run_command: slow, read_file: read }, { signal: controller.signal, onEvent }),
    );
    assert.equal(result.status, 'stopped');
    assert.ok(toolSawAbort, 'the tool’s signal is aborted');
    assert.deepEqual(ends, [{ name: 'run_command', stopped: true }], 'the row learns Stop came first');
    assert.equal(read.runs.length, 0);
    assert.deepEqual(
      toolMessages(result.messages).map((m) => m.content),
      ['Stopped by the user before the tool finished.', 'Not run: the user stopped the run.'],
    );
  });

  it('during streaming: the model call’s signal is aborted and the partial text kept', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([hangingStream([say('Let me look')])]);
    const onEvent = (e: AgentEvent) => {
      if (e.type === 'text') controller.abort();
    };
    const result = await runAgent(baseOptions(model, {}, { signal: controller.signal, onEvent }));
    assert.equal(result.status, 'stopped');
    assert.equal(model.signals[0].aborted, true);
    assert.deepEqual(result.messages.at(-1), { role: 'assistant', content: 'Let me look' });
  });

  it('during streaming from a stream that ignores its signal: the run still ends at once', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([hangingStream([say('…')], true)]);
    const onEvent = (e: AgentEvent) => {
      if (e.type === 'text') setImmediate(() => controller.abort());
    };
    const result = await runAgent(baseOptions(model, {}, { signal: controller.signal, onEvent }));
    assert.equal(result.status, 'stopped');
  });

  it('before the run: nothing is called', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = new ScriptedModel([[say('never')]]);
    const result = await runAgent(baseOptions(model, {}, { signal: controller.signal }));
    assert.equal(result.status, 'stopped');
    assert.equal(model.calls, 0);
  });
});

describe('agent loop: long runs', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} of the output`).join('\n');

  it('cuts a long result to maxToolResultTokens: the head of a read, the tail of command output', async () => {
    const read = fakeTool('read_file', () => ({ content: lines(1000) }));
    // The tail is kept because run_command's own spec says so, as the host's listing passes it.
    const spec = BUILTIN_TOOLS.find((t) => t.name === 'run_command');
    const command = fakeTool('run_command', () => ({ content: lines(1000) }), { spec });
    const model = new ScriptedModel([
      [call('read_file', { path: 'big.txt' }), call('run_command', { command: 'npm test' })],
      [say('ok')],
    ]);
    const events: AgentEvent[] = [];
    await runAgent(
      baseOptions(
        model,
        { read_file: read, run_command: command },
        { maxToolResultTokens: 300, onEvent: (e) => events.push(e) },
      ),
    );
    const [head, tail] = toolMessages(model.requests[1]).map((m) => m.content);
    assert.ok(head.startsWith('line 1 of the output\nline 2 '));
    assert.match(
      head,
      /\[Cut: the result was over 300 tokens; lines 1–\d+ of 1000 shown\. .*starting after line \d+\.\]$/,
    );
    assert.ok(tail.endsWith('line 1000 of the output'));
    assert.match(tail, /^\[Cut: the result was over 300 tokens; lines \d+–1000 of 1000 shown\./);
    for (const text of [head, tail])
      assert.ok(text.length < 1500, `cut to about 300 tokens, got ${text.length} chars`);
    const ends = events.filter((e) => e.type === 'toolEnd');
    assert.deepEqual(
      ends.map((e) => e.type === 'toolEnd' && e.cut?.keep),
      ['head', 'tail'],
    );
  });

  it('near the context, replaces the oldest results by a note and tells the UI', async () => {
    const read = fakeTool('read_file', (input) => ({ content: `${String(input.path)}\n${lines(200)}` }));
    const steps = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'].map((p) => [
      call('read_file', { path: p }),
    ]);
    const model = new ScriptedModel([...steps, [say('ok')]]);
    const events: AgentEvent[] = [];
    // Each result is about 1,300 tokens: the third request is over 85% of 4,000.
    const result = await runAgent(
      baseOptions(model, { read_file: read }, { contextTokens: 4000, onEvent: (e) => events.push(e) }),
    );
    assert.equal(result.status, 'done');
    const elided = events.filter((e) => e.type === 'elided');
    assert.ok(elided.length >= 1);
    const last = toolMessages(model.requests[4]);
    assert.equal(
      last[0].content,
      'result of read_file src/a.ts elided to fit the context; call the tool again if you need it',
    );
    assert.ok(last.at(-1)?.content.startsWith('src/d.ts\n'), 'the latest result is never elided');
    for (const e of elided)
      assert.ok(
        e.type === 'elided' && e.promptTokensAfter <= 0.85 * 4000 && e.promptTokensBefore > 0.85 * 4000,
      );
    assert.ok(model.requests.every((r) => r.length > 0));
  });

  it('counts tokens: the server’s usage where given, estimates otherwise', async () => {
    const model = new ScriptedModel([
      [
        call('read_file', { path: 'a.ts' }),
        { type: 'usage', usage: { promptTokens: 1000, completionTokens: 20 } },
      ],
      [say('done')],
    ]);
    const events: AgentEvent[] = [];
    const result = await runAgent(
      baseOptions(model, { read_file: fakeTool('read_file') }, { onEvent: (e) => events.push(e) }),
    );
    const usages = events.filter((e) => e.type === 'usage');
    assert.equal(usages.length, 2);
    assert.deepEqual(usages[0].type === 'usage' && usages[0].usage, {
      promptTokens: 1000,
      completionTokens: 20,
      estimated: false,
    });
    assert.equal(result.usage.estimated, true);
    assert.ok(result.usage.promptTokens > 1000 && result.usage.completionTokens > 20);
  });
});

describe('agent loop: append-only requests', () => {
  it('every request starts with the previous request’s messages, byte for byte (10 steps)', async () => {
    const stepArb = fc.record({
      text: fc.string({ maxLength: 20 }),
      calls: fc.array(
        fc.record({ tool: fc.constantFrom('read_file', 'nope'), path: fc.string({ maxLength: 8 }) }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 10, maxLength: 10 }), async (steps) => {
        let n = 0;
        const read = fakeTool('read_file', (input) => ({ content: `#${++n} ${String(input.path)}` }));
        const model = new ScriptedModel([
          ...steps.map((s) => [say(s.text), ...s.calls.map((c) => call(c.tool, { path: c.path }))]),
          [say('end')],
        ]);
        const result = await runAgent(baseOptions(model, { read_file: read }, { maxSteps: 11 }));
        // Bad calls in a row may end the run early; the property holds for every request made.
        assert.ok(['done', 'failed'].includes(result.status));
        for (let i = 1; i < model.requests.length; i++) {
          const previous = model.requests[i - 1].map((m) => JSON.stringify(m));
          const current = model.requests[i].map((m) => JSON.stringify(m));
          assert.ok(current.length > previous.length);
          assert.deepEqual(current.slice(0, previous.length), previous);
        }
        if (result.status === 'done') assert.equal(model.requests.length, 11);
      }),
      { numRuns: 50 },
    );
  });
});
