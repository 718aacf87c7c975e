import * as assert from 'node:assert/strict';
import {
  ConnectionError,
  MalformedResponseError,
  StreamError,
  TruncatedStreamError,
} from '../../../src/gateway/errors';
import { readChatStream } from '../../../src/gateway/sse';
import { KEY, THINKING_MODEL, bytesOf, collect } from './helpers';

const SSE = 'text/event-stream';
const MODEL = 'alpha-haiku-4-5-20251001';

function chunk(fields: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ id: 'c1', model: 'served-model', ...fields })}\n\n`;
}
function delta(d: Record<string, unknown>, finish: string | null = null): string {
  return chunk({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
}

const BASIC = [
  delta({ role: 'assistant', content: '' }),
  delta({ content: 'Hello' }),
  delta({ content: ', wörld 🎉' }),
  delta({}, 'stop'),
  chunk({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
  'data: [DONE]\n\n',
].join('');

function read(body: AsyncIterable<Uint8Array>, model = MODEL, contentType = SSE) {
  return collect(readChatStream(body, { model, contentType, secret: KEY }));
}

describe('gateway/sse (recorded bytes)', () => {
  it('reads a plain stream with role-only first delta, usage chunk and [DONE]', async () => {
    const got = await read(bytesOf(BASIC));
    assert.equal(got.error, undefined);
    assert.equal(got.text, 'Hello, wörld 🎉');
    assert.equal(got.finish, 'stop');
    assert.deepEqual(got.usage, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    assert.ok(got.events.every((e) => e.id === 'c1' && e.model === 'served-model'));
    assert.deepEqual(
      got.events.slice(-2).map((e) => e.type),
      ['usage', 'finish'],
    );
  });

  it('survives UTF-8 split at every byte position', async () => {
    const bytes = new TextEncoder().encode(BASIC);
    for (let i = 1; i < bytes.length; i += 1) {
      const got = await read(bytesOf(bytes.subarray(0, i), bytes.subarray(i)));
      assert.equal(got.text, 'Hello, wörld 🎉', `split at ${i}`);
      assert.equal(got.finish, 'stop');
    }
    const oneByOne = Array.from(bytes, (b) => new Uint8Array([b]));
    assert.equal((await read(bytesOf(...oneByOne))).text, 'Hello, wörld 🎉');
  });

  it('accepts CRLF and lone-CR line endings and comment keep-alives', async () => {
    for (const eol of ['\r\n', '\r']) {
      const body = `: keep-alive\n\n${BASIC}`.replace(/\n/g, eol);
      const got = await read(bytesOf(body));
      assert.equal(got.text, 'Hello, wörld 🎉', JSON.stringify(eol));
      assert.equal(got.finish, 'stop');
    }
    const withComments = BASIC.split('\n\n').join('\n\n: ping\n\n');
    assert.equal((await read(bytesOf(withComments))).text, 'Hello, wörld 🎉');
  });

  it('ignores unknown fields, a choice without delta and chunks with empty choices', async () => {
    const body = [
      chunk({ system_fingerprint: 'x', choices: [{ index: 0, logprobs: null }], x_extra: { a: 1 } }),
      chunk({ choices: [] }),
      chunk({ choices: [{ index: 0, delta: { content: 'ok', extra: true } }] }),
      delta({}, 'stop'),
      'data: [DONE]\n\n',
    ].join('');
    const got = await read(bytesOf(body));
    assert.equal(got.text, 'ok');
  });

  it('passes unusual finish reasons through as-is', async () => {
    for (const reason of ['length', 'content_filter', 'tool_calls', 'function_call', 'eos_token_custom']) {
      const got = await read(bytesOf(delta({ content: 'a' }), delta({}, reason), 'data: [DONE]\n\n'));
      assert.equal(got.finish, reason);
    }
  });

  it('normalises reasoning_content, reasoning and reasoning_tokens', async () => {
    const body = [
      delta({ reasoning_content: 'think A. ' }),
      delta({ reasoning: 'think B.' }),
      delta({ content: 'Answer' }),
      chunk({
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 5 } },
      }),
      'data: [DONE]\n\n',
    ].join('');
    const got = await read(bytesOf(body), THINKING_MODEL);
    assert.equal(got.reasoning, 'think A. think B.');
    assert.equal(got.text, 'Answer');
    assert.deepEqual(got.usage, {
      prompt_tokens: 1,
      completion_tokens: 9,
      total_tokens: 10,
      reasoning_tokens: 5,
    });
  });

  it('splits inline think tags across chunks', async () => {
    const pieces = ['<th', 'ink>plan', ' it</th', 'ink>', '\n\nDone'];
    const body = pieces.map((p) => delta({ content: p })).join('') + delta({}, 'stop') + 'data: [DONE]\n\n';
    const got = await read(bytesOf(body), MODEL);
    assert.equal(got.reasoning, 'plan it');
    assert.equal(got.text, 'Done');
  });

  it('ends at [DONE] even if the server sends more afterwards', async () => {
    const got = await read(bytesOf(BASIC, delta({ content: 'NOPE' })));
    assert.equal(got.text, 'Hello, wörld 🎉');
  });

  it('reads a source that has read() (the exchange) the same way as an iterable', async () => {
    const reads = [BASIC.slice(0, 40), BASIC.slice(40)].map((t) => new TextEncoder().encode(t));
    let calls = 0;
    const source = {
      read: async (): Promise<Uint8Array | undefined> => {
        calls++;
        return reads.shift();
      },
    };
    const got = await collect(readChatStream(source, { model: MODEL, contentType: SSE, secret: KEY }));
    assert.equal(got.error, undefined);
    assert.equal(got.text, 'Hello, wörld 🎉');
    assert.equal(calls, 2, 'no read after the one that held [DONE]');
  });

  it('reads nothing more after [DONE], even from a server that keeps the response open', async () => {
    let released = false;
    async function* openEnded(): AsyncGenerator<Uint8Array> {
      try {
        yield new TextEncoder().encode(BASIC);
        await new Promise(() => undefined); // a read that never completes
      } finally {
        released = true;
      }
    }
    const got = await read(openEnded());
    assert.equal(got.error, undefined);
    assert.equal(got.finish, 'stop');
    assert.ok(released, 'the source was let go');
  });

  it('lets go of the source when the consumer stops early', async () => {
    let released = false;
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (let i = 0; i < 1000; i++) yield new TextEncoder().encode(delta({ content: `${i} ` }));
      } finally {
        released = true;
      }
    }
    for await (const event of readChatStream(endless(), { model: MODEL, contentType: SSE })) {
      if (event.type === 'text') break;
    }
    assert.ok(released);
  });

  it('accepts a stream that ends after the finish chunk without [DONE]', async () => {
    const got = await read(bytesOf(delta({ content: 'x' }), delta({}, 'stop')));
    assert.equal(got.error, undefined);
    assert.equal(got.finish, 'stop');
  });

  it('counts a last event without its blank line', async () => {
    const got = await read(
      bytesOf(delta({ content: 'x' }), 'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}'),
    );
    assert.equal(got.finish, 'stop');
  });

  it('throws TruncatedStreamError after yielding the text when neither [DONE] nor finish arrives', async () => {
    const got = await read(bytesOf(delta({ content: 'partial ' }), delta({ content: 'text' })));
    assert.ok(got.error instanceof TruncatedStreamError);
    assert.equal(got.text, 'partial text');
    assert.equal(got.finish, undefined);
    const cut = await read(bytesOf(delta({ content: 'a' }), 'data: {"choices":[{"delta":{"cont'));
    assert.ok(cut.error instanceof TruncatedStreamError, 'an event cut mid-JSON is truncation, not garbage');
  });

  it('turns a connection error mid-body into a truncation that keeps the text', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(delta({ content: 'kept' }));
      throw new ConnectionError('socket hang up');
    }
    const got = await read(broken());
    assert.equal(got.text, 'kept');
    assert.ok(got.error instanceof TruncatedStreamError);
  });

  describe('in-stream errors (never text)', () => {
    const cases: Record<string, string> = {
      'top-level error next to choices': chunk({
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        error: { message: 'Upstream provider error', code: 502 },
      }),
      'finish_reason error alone': delta({}, 'error'),
      'flat error object': `data: ${JSON.stringify({ error: { message: 'Upstream provider error', type: 'server_error' } })}\n\n`,
      'named error event': `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Upstream provider error' } })}\n\n`,
      'named error event with text data': 'event: error\ndata: Upstream provider error\n\n',
    };
    for (const [name, errorEvent] of Object.entries(cases)) {
      it(name, async () => {
        const got = await read(bytesOf(delta({ content: 'so far' }), errorEvent, delta({ content: 'more' })));
        assert.ok(got.error instanceof StreamError, String(got.error));
        assert.equal(got.text, 'so far');
        assert.equal(got.finish, undefined);
        if (name !== 'finish_reason error alone') assert.match(got.error.message, /Upstream provider error/);
        assert.doesNotMatch(got.error.message, /\[object Object\]/);
      });
    }
  });

  it('scrubs the key from an in-stream error message', async () => {
    const body = `data: ${JSON.stringify({ error: { message: `bad key ${KEY}` } })}\n\n`;
    const got = await read(bytesOf(body));
    assert.ok(got.error instanceof StreamError);
    assert.ok(!got.error.message.includes(KEY));
    assert.ok(!(got.error.stack ?? '').includes(KEY));
  });

  it('rejects a data line that is not JSON as malformed, after what came', async () => {
    const got = await read(bytesOf(delta({ content: 'good' }), 'data: {"broken\n\n', delta({}, 'stop')));
    assert.ok(got.error instanceof MalformedResponseError);
    assert.equal(got.text, 'good');
  });

  it('turns a JSON body into the same events (application/json and sniffed)', async () => {
    const completion = {
      id: 'j1',
      object: 'chat.completion',
      created: 1,
      model: 'served',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Whole answer', reasoning_content: 'why' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    };
    for (const type of ['application/json; charset=utf-8', 'text/plain']) {
      const got = await read(bytesOf(JSON.stringify(completion)), MODEL, type);
      assert.equal(got.error, undefined);
      assert.equal(got.text, 'Whole answer');
      assert.equal(got.reasoning, 'why');
      assert.equal(got.finish, 'stop');
      assert.equal(got.usage?.total_tokens, 3);
      assert.equal(got.events[0].id, 'j1');
    }
  });

  it('turns an error JSON body in a 200 into a StreamError', async () => {
    const got = await read(bytesOf('{"error":{"message":"quota gone"}}'), MODEL, 'application/json');
    assert.ok(got.error instanceof StreamError);
    assert.match(got.error.message, /quota gone/);
  });

  it('refuses an HTML page where a stream was expected', async () => {
    const got = await read(bytesOf('<!DOCTYPE html><html><body>login</body></html>'), MODEL, 'text/html');
    assert.ok(got.error instanceof MalformedResponseError);
    assert.doesNotMatch(got.error.message, /<html/);
  });

  it('handles a 24 MB single event delivered in 64 KiB reads', async function () {
    this.timeout(20_000);
    const size = 24 * 1024 * 1024;
    const body = new TextEncoder().encode(
      delta({ content: 'x'.repeat(size) }) + delta({}, 'stop') + 'data: [DONE]\n\n',
    );
    const reads: Uint8Array[] = [];
    for (let i = 0; i < body.length; i += 65536) reads.push(body.subarray(i, i + 65536));
    const got = await read(bytesOf(...reads));
    assert.equal(got.error, undefined);
    assert.equal(got.text.length, size);
    assert.equal(got.finish, 'stop');
  });
});
