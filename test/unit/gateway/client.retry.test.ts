import * as assert from 'node:assert/strict';
import {
  AuthError,
  BadRequestError,
  ConnectionError,
  ContextLengthError,
  GatewayError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  RequestTooLargeError,
  ServerError,
  StreamError,
  UserAbortError,
} from '../../../src/gateway/errors';
import { KEY, TEXT_MODEL, assertNoKey, chat, collect, logSink, rejection, tinyServer } from './helpers';
import { useEmulatorClients } from '../../support/emulatorClients';
import { DIALECTS } from '../../gateway-emulator/errorBodies';

describe('gateway client: errors, retries and the key', function () {
  this.timeout(20_000);

  const gw = useEmulatorClients(KEY, { retry: { baseDelayMs: 10, maxDelayMs: 50 } });

  describe('status faults in every dialect', () => {
    const statuses: Array<[number, new (...args: never[]) => GatewayError]> = [
      [400, BadRequestError],
      [401, AuthError],
      [402, PaymentRequiredError],
      [403, AuthError],
      [404, NotFoundError],
      [413, RequestTooLargeError],
      [429, RateLimitError],
      [500, ServerError],
      [503, ServerError],
      [524, ServerError],
      [529, ServerError],
    ];
    for (const dialect of DIALECTS) {
      it(`${dialect}: each status maps to its class with a readable message`, async () => {
        const client = gw.client({ retry: { maxRetries: 0 } });
        for (const [status, ErrorClass] of statuses) {
          const got = await collect(
            client.streamChatCompletion(chat(`[[fault:status:${status}:${dialect}]]`)),
          );
          const error = got.error;
          assert.ok(error instanceof ErrorClass, `${status} ${dialect}: ${String(error)}`);
          assert.equal(error.status, status);
          assert.doesNotMatch(error.message, /\[object Object\]|<html|<!DOCTYPE|undefined/i);
          assert.ok(error.message.length < 700);
          if (dialect !== 'empty' && dialect !== 'html')
            assert.match(error.message, /Gateway said: \S/, `${status} ${dialect}`);
          if (dialect === 'litellm') assert.doesNotMatch(error.message, /litellm\.|Exception/);
          if (dialect === 'reseller') assert.doesNotMatch(error.message, /request id:/);
          assert.equal(got.text, '');
        }
      });
    }

    it('OpenAI 400 context_length_exceeded becomes ContextLengthError', async () => {
      const error = await rejection(gw.client().createChatCompletion(chat('[[fault:status:400]]')));
      assert.ok(error instanceof ContextLengthError);
      assert.match(error.message, /new chat|older turns/);
    });

    it('404 names the model and points at Select Model', async () => {
      const error = await rejection(gw.client().createChatCompletion(chat('[[fault:status:404]]')));
      assert.ok(error instanceof NotFoundError);
      assert.match(error.message, new RegExp(`'${TEXT_MODEL}'.*Model Gateway: Select Model`));
    });
  });

  describe('retries', () => {
    it('retries a flaky 503 and succeeds, with one log entry per attempt and backoff between', async () => {
      const log = logSink();
      const client = gw.client({
        onRequestLog: log.onRequestLog,
        retry: { baseDelayMs: 60, maxDelayMs: 1000 },
      });
      const got = await collect(client.streamChatCompletion(chat('[[fault:flaky:503:2]]')));
      assert.equal(got.error, undefined);
      assert.equal(gw.emulator.requests.length, 3);
      assert.deepEqual(
        log.entries.map((e) => [e.attempt, e.status]),
        [
          [1, 503],
          [2, 503],
          [3, 200],
        ],
      );
      const [a, b, c] = gw.emulator.requests.map((r) => r.receivedAt);
      assert.ok(b - a >= 25, `first backoff ${b - a} ms`);
      assert.ok(c - b >= 50, `second backoff ${c - b} ms (doubled, with jitter ≥ 50 %)`);
      assert.ok(
        log.entries.every(
          (e) => e.method === 'POST' && e.path === '/v1/chat/completions' && e.model === TEXT_MODEL,
        ),
      );
      assert.match(String(log.entries[0].error), /^ServerError: /);
    });

    it('gives up after maxRetries (default 2) and reports the last error', async () => {
      const error = await rejection(gw.client().createChatCompletion(chat('[[fault:status:502]]')));
      assert.ok(error instanceof ServerError);
      assert.equal(gw.emulator.requests.length, 3);
      const none = gw.client({ retry: { maxRetries: 0 } });
      gw.emulator.reset();
      await rejection(none.createChatCompletion(chat('[[fault:status:502]]')));
      assert.equal(gw.emulator.requests.length, 1);
    });

    it('retries 408, 409 and 429 but not 400, 401, 404', async () => {
      for (const status of [408, 409, 429]) {
        gw.emulator.reset();
        await rejection(gw.client().createChatCompletion(chat(`[[fault:status:${status}]]`)));
        assert.equal(gw.emulator.requests.length, 3, String(status));
      }
      for (const status of [400, 401, 404]) {
        gw.emulator.reset();
        await rejection(gw.client().createChatCompletion(chat(`[[fault:status:${status}]]`)));
        assert.equal(gw.emulator.requests.length, 1, String(status));
      }
    });

    it('honours Retry-After in seconds', async () => {
      const got = await collect(
        gw.client().streamChatCompletion(chat('[[fault:flaky:429:1,retry-after:1]]')),
      );
      assert.equal(got.error, undefined);
      const [a, b] = gw.emulator.requests.map((r) => r.receivedAt);
      assert.ok(b - a >= 950 && b - a < 3000, `waited ${b - a} ms`);
    });

    it('honours retry-after-ms and Retry-After as an HTTP date', async () => {
      await collect(gw.client().streamChatCompletion(chat('[[fault:flaky:503:1,retry-after-ms:300]]')));
      const [a, b] = gw.emulator.requests.map((r) => r.receivedAt);
      assert.ok(b - a >= 280 && b - a < 2000, `ms: waited ${b - a} ms`);
      gw.emulator.reset();
      await collect(gw.client().streamChatCompletion(chat('[[fault:flaky:429:1,retry-after-date:2]]')));
      const [c, d] = gw.emulator.requests.map((r) => r.receivedAt);
      assert.ok(d - c >= 900 && d - c < 3500, `date: waited ${d - c} ms`);
    });

    it('reports a Retry-After beyond maxRetryAfterMs instead of sleeping through it', async () => {
      const started = Date.now();
      const error = await rejection(
        gw.client().createChatCompletion(chat('[[fault:status:429,retry-after:120]]')),
      );
      assert.ok(error instanceof RateLimitError);
      assert.equal(error.retryAfterMs, 120_000);
      assert.match(error.message, /Wait 2 minutes/);
      assert.equal(gw.emulator.requests.length, 1);
      assert.ok(Date.now() - started < 1000);
      const patient = gw.client({ retry: { maxRetryAfterMs: 500 } });
      gw.emulator.reset();
      const capped = await rejection(
        patient.createChatCompletion(chat('[[fault:status:503,retry-after:1]]')),
      );
      assert.equal((capped as ServerError).retryAfterMs, 1000);
      assert.equal(gw.emulator.requests.length, 1);
    });

    it('retries connection failures, then reports a ConnectionError naming the origin', async () => {
      const dead = await tinyServer(() => undefined);
      const url = dead.url;
      await dead.close();
      const log = logSink();
      const client = gw.client({
        baseUrl: url,
        onRequestLog: log.onRequestLog,
        retry: { maxRetries: 1, baseDelayMs: 10 },
      });
      const error = await rejection(client.createChatCompletion(chat('x')));
      assert.ok(error instanceof ConnectionError);
      assert.match(error.message, new RegExp(url.replace(/[.]/g, '\\.')));
      assert.deepEqual(
        log.entries.map((e) => e.attempt),
        [1, 2],
      );
    });

    it('an abort during the backoff sleep ends at once with UserAbortError', async () => {
      const controller = new AbortController();
      const client = gw.client({ retry: { baseDelayMs: 5000, maxDelayMs: 5000 } });
      const pending = client.createChatCompletion(chat('[[fault:status:500]]'), {
        signal: controller.signal,
      });
      await gw.emulator.waitFor((r) => r.length === 1 && r[0].responseEnded);
      const started = Date.now();
      setTimeout(() => controller.abort(), 50);
      assert.ok((await rejection(pending)) instanceof UserAbortError);
      assert.ok(Date.now() - started < 1000);
      assert.equal(gw.emulator.requests.length, 1);
    });
  });

  describe('the API key never leaks', () => {
    it('not in errors or log entries from the emulator', async () => {
      const log = logSink();
      const client = gw.client({ onRequestLog: log.onRequestLog, retry: { maxRetries: 1, baseDelayMs: 5 } });
      const errors: unknown[] = [];
      for (const fault of [
        'status:401',
        'status:500:html',
        'in-stream-error:flat',
        'reset-mid-stream',
        'status:429:litellm',
      ]) {
        errors.push((await collect(client.streamChatCompletion(chat(`[[fault:${fault}]]`)))).error);
      }
      assert.ok(errors.every((e) => e instanceof GatewayError));
      assertNoKey(errors);
      assertNoKey(log.entries);
      assert.ok(log.entries.length >= 6);
      for (const entry of log.entries) {
        assert.deepEqual(
          Object.keys(entry).filter(
            (k) =>
              ![
                'method',
                'path',
                'model',
                'status',
                'attempt',
                'ttfbMs',
                'durationMs',
                'requestId',
                'error',
              ].includes(k),
          ),
          [],
        );
        assert.ok(!JSON.stringify(entry).includes('[[fault'), 'no prompt text in the log');
      }
    });

    it('not even when a hostile server echoes it in bodies, headers and stream errors', async () => {
      let mode = 0;
      const hostile = await tinyServer((req, res) => {
        const echoed = String(req.headers.authorization);
        const step = mode++ % 4;
        if (step === 0) {
          res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': echoed });
          res.end(
            JSON.stringify({ error: { message: `Key ${echoed} is invalid`, code: echoed, type: echoed } }),
          );
        } else if (step === 1) {
          res.writeHead(500, { 'content-type': 'text/html' });
          res.end(`<html><head><title>${echoed}</title></head></html>`);
        } else if (step === 2) {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': echoed });
          res.write(`data: {"choices":[{"delta":{"content":"hi"}}]}\n\n`);
          res.end(`data: ${JSON.stringify({ error: { message: `upstream saw ${echoed}` } })}\n\n`);
        } else {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end(`bad request from ${echoed}`);
        }
      });
      try {
        const log = logSink();
        const client = gw.client({
          baseUrl: hostile.url,
          onRequestLog: log.onRequestLog,
          retry: { maxRetries: 0 },
        });
        const errors: unknown[] = [];
        for (let i = 0; i < 4; i++)
          errors.push((await collect(client.streamChatCompletion(chat('x')))).error);
        assert.ok(errors[0] instanceof AuthError);
        assert.ok(errors[2] instanceof StreamError);
        assert.ok(errors[3] instanceof BadRequestError);
        assertNoKey(errors);
        assertNoKey(log.entries);
        assert.match((errors[0] as AuthError).message, /\[redacted\]/);
        assert.ok(
          hostile.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`),
          'the key was sent',
        );
      } finally {
        await hostile.close();
      }
    });
  });
});
