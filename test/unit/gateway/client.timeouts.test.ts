import * as assert from 'node:assert/strict';
import { type Server, type Socket, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createGatewayClient } from '../../../src/gateway';
import { TimeoutError, UserAbortError } from '../../../src/gateway/errors';
import type { GatewayClient, GatewayClientOptions } from '../../../src/gateway/types';
import {
  type Emulator,
  type EmulatorOptions,
  expectedAnswer,
  keptAnswerText,
  startEmulator,
} from '../../gateway-emulator';
import { KEY, chat, collect, logSink, rejection } from './helpers';

describe('gateway client: timeouts, aborts and closing the connection', function () {
  this.timeout(20_000);
  let emulator: Emulator | undefined;
  const clients: GatewayClient[] = [];

  async function setup(
    emu: EmulatorOptions,
    options: Partial<GatewayClientOptions> = {},
  ): Promise<[Emulator, GatewayClient]> {
    emulator = await startEmulator({ stallMs: 10_000, keys: [KEY], ...emu });
    const client = createGatewayClient({
      baseUrl: emulator.url,
      apiKey: KEY,
      retry: { baseDelayMs: 10 },
      ...options,
    });
    clients.push(client);
    return [emulator, client];
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await emulator?.close();
    emulator = undefined;
  });

  it('first-byte timeout: TimeoutError(first_byte), not retried, and the socket is closed', async () => {
    const [emu, client] = await setup({}, { timeouts: { firstByteMs: 300 } });
    const started = Date.now();
    const got = await collect(client.streamChatCompletion(chat('[[fault:stall-first-byte]]')));
    assert.ok(got.error instanceof TimeoutError, String(got.error));
    assert.equal(got.error.phase, 'first_byte');
    assert.match(got.error.message, /did not start answering within/);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 280 && elapsed < 2000, `${elapsed} ms`);
    await emu.waitFor((r) => r.length === 1 && r[0].clientClosed);
    assert.equal(emu.requests.length, 1);
  });

  it('the first-byte limit covers a non-streamed answer too, and a slow one within it succeeds', async () => {
    const [, client] = await setup({}, { timeouts: { firstByteMs: 1000 } });
    const request = chat('[[fault:slow-first-byte:200]]');
    const completion = await client.createChatCompletion(request);
    assert.equal(completion.choices[0].message.content, expectedAnswer(request));
    const error = await rejection(client.createChatCompletion(chat('[[fault:slow-first-byte:3000]]')));
    assert.ok(error instanceof TimeoutError && error.phase === 'first_byte');
  });

  it('idle timeout mid-stream: TimeoutError(idle) after the text that came', async () => {
    const [emu, client] = await setup({}, { timeouts: { idleMs: 300 } });
    const request = chat('[[fault:stall-mid-stream]]');
    const got = await collect(client.streamChatCompletion(request));
    assert.ok(got.error instanceof TimeoutError, String(got.error));
    assert.equal(got.error.phase, 'idle');
    assert.ok(got.text.length > 0);
    assert.equal(got.text, keptAnswerText(request), 'exactly the text before the stall');
    await emu.waitFor((r) => r[0]?.clientClosed === true);
  });

  it('idle is measured between reads, not over the whole answer', async () => {
    const [, client] = await setup({ chunkDelayMs: 120, chunkSize: 40 }, { timeouts: { idleMs: 500 } });
    const request = chat('slow but steady [[fault:keepalive]]');
    const started = Date.now();
    const got = await collect(client.streamChatCompletion(request));
    assert.equal(got.error, undefined, String(got.error));
    assert.equal(got.text, expectedAnswer(request));
    assert.ok(Date.now() - started > 500, 'the whole answer took longer than the idle limit');
  });

  it('a connect timeout is a TimeoutError(connect)', async () => {
    // A TCP server that never speaks: the TLS handshake, part of connecting, never completes.
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => {
      sockets.add(s);
      s.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const log = logSink();
      const client = createGatewayClient({
        baseUrl: `https://127.0.0.1:${port}`,
        apiKey: KEY,
        timeouts: { connectMs: 300 },
        retry: { maxRetries: 1, baseDelayMs: 10 },
        onRequestLog: log.onRequestLog,
      });
      clients.push(client);
      const started = Date.now();
      const error = await rejection(client.createChatCompletion(chat('x')));
      assert.ok(error instanceof TimeoutError, String(error));
      assert.equal(error.phase, 'connect');
      assert.ok(Date.now() - started < 3000);
      assert.equal(log.entries.length, 2, 'a connect timeout is a connection failure and is retried');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('the user abort signal closes the socket mid-stream and throws UserAbortError', async () => {
    const [emu, client] = await setup({ chunkDelayMs: 30 });
    const controller = new AbortController();
    const request = chat('[[answer:long]]');
    let text = '';
    const error = await rejection(
      (async () => {
        for await (const event of client.streamChatCompletion(request, { signal: controller.signal })) {
          if (event.type === 'text') text += event.text;
          if (text.length > 20) controller.abort();
        }
      })(),
    );
    assert.ok(error instanceof UserAbortError, String(error));
    assert.equal(error.kind, 'aborted');
    assert.ok(text.length > 20 && expectedAnswer(request).startsWith(text));
    await emu.waitFor((r) => r.length === 1 && r[0].clientClosed && !r[0].responseEnded);
  });

  it('breaking out of the loop aborts the request and closes the connection', async () => {
    const [emu, client] = await setup({ chunkDelayMs: 30 });
    for await (const event of client.streamChatCompletion(chat('[[answer:long]]'))) {
      if (event.type === 'text') break;
    }
    await emu.waitFor((r) => r.length === 1 && r[0].clientClosed && !r[0].responseEnded);
  });

  it('an abort while waiting for the first byte ends at once', async () => {
    const [emu, client] = await setup({});
    const controller = new AbortController();
    const pending = collect(
      client.streamChatCompletion(chat('[[fault:stall-first-byte]]'), { signal: controller.signal }),
    );
    await emu.waitFor((r) => r.length === 1);
    const started = Date.now();
    controller.abort();
    const got = await pending;
    assert.ok(got.error instanceof UserAbortError);
    assert.ok(Date.now() - started < 1000);
    await emu.waitFor((r) => r[0].clientClosed);
  });

  it('an already-aborted signal sends nothing', async () => {
    const [emu, client] = await setup({});
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client.createChatCompletion(chat('x'), { signal: controller.signal }));
    assert.ok(error instanceof UserAbortError);
    assert.ok(
      (await rejection(client.generateImages({ prompt: 'x' }, { signal: controller.signal }))) instanceof
        UserAbortError,
    );
    assert.equal(emu.requests.length, 0);
  });

  it('a finished stream does not destroy the socket (the response ended normally)', async () => {
    const [emu, client] = await setup({});
    const got = await collect(client.streamChatCompletion(chat('normal end')));
    assert.equal(got.error, undefined);
    await emu.waitFor((r) => r.length === 1 && r[0].responseEnded);
    assert.equal(emu.requests[0].clientClosed, false);
  });
});
