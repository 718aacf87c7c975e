// A -thinking model's content with and without think tags (issue 25, finding 6): every split of the stream,
// the whole JSON body, a Stop in the middle, and the view for consumers that cannot take reasoning back.
import * as assert from 'node:assert/strict';
import { createGatewayClient, settledReasoning } from '../../../src/gateway';
import { UserAbortError } from '../../../src/gateway/errors';
import { readChatStream } from '../../../src/gateway/sse';
import type { StreamEvent } from '../../../src/gateway/types';
import { KEY, THINKING_MODEL, bytesOf, chat, collect, tinyServer, until } from './helpers';

const SSE = 'text/event-stream';

function delta(d: Record<string, unknown>, finish: string | null = null): string {
  const chunk = { id: 'c1', model: THINKING_MODEL, choices: [{ index: 0, delta: d, finish_reason: finish }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}
const END = delta({}, 'stop') + 'data: [DONE]\n\n';

/** Each case: the content as the model sent it, and what it is. */
const CASES: Array<{ name: string; content: string; text: string; reasoning: string }> = [
  {
    name: 'an untagged answer that starts with <',
    content: '<div>hello</div>',
    text: '<div>hello</div>',
    reasoning: '',
  },
  { name: '< alone', content: '<', text: '<', reasoning: '' },
  { name: '<thin, then the end', content: '<thin', text: '<thin', reasoning: '' },
  {
    name: 'real think tags',
    content: '<think>Weigh it.</think>\n\nanswer',
    text: 'answer',
    reasoning: 'Weigh it.',
  },
  { name: 'a closing tag only', content: 'Weigh it.</think>answer', text: 'answer', reasoning: 'Weigh it.' },
];

/** Every way to cut `content` into one, two or three pieces. */
function splits(content: string): string[][] {
  const out: string[][] = [[content]];
  for (let i = 1; i < content.length; i++) {
    out.push([content.slice(0, i), content.slice(i)]);
    for (let j = i + 1; j < content.length; j++)
      out.push([content.slice(0, i), content.slice(i, j), content.slice(j)]);
  }
  return out;
}

function sse(pieces: string[]): AsyncGenerator<Uint8Array> {
  return bytesOf(...pieces.map((content) => delta({ content })), END);
}

function stream(pieces: string[]): AsyncGenerator<StreamEvent> {
  return readChatStream(sse(pieces), { model: THINKING_MODEL, contentType: SSE, secret: KEY });
}

describe('gateway: a -thinking model with and without think tags', () => {
  for (const c of CASES) {
    it(`${c.name}: text and reasoning at every split of the stream`, async () => {
      for (const pieces of splits(c.content)) {
        const got = await collect(stream(pieces));
        const at = JSON.stringify(pieces);
        assert.equal(got.error, undefined, at);
        assert.equal(got.text, c.text, at);
        assert.equal(got.reasoning, c.reasoning, at);
      }
    });

    it(`${c.name}: settled reasoning is never retracted, at every split of the stream`, async () => {
      for (const pieces of splits(c.content)) {
        const events: StreamEvent[] = [];
        for await (const event of settledReasoning(stream(pieces))) events.push(event);
        const at = JSON.stringify(pieces);
        const reasoning = events.flatMap((e) => (e.type === 'reasoning' ? [e] : []));
        // What was handed on as reasoning is all of it: nothing to take back, nothing marked presumed.
        assert.equal(reasoning.map((e) => e.text).join(''), c.reasoning, at);
        assert.ok(
          reasoning.every((e) => e.presumed === undefined),
          at,
        );
        assert.ok(!events.some((e) => e.type === 'retractReasoning'), at);
        assert.equal(events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join(''), c.text, at);
        assert.equal(events.at(-1)?.type, 'finish', at);
      }
    });
  }

  it('the non-streamed path gives the same message, from a JSON body and from a stream', async () => {
    let body = '';
    let asSse = false;
    const server = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': asSse ? SSE : 'application/json' });
      res.end(body);
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: KEY, retry: { maxRetries: 0 } });
    try {
      for (const c of CASES) {
        for (const sent of ['json', 'sse']) {
          asSse = sent === 'sse';
          const message = { role: 'assistant', content: c.content };
          body = asSse
            ? [...Array.from(c.content).map((content) => delta({ content })), END].join('')
            : JSON.stringify({ id: 'j1', choices: [{ index: 0, message, finish_reason: 'stop' }] });
          const got = await client.createChatCompletion(chat('hi', THINKING_MODEL));
          const answer = got.choices[0].message;
          assert.equal(answer.content, c.text, `${c.name} (${sent})`);
          assert.equal(answer.reasoning, c.reasoning || undefined, `${c.name} (${sent})`);
        }
      }
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a Stop before any closing tag leaves what arrived as the answer, not as reasoning', async () => {
    const server = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': SSE });
      // The rest never comes: the user stops while it is still presumed to be reasoning.
      res.write(delta({ content: '<div>hel' }));
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: KEY, retry: { maxRetries: 0 } });
    try {
      for (const settled of [false, true]) {
        const controller = new AbortController();
        const events = client.streamChatCompletion(chat('hi', THINKING_MODEL), { signal: controller.signal });
        const seen: StreamEvent[] = [];
        const watched = (async function* () {
          for await (const event of events) {
            seen.push(event);
            yield event;
          }
        })();
        const pending = collect(settled ? settledReasoning(watched) : watched);
        await until(() => seen.length > 0);
        assert.deepEqual(
          seen.map((e) => e.type),
          ['reasoning'],
          'streamed at once as presumed reasoning',
        );
        controller.abort();
        const got = await pending;
        assert.ok(got.error instanceof UserAbortError, String(got.error));
        assert.equal(got.reasoning, '', `settled: ${settled}`);
        assert.equal(got.text, '<div>hel', `settled: ${settled}`);
        assert.equal(
          got.events.some((e) => e.type === 'reasoning'),
          !settled,
          'only a consumer that can take it back was shown it',
        );
      }
    } finally {
      await client.close();
      await server.close();
    }
  });
});
