import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { BUILTIN_TOOLS, nativeToolDefinitions } from '../../../src/agent/builtinTools';
import { assistantText, toGatewayMessages, UNREADABLE_CALL_NAME } from '../../../src/agent/gatewayMessages';
import { validateChatRequest } from '../../../src/gateway/validate';
import { createTextCallParser } from '../../../src/agent/textCallParser';
import type { AgentMessage, AgentToolCall, ToolProtocol } from '../../../src/agent/types';
import { chatBody } from '../../../src/gateway/config';
import type { ChatMessage } from '../../../src/gateway/types';

const NAMES = BUILTIN_TOOLS.map((t) => t.name);
const text = (maxLength: number) => fc.string({ unit: 'grapheme', maxLength });
const input = fc.dictionary(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
  fc.oneof(text(20), fc.integer()),
  {
    maxKeys: 3,
    noNullPrototype: true,
  },
);
const step = fc.record({
  text: text(30),
  calls: fc.array(
    fc.record({ name: fc.constantFrom(...NAMES), input, result: text(40), isError: fc.boolean() }),
    {
      maxLength: 3,
    },
  ),
  userAfter: fc.boolean(),
});

/** A run: system and user, then steps of an assistant message and its results; where each request was sent. */
const conversation = fc
  .record({ system: text(40), user: text(40), steps: fc.array(step, { maxLength: 10 }) })
  .map(({ system, user, steps }) => {
    const messages: AgentMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
    const requests = [messages.length];
    let n = 1;
    for (const s of steps) {
      const calls: AgentToolCall[] = s.calls.map((c) => ({
        id: `call_${n++}`,
        name: c.name,
        input: c.input,
      }));
      messages.push(
        calls.length
          ? { role: 'assistant', content: s.text, toolCalls: calls }
          : { role: 'assistant', content: s.text },
      );
      s.calls.forEach((c, i) =>
        messages.push({
          role: 'tool',
          callId: calls[i].id,
          name: c.name,
          content: c.result,
          isError: c.isError,
        }),
      );
      if (s.userAfter) messages.push({ role: 'user', content: 'Continue.' });
      requests.push(messages.length);
    }
    return { messages, requests };
  });

const MODEL = 'alpha-sonnet-4-5-20250929';

/** The request body up to the end of its last message: what a prompt cache can reuse. */
function messagesPrefix(protocol: ToolProtocol, messages: ChatMessage[]): string {
  const tools = protocol === 'native' ? nativeToolDefinitions(BUILTIN_TOOLS) : undefined;
  const body = chatBody({ model: MODEL, messages, tools }, true);
  const empty = chatBody({ model: MODEL, messages: [], tools }, true);
  const suffix = empty.length - (empty.indexOf('"messages":[') + '"messages":['.length);
  return body.slice(0, body.length - suffix);
}

describe('agent conversation as gateway messages', () => {
  for (const protocol of ['native', 'text'] as const) {
    it(`${protocol}: converting one more message only appends, byte for byte (property)`, () => {
      fc.assert(
        fc.property(conversation, ({ messages }) => {
          for (let n = 0; n < messages.length; n++) {
            const before = toGatewayMessages(messages.slice(0, n), protocol).map((m) => JSON.stringify(m));
            const after = toGatewayMessages(messages.slice(0, n + 1), protocol).map((m) => JSON.stringify(m));
            assert.deepEqual(after.slice(0, before.length - 1), before.slice(0, -1));
            if (before.length === 0) continue;
            const last = before.length - 1;
            if (after[last] === before[last]) continue;
            // Only a text-protocol result joining the results before it may grow a message: by its content's end.
            assert.equal(protocol, 'text');
            assert.equal(messages[n].role, 'tool');
            assert.equal(after.length, before.length);
            assert.ok(
              after[last].startsWith(before[last].slice(0, -2)),
              'the grown message starts as before',
            );
          }
        }),
        { numRuns: 200 },
      );
    });

    it(`${protocol}: each step's request body starts with the previous step's messages byte for byte (property)`, () => {
      fc.assert(
        fc.property(conversation, ({ messages, requests }) => {
          const bodies = requests.map((end) =>
            messagesPrefix(protocol, toGatewayMessages(messages.slice(0, end), protocol)),
          );
          for (let k = 1; k < bodies.length; k++)
            assert.ok(bodies[k].startsWith(bodies[k - 1]), `request ${k + 1}`);
          // Deterministic: the same messages convert to the same bytes.
          assert.equal(
            JSON.stringify(toGatewayMessages(messages, protocol)),
            JSON.stringify(toGatewayMessages(messages, protocol)),
          );
        }),
        { numRuns: 200 },
      );
    });
  }

  const run: AgentMessage[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: 'Fix it.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', name: 'read_file', input: { path: 'a.ts' } },
        { id: 'c2', name: 'search_text', input: { query: '"x"' } },
      ],
    },
    { role: 'tool', callId: 'c1', name: 'read_file', content: '1: a' },
    { role: 'tool', callId: 'c2', name: 'search_text', content: 'bad regex', isError: true },
    { role: 'assistant', content: 'Done.' },
  ];

  it('native: assistant tool_calls with JSON arguments and null content on the wire; tool messages by call id', () => {
    const messages = toGatewayMessages(run, 'native');
    assert.deepEqual(messages.slice(2), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
          { id: 'c2', type: 'function', function: { name: 'search_text', arguments: '{"query":"\\"x\\""}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '1: a' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: bad regex' },
      { role: 'assistant', content: 'Done.' },
    ]);
    const body = JSON.parse(chatBody({ model: MODEL, messages }, true)) as {
      messages: Array<{ content: unknown }>;
    };
    assert.equal(body.messages[2].content, null);
  });

  it('native: a call the gateway could not read (no name) still goes out as a valid request, answered by its error', () => {
    const messages: AgentMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'U' },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'call_1', name: '', input: {}, raw: '' }] },
      {
        role: 'tool',
        callId: 'call_1',
        name: '',
        content: 'The tool call could not be read.',
        isError: true,
      },
    ];
    const wire = toGatewayMessages(messages, 'native');
    assert.deepEqual(wire[2].role === 'assistant' ? wire[2].tool_calls : undefined, [
      { id: 'call_1', type: 'function', function: { name: UNREADABLE_CALL_NAME, arguments: '{}' } },
    ]);
    assert.doesNotThrow(() => validateChatRequest({ model: 'm', messages: wire }));
  });

  it('text: calls as blocks the parser reads back, results gathered in one user message in wrappers', () => {
    const messages = toGatewayMessages(run, 'text');
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'user', 'assistant'],
    );
    assert.ok(messages.every((m) => !('tool_calls' in m) && !('tool_call_id' in m)));
    assert.equal(
      messages[2].content,
      '<tool_call>\n{"name":"read_file","arguments":{"path":"a.ts"}}\n</tool_call>\n<tool_call>\n{"name":"search_text","arguments":{"query":"\\"x\\""}}\n</tool_call>',
    );
    assert.equal(
      messages[3].content,
      '<tool_result name="read_file" id="c1">\n1: a\n</tool_result>\n<tool_result name="search_text" id="c2" error="true">\nbad regex\n</tool_result>',
    );
  });

  it('text: escapes the wrapper attributes so a name cannot break out of the tag', () => {
    const [m] = toGatewayMessages([{ role: 'tool', callId: 'x"><y', name: '', content: 'r' }], 'text');
    assert.equal(m.content, '<tool_result id="x&#34;&#62;&#60;y">\nr\n</tool_result>');
  });

  it('text: an assistant message parses back to its text and calls (property)', () => {
    const prose = fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => s.replace(/[`~<]/g, ''));
    const calls = fc.array(fc.record({ name: fc.constantFrom(...NAMES), input }), { maxLength: 4 });
    fc.assert(
      fc.property(prose, calls, (content, made) => {
        const toolCalls = made.map((c, i) => ({ id: `call_${i + 1}`, ...c }));
        const parser = createTextCallParser({ toolNames: NAMES });
        const events = [...parser.push(assistantText(content, toolCalls)), ...parser.end()];
        const textOut = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
        if (toolCalls.length) assert.equal(textOut.trimEnd(), content.trimEnd());
        else assert.equal(textOut, content);
        assert.deepEqual(
          events.flatMap((e) => (e.type === 'toolCall' ? [e.call] : [])),
          toolCalls,
        );
      }),
      { numRuns: 300 },
    );
  });
});
