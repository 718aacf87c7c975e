// Tool-call turns and options the client does not model, as they reach a real server (issue 25, finding 7).
import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import { ValidationError } from '../../../src/gateway/errors';
import type {
  ChatCompletionRequest,
  ChatMessage,
  GatewayClient,
  ToolDefinition,
} from '../../../src/gateway/types';
import { KEY, TEXT_MODEL, collect, rejection, tinyServer, type TinyServer } from './helpers';

const ANSWER = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
});
const STREAM = [
  `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { content: 'Done.' }, finish_reason: 'stop' }] })}`,
  'data: [DONE]',
  '',
].join('\n\n');

const question: ChatMessage[] = [{ role: 'user', content: 'Weather in Oslo?' }];
const tools: ToolDefinition[] = [
  { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: {} } } },
];

/** A tool-call turn in OpenAI's shape: content null next to tool_calls, then the result. */
const toolTurn: ChatMessage[] = [
  { role: 'system', content: 'Use tools.' },
  { role: 'user', content: 'Weather in Oslo?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 21 °C' },
];

describe('gateway client: tool-call turns and passthrough options on the wire', () => {
  let server: TinyServer;
  let client: GatewayClient;

  beforeEach(async () => {
    server = await tinyServer((req, res) => {
      const streamed = String(req.headers.accept).includes('event-stream');
      res.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      res.end(streamed ? STREAM : ANSWER);
    });
    client = createGatewayClient({ baseUrl: server.url, apiKey: KEY, retry: { maxRetries: 0 } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  /** Sends `request` streamed and not, and returns the two bodies the server parsed. */
  async function bodies(request: ChatCompletionRequest): Promise<Record<string, unknown>[]> {
    const got = await collect(client.streamChatCompletion(request));
    assert.equal(got.error, undefined);
    assert.equal(got.text, 'Done.');
    assert.equal((await client.createChatCompletion(request)).choices[0].message.content, 'Done.');
    assert.equal(server.requests.length, 2);
    return server.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  }

  it('sends an assistant tool-call turn with content null, and its tool result, as given', async () => {
    for (const body of await bodies({ model: TEXT_MODEL, messages: toolTurn, tools })) {
      assert.deepEqual(body.messages, toolTurn);
    }
  });

  it('sends a tool_choice object and parallel_tool_calls unchanged', async () => {
    const tool_choice = { type: 'function' as const, function: { name: 'weather' } };
    const request = { model: TEXT_MODEL, messages: question, tools, tool_choice, parallel_tool_calls: false };
    const [streamed, plain] = await bodies(request);
    for (const body of [streamed, plain]) {
      assert.deepEqual(body.tool_choice, tool_choice);
      assert.equal(body.parallel_tool_calls, false);
    }
    assert.equal(streamed.stream, true);
  });

  it('sends every extraBody field exactly, at the top level, and nothing else', async () => {
    const extraBody = {
      seed: 7,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
      top_k: 40,
      logit_bias: { '50256': -100 },
      vendor_options: { nested: [1, null, 'two', { deep: true }], empty: {} },
      user: 'u-1',
    };
    const request = { model: TEXT_MODEL, messages: question, max_tokens: 50, extraBody };
    const [streamed, plain] = await bodies(request);
    const known = { model: TEXT_MODEL, messages: question, max_tokens: 50 };
    assert.deepEqual(streamed, { ...known, ...extraBody, stream: true });
    assert.deepEqual(plain, { ...known, ...extraBody });
  });

  it('still sends tool_choice and parallel_tool_calls only with tools', async () => {
    const request: ChatCompletionRequest = {
      model: TEXT_MODEL,
      messages: [{ role: 'user', content: 'hi' }],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: true,
    };
    for (const body of await bodies(request)) {
      assert.equal(body.tool_choice, undefined);
      assert.equal(body.parallel_tool_calls, undefined);
    }
  });

  it('refuses, before sending, what cannot be a valid request', async () => {
    const base = { model: TEXT_MODEL, tools };
    // As untyped callers (or JSON from elsewhere) could build them.
    const wrong: Array<[string, unknown, RegExp]> = [
      [
        'content null without tool calls',
        { ...base, messages: [{ role: 'assistant', content: null }] },
        /message 1/,
      ],
      [
        'content null on a user message',
        { ...base, messages: [{ role: 'user', content: null }] },
        /message 1/,
      ],
      [
        'a tool call without its id',
        { ...base, messages: [{ role: 'assistant', content: null, tool_calls: [{ type: 'function' }] }] },
        /message 1/,
      ],
      ['an unknown tool_choice mode', { ...base, messages: toolTurn, tool_choice: 'always' }, /tool_choice/],
      [
        'parallel_tool_calls not a boolean',
        { ...base, messages: toolTurn, parallel_tool_calls: 'no' },
        /parallel/,
      ],
      ['extraBody not an object', { ...base, messages: toolTurn, extraBody: [1] }, /extraBody/],
    ];
    for (const field of [
      'model',
      'messages',
      'stream',
      'tools',
      'tool_choice',
      'max_tokens',
      'temperature',
    ]) {
      wrong.push([
        `extraBody.${field}`,
        { ...base, messages: toolTurn, extraBody: { [field]: 1 } },
        /extraBody/,
      ]);
    }
    for (const [name, request, message] of wrong) {
      const error = await rejection(client.createChatCompletion(request as ChatCompletionRequest));
      assert.ok(error instanceof ValidationError, `${name}: ${String(error)}`);
      assert.match(error.message, message, name);
    }
    assert.equal(server.requests.length, 0);
  });
});
