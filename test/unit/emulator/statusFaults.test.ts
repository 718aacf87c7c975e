// Faults before the stream: status dialects, retry headers, flaky counters, request ids, slow and stalled starts.
import * as assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../../gateway-emulator/index';
import { chatBody, post, rawPost, within } from './helpers';
import { useEmulatorPerTest } from '../../support/emulatorClients';

const CHAT = '/v1/chat/completions';

type Json = Record<string, unknown>;

describe('gateway emulator: faults before the stream', () => {
  let emu: Emulator;
  useEmulatorPerTest((started) => (emu = started));

  it('answers status faults in each dialect', async () => {
    const body = async (fault: string): Promise<{ status: number; type: string; text: string }> => {
      const res = await post(emu.url, CHAT, chatBody('hi', { stream: true }), { fault });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
    };
    const openai = await body('status:429');
    assert.equal(openai.status, 429);
    const oe = (JSON.parse(openai.text) as { error: Json }).error;
    assert.deepEqual(Object.keys(oe).sort(), ['code', 'message', 'param', 'type']);
    assert.equal(oe.code, 'rate_limit_exceeded');

    const router = JSON.parse((await body('status:402:openrouter')).text) as { error: Json };
    assert.equal(router.error.code, 402);
    assert.equal(typeof router.error.message, 'string');

    const litellm = JSON.parse((await body('status:429:litellm')).text) as { error: Json };
    assert.equal(litellm.error.code, '429');
    assert.match(String(litellm.error.message), /^litellm\.RateLimitError: /);

    const vllm = JSON.parse((await body('status:400:vllm')).text) as Json;
    assert.equal(vllm.object, 'error');
    assert.equal(vllm.code, 400);
    assert.equal(vllm.error, undefined);

    const ollama = JSON.parse((await body('status:404:ollama')).text) as Json;
    assert.equal(typeof ollama.error, 'string');

    const anthropic = await body('status:529:anthropic');
    assert.equal(anthropic.status, 529);
    assert.deepEqual(JSON.parse(anthropic.text), {
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });

    const reseller = JSON.parse((await body('status:503:reseller')).text) as { error: { message: string } };
    assert.match(reseller.error.message, /[\u4e00-\u9fff]/);
    assert.match(reseller.error.message, /\(request id: [0-9a-f]+\)$/);

    const html = await body('status:524:html');
    assert.equal(html.status, 524);
    assert.match(html.type, /^text\/html/);
    assert.match(html.text, /<html/i);

    const empty = await body('status:502:empty');
    assert.equal(empty.status, 502);
    assert.equal(empty.text, '');
  });

  it('sends Retry-After in seconds, as a date, and retry-after-ms', async () => {
    const secs = await post(emu.url, CHAT, chatBody('hi'), { fault: 'status:429,retry-after:1.5' });
    assert.equal(secs.headers.get('retry-after'), '1.5');
    await secs.text();
    const ms = await post(emu.url, CHAT, chatBody('hi'), { fault: 'status:503,retry-after-ms:250' });
    assert.equal(ms.headers.get('retry-after-ms'), '250');
    await ms.text();
    const dated = await post(emu.url, CHAT, chatBody('hi'), { fault: 'status:429,retry-after-date:30' });
    const when = Date.parse(dated.headers.get('retry-after') ?? '');
    await dated.text();
    assert.ok(Math.abs(when - (Date.now() + 30_000)) < 2_000, 'an HTTP date about 30 s ahead');
    const none = await post(emu.url, CHAT, chatBody('hi'), { fault: 'status:429' });
    assert.equal(none.headers.get('retry-after'), null, 'no Retry-After unless asked for');
    await none.text();
  });

  it('fails flaky requests n times per marker text, then succeeds; reset() clears the counter', async () => {
    const body = chatBody('retry me [[fault:flaky:503:2]]');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(emu.url, CHAT, body);
      statuses.push(res.status);
      await res.text();
    }
    assert.deepEqual(statuses, [503, 503, 200]);
    const other = await post(emu.url, CHAT, chatBody('x [[fault:flaky:503:2,request-id:other]]'));
    assert.equal(other.status, 503, 'a different marker text has its own counter');
    await other.text();
    emu.reset();
    const again = await post(emu.url, CHAT, body);
    assert.equal(again.status, 503);
    const err = (await again.json()) as { error: { type: string } };
    assert.equal(err.error.type, 'server_error');
  });

  it('adds x-request-id, also on errors', async () => {
    const ok = await post(emu.url, CHAT, chatBody('hi'), { fault: 'request-id:req_123' });
    assert.equal(ok.headers.get('x-request-id'), 'req_123');
    await ok.text();
    const bad = await post(emu.url, CHAT, chatBody('hi [[fault:status:500,request-id:req_9]]'));
    assert.equal(bad.headers.get('x-request-id'), 'req_9');
    await bad.text();
  });

  it('refuses an unknown fault spec with a 400 naming it', async () => {
    const res = await post(emu.url, CHAT, chatBody('hi'), { fault: 'no-such-fault' });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /no-such-fault/);
  });

  it('delays the status line for slow-first-byte', async () => {
    const started = Date.now();
    const res = await post(emu.url, CHAT, chatBody('hi'), { fault: 'slow-first-byte:300' });
    assert.ok(Date.now() - started >= 290);
    assert.equal(res.status, 200);
    await res.text();
  });

  it('holds stall-first-byte for stallMs, then answers', async () => {
    const short = await startEmulator({ stallMs: 250 });
    try {
      const started = Date.now();
      const res = await post(short.url, CHAT, chatBody('hi'), { fault: 'stall-first-byte' });
      assert.ok(Date.now() - started >= 240);
      assert.equal(res.status, 200);
      await res.text();
    } finally {
      await short.close();
    }
  });

  it('close() ends a stalled request at once and clears its timer', async () => {
    const pending = rawPost(emu.port, CHAT, chatBody('hi', { stream: true }), {
      'X-Emulator-Fault': 'stall-first-byte',
    });
    pending.catch(() => undefined);
    await emu.waitFor((r) => r.length === 1 && r[0].body !== undefined, 2000);
    const started = Date.now();
    await within(emu.close(), 2000, 'close()');
    await assert.rejects(within(pending, 2000, 'the stalled request'), /socket hang up|ECONNRESET/);
    assert.ok(Date.now() - started < 2000);
    assert.equal(emu.requests[0].clientClosed, false, 'the server closed it, not the client');
  });

  it('resets before the first token: 200 and SSE headers, then the connection drops', async () => {
    const res = await post(emu.url, CHAT, chatBody('hi', { stream: true }), {
      fault: 'reset-before-first-token',
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    await assert.rejects(res.text());
    await emu.waitFor((r) => r[0]?.status === 200, 1000);
    assert.equal(emu.requests[0].clientClosed, false);
    assert.equal(emu.requests[0].responseEnded, false);
  });
});
