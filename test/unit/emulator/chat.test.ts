// The emulator's chat endpoint in non-fault mode: JSON, streaming, reasoning, answer rules, auth, recording.
import * as assert from 'node:assert/strict';
import {
  expectedAnswer,
  expectedCode,
  expectedReasoning,
  expectedUsage,
  fixedAnswer,
  startEmulator,
  type Emulator,
} from '../../gateway-emulator/index';
import { chatBody, chunksOf, concatField, KEY, post, THINKING } from './helpers';
import { EMULATOR_KEY, EMULATOR_TEST_KEY } from '../../gateway-emulator/keys';
import { useEmulatorPerTest } from '../../support/emulatorClients';

const CHAT = '/v1/chat/completions';

interface Completion {
  id: string;
  object: string;
  model: string;
  choices: Array<{
    index: number;
    message: { role: string; content: string; reasoning_content?: string };
    finish_reason: string;
  }>;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    completion_tokens_details?: { reasoning_tokens: number };
  };
}

describe('gateway emulator: chat', () => {
  let emu: Emulator;
  useEmulatorPerTest((started) => (emu = started));

  it('listens on 127.0.0.1 and reports its url without /v1', () => {
    assert.match(emu.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(emu.url, `http://127.0.0.1:${emu.port}`);
  });

  it('answers a JSON completion with the expected answer and usage', async () => {
    const body = chatBody('Explain closures in two lines.');
    const res = await post(emu.url, CHAT, body);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const json = (await res.json()) as Completion;
    assert.equal(json.object, 'chat.completion');
    assert.equal(json.model, body.model);
    assert.equal(json.choices[0].message.role, 'assistant');
    assert.equal(json.choices[0].message.content, expectedAnswer(body));
    assert.equal(json.choices[0].finish_reason, 'stop');
    assert.ok(json.choices[0].message.content.startsWith('In short: closures in two lines comes down to'));
    const promptTokens = Math.ceil(body.messages[0].content.length / 4);
    const completionTokens = Math.ceil(expectedAnswer(body).length / 4);
    assert.deepEqual(json.usage, {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    });
    assert.deepEqual(json.usage, expectedUsage(body));
  });

  it('is deterministic for the same request and differs between requests', async () => {
    const a = chatBody('same question');
    const first = (await (await post(emu.url, CHAT, a)).json()) as Completion;
    const second = (await (await post(emu.url, CHAT, a)).json()) as Completion;
    assert.equal(first.choices[0].message.content, second.choices[0].message.content);
    const other = expectedAnswer(chatBody('another question'));
    assert.notEqual(first.choices[0].message.content, other);
  });

  it('streams chunks whose content concatenates to the expected answer, with usage and [DONE]', async () => {
    const body = chatBody('Stream me a reply', { stream: true });
    const res = await post(emu.url, CHAT, body);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await res.text();
    assert.ok(text.trimEnd().endsWith('data: [DONE]'));
    const { chunks, done } = chunksOf(text);
    assert.ok(done);
    assert.ok(chunks.length > 5, 'answer arrives in several chunks');
    assert.equal(concatField(chunks, 'content'), expectedAnswer(body));
    assert.equal(new Set(chunks.map((c) => c.id)).size, 1, 'one completion id for every chunk');
    const last = chunks[chunks.length - 1];
    assert.equal(last.choices[0].finish_reason, 'stop');
    assert.deepEqual(last.usage, expectedUsage(body));
  });

  it('honours chunkSize', async () => {
    const small = await startEmulator({ chunkSize: 3 });
    try {
      const body = chatBody('abc', { stream: true });
      const { chunks } = chunksOf(await (await post(small.url, CHAT, body)).text());
      const pieces = chunks
        .map((c) => c.choices[0]?.delta?.content)
        .filter((v): v is string => typeof v === 'string' && v !== '');
      assert.ok(pieces.every((p) => Array.from(p).length <= 3));
      assert.equal(pieces.join(''), expectedAnswer(body));
    } finally {
      await small.close();
    }
  });

  it('streams reasoning_content before the answer for -thinking models', async () => {
    const body = { ...chatBody('Think first', { stream: true }), model: THINKING };
    const { chunks } = chunksOf(await (await post(emu.url, CHAT, body)).text());
    const reasoning = expectedReasoning(body);
    assert.ok(reasoning.length > 0);
    assert.equal(concatField(chunks, 'reasoning_content'), reasoning);
    assert.equal(concatField(chunks, 'content'), expectedAnswer(body));
    const firstContent = chunks.findIndex((c) => typeof c.choices[0]?.delta?.content === 'string');
    const lastReasoning = chunks
      .map((c) => typeof c.choices[0]?.delta?.reasoning_content === 'string')
      .lastIndexOf(true);
    assert.ok(lastReasoning < firstContent, 'all reasoning precedes the answer');
    const usage = chunks[chunks.length - 1].usage;
    assert.equal(usage?.completion_tokens_details?.reasoning_tokens, Math.ceil(reasoning.length / 4));
    assert.equal(expectedReasoning(chatBody('x')), '', 'no reasoning for other models');
  });

  it('returns reasoning_content in a JSON completion of a -thinking model', async () => {
    const body = { ...chatBody('Think'), model: THINKING };
    const json = (await (await post(emu.url, CHAT, body)).json()) as Completion;
    assert.equal(json.choices[0].message.reasoning_content, expectedReasoning(body));
    assert.equal(json.choices[0].message.content, expectedAnswer(body));
  });

  it('answers CODE ONLY requests with a fenced block wrapped in one line of prose', async () => {
    const body = chatBody(
      'Instruction: a greeting function',
      {},
      'You edit code. CODE ONLY.\nLANGUAGE: python',
    );
    const json = (await (await post(emu.url, CHAT, body)).json()) as Completion;
    const lines = json.choices[0].message.content.split('\n');
    assert.equal(lines[1], '```python');
    assert.equal(lines[lines.length - 2], '```');
    assert.equal(lines.slice(2, -2).join('\n'), expectedCode(body));
    assert.match(expectedCode(body), /^def greeting\(text: str\) -> str:/);
    assert.ok(lines[0].length > 0 && lines[lines.length - 1].length > 0, 'prose before and after');
  });

  it('answers [[answer:NAME]] with the fixed answers', async () => {
    const long = (await (
      await post(emu.url, CHAT, chatBody('give me [[answer:long]]'))
    ).json()) as Completion;
    assert.equal(long.choices[0].message.content, fixedAnswer('long'));
    assert.ok(fixedAnswer('long').length >= 20_000 && fixedAnswer('long').length < 24_000);
    for (const construct of ['# ', '| --- |', '```', '- '])
      assert.ok(fixedAnswer('long').includes(construct), construct);
    const md = (await (await post(emu.url, CHAT, chatBody('[[answer:markdown]]'))).json()) as Completion;
    assert.equal(md.choices[0].message.content, fixedAnswer('markdown'));
    const res = await post(emu.url, CHAT, chatBody('[[answer:nope]]'));
    assert.equal(res.status, 400);
    await res.body?.cancel();
  });

  it('answers 401 invalid_api_key for a missing or rejected key', async () => {
    // A plausible `sk-` key that is not one of the accepted ones is rejected like any other.
    for (const key of [null, 'not-a-valid-key', 'sk-plausible-but-wrong', `${EMULATOR_KEY}x`]) {
      const res = await post(emu.url, CHAT, chatBody('hi'), { key });
      assert.equal(res.status, 401);
      const json = (await res.json()) as { error: { code: string; type: string; message: string } };
      assert.equal(json.error.code, 'invalid_api_key');
      assert.equal(typeof json.error.message, 'string');
    }
    for (const key of [EMULATOR_KEY, EMULATOR_TEST_KEY])
      assert.equal((await post(emu.url, CHAT, chatBody('hi'), { key })).status, 200, key);
    const listed = await startEmulator({ keys: ['sk-listed'] });
    try {
      assert.equal((await post(listed.url, CHAT, chatBody('hi'))).status, 401);
      assert.equal((await post(listed.url, CHAT, chatBody('hi'), { key: 'sk-listed' })).status, 200);
      listed.keys.add('sk-added-later');
      assert.equal((await post(listed.url, CHAT, chatBody('hi'), { key: 'sk-added-later' })).status, 200);
    } finally {
      await listed.close();
    }
    const strict = await startEmulator({ acceptKey: (k) => k === 'sk-only-this' });
    try {
      assert.equal((await post(strict.url, CHAT, chatBody('hi'))).status, 401);
      assert.equal((await post(strict.url, CHAT, chatBody('hi'), { key: 'sk-only-this' })).status, 200);
    } finally {
      await strict.close();
    }
  });

  it('records requests with headers, parsed body, status and end state', async () => {
    const body = chatBody('record me');
    await (await post(emu.url, CHAT, body)).text();
    await emu.waitFor((r) => r.length === 1 && r[0].responseEnded, 2000);
    const [rec] = emu.requests;
    assert.equal(rec.method, 'POST');
    assert.equal(rec.path, CHAT);
    assert.deepEqual(rec.body, body);
    assert.equal(rec.headers.authorization, `Bearer ${KEY}`);
    assert.equal(rec.status, 200);
    assert.equal(rec.clientClosed, false);
    assert.ok(rec.receivedAt <= Date.now());
    emu.reset();
    assert.equal(emu.requests.length, 0);
  });

  it('records every body write with its time and text only when asked to (recordWrites)', async () => {
    const body = chatBody('Explain closures in two lines.', { stream: true });
    await (await post(emu.url, CHAT, body)).text();
    assert.equal(emu.requests[0].writes, undefined);
    const recording = await startEmulator({ recordWrites: true });
    try {
      const text = await (await post(recording.url, CHAT, body)).text();
      const rec = recording.requests[0];
      const writes = rec.writes ?? [];
      assert.ok(writes.length > 2, 'one write per SSE event');
      assert.equal(writes.map((w) => w.text).join(''), text);
      assert.equal(
        writes.reduce((n, w) => n + w.bytes, 0),
        Buffer.byteLength(text),
      );
      assert.equal(writes[0].at, rec.firstWriteAt);
      assert.ok(writes.every((w, i) => i === 0 || w.at >= writes[i - 1].at));
      assert.ok(writes[0].at >= (rec.bodyAt ?? Infinity));
    } finally {
      await recording.close();
    }
  });

  it('records a non-JSON body as the raw string and refuses it', async () => {
    const res = await fetch(`${emu.url}${CHAT}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}` },
      body: 'not json',
    });
    assert.equal(res.status, 400);
    await res.text();
    assert.equal(emu.requests[0].body, 'not json');
  });

  it('waitFor times out with a clear error', async () => {
    await assert.rejects(
      emu.waitFor(() => false, 50),
      /timed out/,
    );
  });
});
