import * as assert from 'node:assert/strict';
import { chatBody } from '../../../src/gateway/config';
import type { ChatCompletionRequest, ChatMessage, TextMessage } from '../../../src/gateway/types';

/** The body as it was built before each message's JSON was kept: one JSON.stringify of the whole object. */
function reference(request: ChatCompletionRequest, stream: boolean): string {
  const body: Record<string, unknown> = {
    model: request.model.trim(),
    messages: request.messages.map((m) => {
      const wire: Record<string, unknown> = { role: m.role, content: m.content };
      if (m.role === 'assistant' && m.tool_calls?.length) {
        wire.tool_calls = m.tool_calls;
        if (!m.content) wire.content = null;
      }
      if (m.role === 'tool') wire.tool_call_id = m.tool_call_id;
      return wire;
    }),
  };
  if (request.tools?.length) body.tools = request.tools;
  if (request.tools?.length && request.tool_choice) body.tool_choice = request.tool_choice;
  if (request.tools?.length && request.parallel_tool_calls !== undefined)
    body.parallel_tool_calls = request.parallel_tool_calls;
  if (request.max_tokens !== undefined) body.max_tokens = request.max_tokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.top_p !== undefined) body.top_p = request.top_p;
  if (request.stop !== undefined) body.stop = request.stop;
  Object.assign(body, request.extraBody);
  if (stream) body.stream = true;
  return JSON.stringify(body);
}

const history: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Quote "this", a \\ backslash, a tab\t, 漢字 and 🎉\n' },
  { role: 'assistant', content: 'Done.\u2028' },
  { role: 'user', content: '' },
];

describe('chatBody', () => {
  const requests: Array<[string, ChatCompletionRequest]> = [
    ['messages only', { model: ' m ', messages: history }],
    [
      'every sampling field',
      { model: 'm', messages: history, max_tokens: 10, temperature: 0, top_p: 1, stop: ['\n\n', 'END'] },
    ],
    ['a single stop string', { model: 'm', messages: history, stop: 'END' }],
    [
      'tools, a tool call and its result',
      {
        model: 'm',
        messages: [
          ...history,
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
          { role: 'tool', content: '{"ok":true}', tool_call_id: 'c1' },
        ],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
        tool_choice: 'auto',
      },
    ],
    ['a tool choice without tools', { model: 'm', messages: history, tool_choice: 'required' }],
    [
      'a tool-call turn with content null, tool options and extra fields',
      {
        model: 'm',
        messages: [
          ...history,
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', content: 'ok', tool_call_id: 'c1' },
        ],
        tools: [{ type: 'function', function: { name: 'f' } }],
        tool_choice: { type: 'function', function: { name: 'f' } },
        parallel_tool_calls: false,
        max_tokens: 5,
        extraBody: { seed: 1, response_format: { type: 'json_object' } },
      },
    ],
  ];
  for (const [name, request] of requests) {
    it(`is the same text as one JSON.stringify of the body: ${name}`, () => {
      for (const stream of [true, false]) {
        assert.equal(chatBody(request, stream), reference(request, stream));
        // Again, now from the kept JSON of each message.
        assert.equal(chatBody(request, stream), reference(request, stream));
      }
    });
  }

  it('serialises a message again when its content or role changed (the same object, edited)', () => {
    const message: TextMessage = { role: 'assistant', content: 'First.' };
    const request: ChatCompletionRequest = {
      model: 'm',
      messages: [{ role: 'user', content: 'q' }, message],
    };
    assert.equal(chatBody(request, true), reference(request, true));
    message.content = 'First, then more.';
    assert.equal(chatBody(request, true), reference(request, true));
    message.role = 'user';
    assert.equal(chatBody(request, true), reference(request, true));
    assert.match(chatBody(request, true), /"role":"user","content":"First, then more\."/);
  });

  it('never keeps tool fields: a tool call edited in place is sent as it is now', () => {
    const call = { id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    const message: ChatMessage = { role: 'assistant', content: '', tool_calls: [call] };
    const request: ChatCompletionRequest = {
      model: 'm',
      messages: [{ role: 'user', content: 'q' }, message],
    };
    assert.equal(chatBody(request, true), reference(request, true));
    call.function.arguments = '{"changed":true}';
    assert.equal(chatBody(request, true), reference(request, true));
  });

  it('gives a message shared by two requests the same JSON in each', () => {
    const shared: ChatMessage = { role: 'user', content: 'shared question' };
    const a: ChatCompletionRequest = { model: 'a', messages: [shared] };
    const b: ChatCompletionRequest = { model: 'b', messages: [{ role: 'system', content: 's' }, shared] };
    assert.equal(chatBody(a, true), reference(a, true));
    assert.equal(chatBody(b, false), reference(b, false));
  });
});
