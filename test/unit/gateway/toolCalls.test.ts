import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import { CompletionAssembler } from '../../../src/gateway/assembler';
import { BadRequestError, MalformedResponseError } from '../../../src/gateway/errors';
import { readChatStream } from '../../../src/gateway/sse';
import { ToolCallAssembler } from '../../../src/gateway/toolCalls';
import type { ChatMessage, GatewayClient } from '../../../src/gateway/types';
import { type Emulator, startEmulator } from '../../gateway-emulator';
import { KEY, TEXT_MODEL, bytesOf, collect, rejection } from './helpers';

const sse = (...chunks: object[]): string[] => [
  ...chunks.map((c) => `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, ...c }] })}\n\n`),
  'data: [DONE]\n\n',
];
const call = (index: number, fn: object, id?: string) => ({
  delta: { tool_calls: [{ index, ...(id ? { id, type: 'function' } : {}), function: fn }] },
});

describe('gateway/toolCalls: assembling streamed tool calls', () => {
  it('concatenates argument fragments split anywhere, even inside a string', () => {
    const a = new ToolCallAssembler();
    a.accept([{ index: 0, id: 'call_1', type: 'function', function: { name: 'getWeather', arguments: '' } }]);
    for (const piece of ['{"ci', 'ty": "Pa', 'ris", "days"', ': 3}'])
      a.accept([{ index: 0, function: { arguments: piece } }]);
    assert.deepEqual(a.finish('m'), [
      { id: 'call_1', name: 'getWeather', input: { city: 'Paris', days: 3 } },
    ]);
  });

  it('keeps interleaved calls apart by index and reports them in index order', () => {
    const a = new ToolCallAssembler();
    a.accept([{ index: 1, id: 'b', function: { name: 'second', arguments: '{"x":' } }]);
    a.accept([{ index: 0, id: 'a', function: { name: 'first', arguments: '{' } }]);
    a.accept([
      { index: 1, function: { arguments: '2}' } },
      { index: 0, function: { arguments: '}' } },
    ]);
    assert.deepEqual(a.finish('m'), [
      { id: 'a', name: 'first', input: {} },
      { id: 'b', name: 'second', input: { x: 2 } },
    ]);
  });

  it('takes a whole message (no index), a repeated name once, empty arguments as {}', () => {
    const a = new ToolCallAssembler();
    a.accept([
      { id: 'x', function: { name: 'noArgs', arguments: '' } },
      { id: 'y', function: { name: 'obj', arguments: { k: 'v' } } },
    ]);
    a.accept([{ index: 0, function: { name: 'noArgs' } }]);
    assert.deepEqual(a.finish('m'), [
      { id: 'x', name: 'noArgs', input: {} },
      { id: 'y', name: 'obj', input: { k: 'v' } },
    ]);
  });

  it('a missing name or arguments that are not a JSON object are an error naming the model', () => {
    const noName = new ToolCallAssembler();
    noName.accept([{ index: 0, id: 'a', function: { arguments: '{}' } }]);
    assert.throws(
      () => noName.finish('my-model'),
      (e: Error) => e instanceof MalformedResponseError && /my-model/.test(e.message),
    );
    for (const args of ['{"city": "Pa', '[1,2]', '"text"']) {
      const bad = new ToolCallAssembler();
      bad.accept([{ index: 0, function: { name: 'tool', arguments: args } }]);
      assert.throws(() => bad.finish('my-model'), /my-model.*tool/);
    }
  });

  it('comes out of the SSE reader as toolCall events after the text, before finish', async () => {
    const body = sse(
      { delta: { content: 'Let me check.' } },
      call(0, { name: 'getWeather', arguments: '{"city":' }, 'call_9'),
      call(0, { arguments: '"Oslo"}' }),
      { delta: {}, finish_reason: 'tool_calls' },
    );
    const got = await collect(
      readChatStream(bytesOf(...body), { model: TEXT_MODEL, contentType: 'text/event-stream' }),
    );
    assert.equal(got.error, undefined);
    assert.equal(got.text, 'Let me check.');
    assert.deepEqual(
      got.toolCalls.map((c) => [c.callId, c.name, c.input]),
      [['call_9', 'getWeather', { city: 'Oslo' }]],
    );
    assert.deepEqual(
      got.events.map((e) => e.type),
      ['text', 'toolCall', 'finish'],
    );
  });

  it('a malformed streamed call surfaces as an error, never a silent drop', async () => {
    const body = sse(call(0, { name: 'getWeather', arguments: '{"city":' }, 'c'), {
      delta: {},
      finish_reason: 'tool_calls',
    });
    const got = await collect(
      readChatStream(bytesOf(...body), { model: 'odd-model', contentType: 'text/event-stream' }),
    );
    assert.ok(got.error instanceof MalformedResponseError);
    assert.match((got.error as Error).message, /odd-model/);
  });

  it('reads tool calls of a non-streamed completion', () => {
    const a = new CompletionAssembler(TEXT_MODEL);
    a.acceptCompletion({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    const events = a.closing();
    assert.deepEqual(events[0], {
      type: 'toolCall',
      callId: 't',
      name: 'f',
      input: { a: 1 },
      id: '',
      model: TEXT_MODEL,
    });
  });
});

describe('gateway client: tools against the emulator', function () {
  this.timeout(20_000);
  let emulator: Emulator;
  let client: GatewayClient;
  const tools = [
    {
      type: 'function' as const,
      function: {
        name: 'getWeather',
        description: 'Weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
  ];
  before(async () => {
    emulator = await startEmulator({ keys: [KEY], chunkSize: 3 });
    client = createGatewayClient({ baseUrl: emulator.url, apiKey: KEY });
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  it('sends tools and tool_choice, gets a chunked call, then answers the tool result', async () => {
    const first = await collect(
      client.streamChatCompletion({
        model: TEXT_MODEL,
        messages: [{ role: 'user', content: 'Use getWeather for "Paris"' }],
        tools,
        tool_choice: 'required',
      }),
    );
    assert.equal(first.error, undefined);
    const sent = emulator.requests.at(-1)!.body as { tools: unknown; tool_choice: string };
    assert.deepEqual(sent.tools, tools);
    assert.equal(sent.tool_choice, 'required');
    assert.equal(first.toolCalls.length, 1);
    const [callEvent] = first.toolCalls;
    assert.deepEqual([callEvent.name, callEvent.input], ['getWeather', { city: 'Paris' }]);
    assert.equal(first.finish, 'tool_calls');

    const second = await collect(
      client.streamChatCompletion({
        model: TEXT_MODEL,
        messages: [
          { role: 'user', content: 'Use getWeather for "Paris"' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [
              {
                id: callEvent.callId,
                type: 'function',
                function: { name: 'getWeather', arguments: JSON.stringify(callEvent.input) },
              },
            ],
          },
          { role: 'tool', tool_call_id: callEvent.callId, content: 'Sunny, 21 °C' },
        ],
        tools,
      }),
    );
    assert.equal(second.error, undefined);
    assert.equal(second.text, 'The tool getWeather returned: Sunny, 21 °C');
    const wire = emulator.requests.at(-1)!.body as { messages: Record<string, unknown>[] };
    assert.equal(wire.messages[1].content, null);
    assert.equal(wire.messages[2].tool_call_id, callEvent.callId);
  });

  it('a server without tool support answers 400 (BadRequestError)', async () => {
    const plain = await startEmulator({ keys: [KEY], tools: false });
    const c = createGatewayClient({ baseUrl: plain.url, apiKey: KEY });
    try {
      const got = await collect(
        c.streamChatCompletion({ model: TEXT_MODEL, messages: [{ role: 'user', content: 'hi' }], tools }),
      );
      assert.ok(got.error instanceof BadRequestError, String(got.error));
    } finally {
      await c.close();
      await plain.close();
    }
  });

  it('refuses a tool message without its call id before sending', async () => {
    const error = await rejection(
      // As an untyped caller would send it: the type requires the id.
      client.createChatCompletion({
        model: TEXT_MODEL,
        messages: [{ role: 'tool', content: 'x' } as ChatMessage],
      }),
    );
    assert.match(String(error), /tool result/);
  });
});
