// Faults inside a 200 stream: errors, resets, missing [DONE], framing, encoding and reasoning dialects.
import * as assert from 'node:assert/strict';
import {
  collectFaults,
  expectedAnswer,
  expectedReasoning,
  expectedStreamText,
  keptAnswerText,
  startEmulator,
  type Emulator,
} from '../../gateway-emulator/index';
import { chatBody, chunksOf, concatField, parseSse, post, rawPost, THINKING } from './helpers';
import { useEmulatorPerTest } from '../../support/emulatorClients';

const CHAT = '/v1/chat/completions';

describe('gateway emulator: faults inside the stream', () => {
  let emu: Emulator;
  useEmulatorPerTest((started) => (emu = started));

  const stream = async (
    fault: string,
    model?: string,
  ): Promise<{ text: string; body: ReturnType<typeof chatBody> }> => {
    const body = chatBody('stream with faults', { stream: true });
    if (model) body.model = model;
    const res = await post(emu.url, CHAT, body, { fault });
    assert.equal(res.status, 200);
    return { text: await res.text(), body };
  };
  const firstTwo = (body: ReturnType<typeof chatBody>): string =>
    Array.from(expectedAnswer(body)).slice(0, 16).join('');

  it('sends an in-stream error chunk next to choices, keeps earlier text, and no [DONE]', async () => {
    const { text, body } = await stream('in-stream-error');
    const { chunks, done } = chunksOf(text);
    assert.equal(done, false);
    const last = chunks[chunks.length - 1];
    assert.ok(last.error, 'top-level error');
    assert.equal(last.choices[0].finish_reason, 'error');
    assert.equal(concatField(chunks, 'content'), firstTwo(body));
  });

  it('sends flat and named-event in-stream errors', async () => {
    const flat = parseSse((await stream('in-stream-error:flat')).text);
    const flatLast = JSON.parse(flat[flat.length - 1].data) as {
      error?: { message: string };
      choices?: unknown;
    };
    assert.equal(typeof flatLast.error?.message, 'string');
    assert.equal(flatLast.choices, undefined);
    const named = parseSse((await stream('in-stream-error:event')).text);
    const event = named[named.length - 1];
    assert.equal(event.event, 'error');
    assert.equal((JSON.parse(event.data) as { type: string }).type, 'error');
    assert.ok(!named.some((e) => e.data === '[DONE]'));
  });

  it('drops the connection mid-stream after two text chunks', async () => {
    const body = chatBody('reset me', { stream: true });
    const result = await rawPost(emu.port, CHAT, body, { 'X-Emulator-Fault': 'reset-mid-stream' });
    assert.ok(result.error, 'the body ends with an error');
    const received = Buffer.concat(result.reads).toString('utf8');
    assert.equal(concatField(chunksOf(received).chunks, 'content'), firstTwo(body));
    await emu.waitFor((r) => r.length === 1 && r[0].status === 200, 1000);
    assert.equal(emu.requests[0].clientClosed, false);
  });

  it('ends without [DONE] (no-done) and without finish_reason (no-done-no-finish)', async () => {
    const noDone = chunksOf((await stream('no-done')).text);
    assert.equal(noDone.done, false);
    assert.equal(noDone.chunks[noDone.chunks.length - 1].choices[0].finish_reason, 'stop');
    const bare = await stream('no-done-no-finish');
    const parsed = chunksOf(bare.text);
    assert.equal(parsed.done, false);
    assert.ok(parsed.chunks.every((c) => !c.choices[0]?.finish_reason));
    assert.equal(concatField(parsed.chunks, 'content'), expectedAnswer(bare.body));
  });

  it('sends one malformed data line after the first good chunk', async () => {
    const events = parseSse((await stream('malformed-chunk')).text);
    assert.doesNotThrow(() => JSON.parse(events[0].data));
    assert.throws(() => JSON.parse(events[1].data));
    assert.equal(events[events.length - 1].data, '[DONE]');
  });

  it('answers JSON for json-instead-of-sse despite stream: true', async () => {
    const body = chatBody('json please', { stream: true });
    const res = await post(emu.url, CHAT, body, { fault: 'json-instead-of-sse' });
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const json = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    assert.equal(json.choices[0].message.content, expectedAnswer(body));
  });

  it('sends one big event of x characters', async () => {
    const { text, body } = await stream('big-event:2000000');
    const events = parseSse(text);
    const big = events.find((e) => e.data.length > 2_000_000);
    assert.ok(big, 'a single event holds all of it');
    assert.equal(concatField(chunksOf(text).chunks, 'content'), 'x'.repeat(2_000_000) + expectedAnswer(body));
  });

  it('ends lines with CRLF or lone CR', async () => {
    const crlf = await stream('crlf');
    assert.ok(crlf.text.includes('\r\n\r\n'));
    assert.ok(!/[^\r]\n/.test(crlf.text), 'no bare LF');
    assert.equal(concatField(chunksOf(crlf.text).chunks, 'content'), expectedAnswer(crlf.body));
    const cr = await stream('cr');
    assert.ok(!cr.text.includes('\n'));
    assert.ok(cr.text.includes('\r\r'));
    assert.equal(concatField(chunksOf(cr.text).chunks, 'content'), expectedAnswer(cr.body));
  });

  it('splits multi-byte characters across body writes (split-utf8) and still decodes exactly', async () => {
    const body = chatBody('emoji and 漢字 please', { stream: true });
    const result = await rawPost(emu.port, CHAT, body, { 'X-Emulator-Fault': 'split-utf8' });
    assert.equal(result.error, undefined);
    const broken = result.reads.filter((part) => {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(part);
        return false;
      } catch {
        return true;
      }
    });
    assert.ok(broken.length > 0, 'some read ends or starts inside a character');
    const text = new TextDecoder().decode(Buffer.concat(result.reads));
    assert.equal(concatField(chunksOf(text).chunks, 'content'), expectedAnswer(body));
    assert.match(expectedAnswer(body), /[\u{1F300}-\u{1FAFF}]/u);
  });

  it('sends keep-alive comments before the first chunk and between chunks', async () => {
    const { text, body } = await stream('keepalive');
    assert.ok(text.startsWith(': keep-alive\n\n'));
    assert.ok(text.split(': keep-alive').length > 5);
    assert.equal(concatField(chunksOf(text).chunks, 'content'), expectedAnswer(body));
  });

  it('puts reasoning inline between think tags split across chunks', async () => {
    for (const [variant, open, close] of [
      ['think', '<think>', '</think>'],
      ['thinking', '<thinking>', '</thinking>'],
      ['no-open', '', '</think>'],
    ]) {
      const { text, body } = await stream(`think-tags:${variant}`, THINKING);
      const { chunks } = chunksOf(text);
      assert.equal(
        concatField(chunks, 'content'),
        `${open}${expectedReasoning(body)}${close}${expectedAnswer(body)}`,
      );
      assert.equal(concatField(chunks, 'reasoning_content'), '');
      const pieces = chunks.map((c) => String(c.choices[0]?.delta?.content ?? ''));
      assert.ok(!pieces.some((p) => p.includes(close)), `${close} never arrives whole`);
    }
  });

  it("sends a thinking model's answer untagged and no reasoning at all (think-tags:none)", async () => {
    const { text, body } = await stream('think-tags:none', THINKING);
    const { chunks } = chunksOf(text);
    assert.equal(concatField(chunks, 'content'), expectedAnswer(body));
    assert.equal(concatField(chunks, 'reasoning_content') + concatField(chunks, 'reasoning'), '');
  });

  it('carries reasoning in the field chosen by reasoning-field', async () => {
    const { text, body } = await stream('reasoning-field:reasoning', THINKING);
    const { chunks } = chunksOf(text);
    assert.equal(concatField(chunks, 'reasoning'), expectedReasoning(body));
    assert.equal(concatField(chunks, 'reasoning_content'), '');
  });

  it('sends a final usage chunk with empty choices (usage-chunk)', async () => {
    const { text, body } = await stream('usage-chunk', THINKING);
    const { chunks, done } = chunksOf(text);
    assert.ok(done);
    const last = chunks[chunks.length - 1];
    assert.deepEqual(last.choices, []);
    assert.equal(last.usage?.completion_tokens, Math.ceil(expectedAnswer(body).length / 4));
    assert.equal(
      last.usage?.completion_tokens_details?.reasoning_tokens,
      Math.ceil(expectedReasoning(body).length / 4),
    );
    assert.equal(chunks[chunks.length - 2].usage, undefined, 'the finish chunk has no usage then');
  });

  it('sends a role-only first chunk, a chosen finish_reason, and extra fields', async () => {
    const { text, body } = await stream('role-first,finish:length,extra-fields');
    const { chunks } = chunksOf(text);
    assert.deepEqual(chunks[0].choices[0].delta, { role: 'assistant', content: '' });
    assert.equal(chunks[chunks.length - 1].choices[0].finish_reason, 'length');
    assert.ok(chunks.every((c) => c.system_fingerprint !== undefined));
    assert.ok(
      chunks.some((c) => c.choices.length > 0 && c.choices[0].delta === undefined),
      'a choice without delta',
    );
    assert.equal(concatField(chunks, 'content'), expectedAnswer(body));
  });

  it('takes faults from markers in any message, combined with the header', async () => {
    const body = chatBody('two faults [[fault:no-done]]', { stream: true });
    body.messages.unshift({ role: 'system', content: 'sys [[fault:crlf]]' });
    const res = await post(emu.url, CHAT, body, { fault: 'request-id:r1' });
    assert.equal(res.headers.get('x-request-id'), 'r1');
    const text = await res.text();
    assert.ok(text.includes('\r\n'));
    assert.equal(chunksOf(text).done, false);
    const expected = expectedStreamText(
      body,
      collectFaults(
        'request-id:r1',
        body.messages.map((m) => m.content),
      ),
    );
    assert.equal(concatField(chunksOf(text).chunks, 'content'), expected.content);
    assert.equal(expected.done, false);
  });

  it('records clientClosed when the client aborts mid-stream', async () => {
    const slow = await startEmulator({ chunkDelayMs: 30 });
    try {
      const controller = new AbortController();
      const res = await post(slow.url, CHAT, chatBody('abort me', { stream: true }), {
        signal: controller.signal,
      });
      const reader = res.body?.getReader();
      assert.ok(reader);
      await reader.read();
      controller.abort();
      await slow.waitFor((r) => r.length === 1 && r[0].clientClosed, 3000);
      assert.equal(slow.requests[0].responseEnded, false);
      assert.equal(slow.requests[0].status, 200);
    } finally {
      await slow.close();
    }
  });

  it('holds stall-mid-stream after two chunks', async () => {
    const stalling = await startEmulator({ stallMs: 300 });
    try {
      const body = chatBody('stall', { stream: true });
      const started = Date.now();
      const res = await post(stalling.url, CHAT, body, { fault: 'stall-mid-stream' });
      const text = await res.text();
      assert.ok(Date.now() - started >= 290);
      assert.equal(concatField(chunksOf(text).chunks, 'content'), expectedAnswer(body));
    } finally {
      await stalling.close();
    }
  });

  it('keptAnswerText is the content before the first failing item of the plan, not the whole answer', () => {
    const cases: Array<[string, number]> = [
      ['reset-mid-stream', 16],
      ['stall-mid-stream', 16],
      ['in-stream-error:chunk', 16],
      ['in-stream-error:flat', 16],
      ['malformed-chunk', 8],
      ['no-done-no-finish', Infinity],
    ];
    for (const [fault, points] of cases) {
      const body = chatBody(`kept text [[fault:${fault}]]`, { stream: true });
      const full = [...expectedAnswer(body)];
      const want = full.slice(0, Math.min(points, full.length)).join('');
      assert.equal(keptAnswerText(body), want, fault);
      assert.ok(want.length < full.join('').length || points === Infinity, fault);
    }
  });
});
