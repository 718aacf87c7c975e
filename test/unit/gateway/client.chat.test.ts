import * as assert from 'node:assert/strict';
import {
  AuthError,
  ConnectionError,
  MalformedResponseError,
  StreamError,
  TruncatedStreamError,
  ValidationError,
} from '../../../src/gateway/errors';
import type { GatewayClient } from '../../../src/gateway/types';
import { expectedAnswer, expectedReasoning, expectedUsage, keptAnswerText } from '../../gateway-emulator';
import { KEY, TEXT_MODEL, THINKING_MODEL, chat, collect, rejection } from './helpers';
import { useEmulatorClients } from '../../support/emulatorClients';

describe('gateway client: chat against the emulator', function () {
  this.timeout(20_000);
  let client: GatewayClient;

  const gw = useEmulatorClients(KEY);
  beforeEach(() => {
    client = gw.client();
  });

  it('streams the exact answer with id, model, usage and finish', async () => {
    const request = chat('Hello there');
    const got = await collect(client.streamChatCompletion(request));
    assert.equal(got.error, undefined);
    assert.equal(got.text, expectedAnswer(request));
    assert.equal(got.reasoning, '');
    assert.equal(got.finish, 'stop');
    const usage = expectedUsage(request);
    assert.equal(got.usage?.prompt_tokens, usage.prompt_tokens);
    assert.equal(got.usage?.completion_tokens, usage.completion_tokens);
    assert.ok(got.events.every((e) => e.id.startsWith('chatcmpl') && e.model === TEXT_MODEL));
    assert.deepEqual(
      got.events.slice(-2).map((e) => e.type),
      ['usage', 'finish'],
    );
  });

  it('streams reasoning of a thinking model separately from the text', async () => {
    const request = chat('Think first', THINKING_MODEL);
    const got = await collect(client.streamChatCompletion(request));
    assert.equal(got.reasoning, expectedReasoning(request));
    assert.equal(got.text, expectedAnswer(request));
    assert.ok((got.usage?.reasoning_tokens ?? 0) > 0);
  });

  it('sends the documented headers and only the known body fields', async () => {
    const custom = gw.client({ userAgent: 'custom-agent/9' });
    const request = {
      ...chat('headers'),
      temperature: 0.5,
      top_p: 0.9,
      max_tokens: 100,
      stop: ['END'],
      extra: 'x',
    };
    await collect(client.streamChatCompletion(request));
    await custom.createChatCompletion(chat('plain'));
    const [streamed, plain] = gw.emulator.requests;
    assert.equal(streamed.headers.authorization, `Bearer ${KEY}`);
    assert.match(String(streamed.headers['content-type']), /^application\/json/);
    assert.equal(streamed.headers.accept, 'text/event-stream');
    assert.match(String(streamed.headers['user-agent']), /^model-gateway-vscode\/\d/);
    assert.deepEqual(streamed.body, {
      model: TEXT_MODEL,
      messages: [{ role: 'user', content: 'headers' }],
      max_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      stop: ['END'],
      stream: true,
    });
    assert.equal(plain.headers['user-agent'], 'custom-agent/9');
    assert.equal(plain.headers.accept, 'application/json');
    assert.equal((plain.body as Record<string, unknown>).stream, undefined);
  });

  it('accepts the base URL with or without /v1 and trailing slashes', async () => {
    for (const suffix of ['', '/', '/v1', '/v1/', '//v1//']) {
      const c = gw.client({ baseUrl: gw.emulator.url + suffix });
      const got = await collect(c.streamChatCompletion(chat(`base ${suffix}`)));
      assert.equal(got.error, undefined, suffix);
    }
    assert.ok(gw.emulator.requests.every((r) => r.path === '/v1/chat/completions'));
  });

  it('calls an async key getter for every request', async () => {
    let calls = 0;
    const c = gw.client({
      apiKey: async () => {
        calls++;
        return KEY;
      },
    });
    await c.createChatCompletion(chat('one'));
    await c.createChatCompletion(chat('two'));
    assert.equal(calls, 2);
  });

  it('createChatCompletion returns the completion object', async () => {
    const request = chat('non-streamed', THINKING_MODEL);
    const completion = await client.createChatCompletion(request);
    assert.equal(completion.object, 'chat.completion');
    assert.ok(completion.id && completion.created > 0);
    assert.equal(completion.choices[0].message.content, expectedAnswer(request));
    assert.equal(completion.choices[0].message.reasoning, expectedReasoning(request));
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.equal(completion.usage?.completion_tokens, expectedUsage(request).completion_tokens);
  });

  it('validates before sending: nothing reaches the gateway', async () => {
    const bad = [
      { model: '', messages: [{ role: 'user' as const, content: 'x' }] },
      { ...chat('x'), temperature: 3 },
      { ...chat('x'), top_p: 2 },
      { ...chat('x'), max_tokens: -1 },
      { model: TEXT_MODEL, messages: [] },
    ];
    for (const request of bad) {
      assert.ok((await collect(client.streamChatCompletion(request))).error instanceof ValidationError);
      assert.ok((await rejection(client.createChatCompletion(request))) instanceof ValidationError);
    }
    assert.ok((await rejection(client.generateImages({ prompt: 'x', n: 9 }))) instanceof ValidationError);
    assert.ok((await rejection(client.generateImages({ prompt: ' ' }))) instanceof ValidationError);
    assert.equal(gw.emulator.requests.length, 0);
    const broken = gw.client({ baseUrl: 'ftp://nowhere' });
    assert.ok((await rejection(broken.createChatCompletion(chat('x')))) instanceof ValidationError);
  });

  it('a missing key is an AuthError before anything is sent; a rejected key is a 401 AuthError', async () => {
    const none = gw.client({ apiKey: async () => undefined });
    const missing = await rejection(none.createChatCompletion(chat('x')));
    assert.ok(missing instanceof AuthError);
    assert.match(missing.message, /Set API Key/);
    assert.equal(gw.emulator.requests.length, 0);
    const wrong = gw.client({ apiKey: 'bad-key-123456' });
    const rejected = (await collect(wrong.streamChatCompletion(chat('x')))).error;
    assert.ok(rejected instanceof AuthError);
    assert.equal(rejected.status, 401);
    assert.match(rejected.message, /rejected the API key.*Set API Key/);
    assert.equal(gw.emulator.requests.length, 1, '401 is not retried');
  });

  it('close() releases the connections; later calls fail without sending', async () => {
    const c = gw.client();
    await c.createChatCompletion(chat('before close'));
    await c.close();
    await c.close();
    const error = await rejection(c.createChatCompletion(chat('after close')));
    assert.ok(error instanceof ConnectionError);
    assert.match(error.message, /closed/);
    assert.equal(gw.emulator.requests.length, 1);
  });

  it('a bad proxy setting does not throw at creation; requests report it and send nothing', async () => {
    const c = gw.client({ proxy: 'http://user:secret-pw@[bad' });
    const error = await rejection(c.createChatCompletion(chat('x')));
    assert.ok(error instanceof ValidationError);
    assert.match(error.message, /proxy/);
    assert.doesNotMatch(error.message, /secret-pw/);
    assert.equal(gw.emulator.requests.length, 0);
  });

  describe('stream faults', () => {
    const clean: string[] = [
      'crlf',
      'cr',
      'split-utf8',
      'keepalive',
      'role-first',
      'extra-fields',
      'usage-chunk',
      'no-done',
      'json-instead-of-sse',
      'crlf,split-utf8,keepalive,role-first,extra-fields',
    ];
    for (const fault of clean) {
      for (const model of [TEXT_MODEL, THINKING_MODEL]) {
        it(`${fault} (${model.endsWith('-thinking') ? 'thinking' : 'plain'} model) yields the exact answer`, async () => {
          const request = chat(`fault [[fault:${fault}]]`, model);
          const got = await collect(client.streamChatCompletion(request));
          assert.equal(got.error, undefined, String(got.error));
          assert.equal(got.text, expectedAnswer(request));
          assert.equal(got.reasoning, expectedReasoning(request));
          assert.equal(got.finish, 'stop');
          assert.ok(got.usage && got.usage.total_tokens > 0);
        });
      }
    }

    it('usage-chunk carries reasoning_tokens', async () => {
      const got = await collect(client.streamChatCompletion(chat('[[fault:usage-chunk]]', THINKING_MODEL)));
      assert.ok((got.usage?.reasoning_tokens ?? 0) > 0);
    });

    for (const variant of ['think', 'thinking', 'no-open']) {
      it(`think-tags:${variant} becomes reasoning events, never tags in the text`, async () => {
        const request = chat(`tags [[fault:think-tags:${variant}]]`, THINKING_MODEL);
        const got = await collect(client.streamChatCompletion(request));
        assert.equal(got.error, undefined);
        assert.equal(got.reasoning, expectedReasoning(request));
        assert.equal(got.text, expectedAnswer(request));
        assert.doesNotMatch(got.text, /<\/?think/);
      });
    }

    for (const field of ['reasoning', 'reasoning_content']) {
      it(`reasoning-field:${field}`, async () => {
        const request = chat(`[[fault:reasoning-field:${field}]]`, THINKING_MODEL);
        const got = await collect(client.streamChatCompletion(request));
        assert.equal(got.reasoning, expectedReasoning(request));
        assert.equal(got.text, expectedAnswer(request));
      });
    }

    for (const reason of ['length', 'content_filter', 'vendor_specific_reason']) {
      it(`finish:${reason} is passed through`, async () => {
        const got = await collect(client.streamChatCompletion(chat(`[[fault:finish:${reason}]]`)));
        assert.equal(got.finish, reason);
      });
    }

    it('big-event: a 12 MB single event arrives whole', async () => {
      const request = chat('[[fault:big-event:12000000]]');
      const got = await collect(client.streamChatCompletion(request));
      assert.equal(got.error, undefined);
      assert.equal(got.text, 'x'.repeat(12_000_000) + expectedAnswer(request));
    });

    it('no-done-no-finish throws TruncatedStreamError after yielding the text', async () => {
      const request = chat('[[fault:no-done-no-finish]]');
      const got = await collect(client.streamChatCompletion(request));
      assert.ok(got.error instanceof TruncatedStreamError);
      assert.equal(got.text, expectedAnswer(request));
      assert.equal(got.finish, undefined);
    });

    for (const variant of ['chunk', 'flat', 'event']) {
      it(`in-stream-error:${variant} is a thrown StreamError, never text`, async () => {
        const request = chat(`[[fault:in-stream-error:${variant}]]`);
        const got = await collect(client.streamChatCompletion(request));
        assert.ok(got.error instanceof StreamError, String(got.error));
        assert.ok(got.text.length > 0);
        assert.equal(got.text, keptAnswerText(request), 'exactly the text before the error');
        assert.doesNotMatch(got.text, /error/i);
        assert.equal(got.finish, undefined);
        assert.equal(gw.emulator.requests.length, 1, 'never retried once the stream started');
      });
    }

    it('malformed-chunk is a MalformedResponseError after the good text', async () => {
      const request = chat('[[fault:malformed-chunk]]');
      const got = await collect(client.streamChatCompletion(request));
      assert.ok(got.error instanceof MalformedResponseError);
      assert.ok(got.text.length > 0);
      assert.equal(got.text, keptAnswerText(request), 'exactly the text before the broken chunk');
    });

    it('reset-mid-stream keeps the text, throws TruncatedStreamError and is not retried', async () => {
      const request = chat('[[fault:reset-mid-stream]]');
      const got = await collect(client.streamChatCompletion(request));
      assert.ok(got.error instanceof TruncatedStreamError, String(got.error));
      assert.ok(got.text.length > 0);
      assert.equal(got.text, keptAnswerText(request), 'exactly the text before the reset');
      assert.equal(gw.emulator.requests.length, 1);
    });

    it('reset-before-first-token is retried (no answer byte was consumed), then a ConnectionError', async () => {
      const got = await collect(client.streamChatCompletion(chat('[[fault:reset-before-first-token]]')));
      assert.ok(got.error instanceof ConnectionError, String(got.error));
      assert.match(got.error.message, /closed the connection before sending an answer/);
      assert.equal(got.text, '');
      assert.equal(gw.emulator.requests.length, 3, 'first attempt + 2 retries');
    });

    it('request-id reaches errors', async () => {
      const got = await collect(client.streamChatCompletion(chat('[[fault:status:500,request-id:req-77]]')));
      assert.equal((got.error as StreamError).requestId, 'req-77');
    });
  });
});
