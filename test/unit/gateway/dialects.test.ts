// Dialects met when testing from outside (issue 15): streams recorded in the shapes real servers send.
import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import { StreamError } from '../../../src/gateway/errors';
import { readChatStream } from '../../../src/gateway/sse';
import { KEY, TEXT_MODEL, THINKING_MODEL, bytesOf, chat, collect, rejection, tinyServer } from './helpers';

const SSE = 'text/event-stream';

function chunk(fields: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ id: 'c1', model: 'served-model', ...fields })}\n\n`;
}
function delta(d: Record<string, unknown>, finish: string | null = null): string {
  return chunk({ choices: [{ index: 0, delta: d, finish_reason: finish }] });
}
const END = delta({}, 'stop') + 'data: [DONE]\n\n';

function read(body: AsyncIterable<Uint8Array>, model = THINKING_MODEL, contentType = SSE) {
  return collect(readChatStream(body, { model, contentType, secret: KEY }));
}

describe('gateway dialects from outside (recorded bytes)', () => {
  describe('a -thinking model that answers without think tags', () => {
    const answers = [
      'Plain answer without any reasoning.',
      '<section>\n  <h1>Title</h1>\n</section>',
      'export const App = () => <div className="x">hi</div>;',
      '<?xml version="1.0"?><this></this> and a stray </this> tag',
    ];
    for (const answer of answers) {
      it(`ends with the answer only, reasoning retracted: ${JSON.stringify(answer.slice(0, 24))}`, async () => {
        const pieces = answer.match(/[\s\S]{1,5}/g) ?? [];
        const got = await read(bytesOf(...pieces.map((p) => delta({ content: p })), END));
        assert.equal(got.error, undefined);
        assert.equal(got.text, answer);
        assert.equal(got.reasoning, '');
        assert.equal(got.events.filter((e) => e.type === 'retractReasoning').length, 1);
      });
    }

    it('the same in a whole JSON body', async () => {
      const answer = '<p>Hello</p>';
      const body = JSON.stringify({
        id: 'j1',
        choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
      });
      const got = await read(bytesOf(body), THINKING_MODEL, 'application/json');
      assert.equal(got.text, answer);
      assert.equal(got.reasoning, '');
    });
  });

  describe('a reasoning field that carries only opaque data', () => {
    const SECRET_BLOB = 'gAAAAABopaqueEncryptedReasoning0123456789==';
    const encrypted = {
      content: '',
      reasoning: null,
      reasoning_details: [
        { type: 'reasoning.encrypted', data: SECRET_BLOB, id: 'rs_1', format: 'x', index: 0 },
      ],
    };
    const answer = 'The answer, which is not reasoning.';

    for (const where of ['first', 'after some content']) {
      it(`content is the answer and the data never appears (${where})`, async () => {
        const body =
          where === 'first'
            ? [
                delta(encrypted),
                delta({ content: 'The answer, ' }),
                delta({ content: 'which is not reasoning.' }),
              ]
            : [
                delta({ content: 'The answer, ' }),
                delta(encrypted),
                delta({ content: 'which is not reasoning.' }),
              ];
        const got = await read(bytesOf(...body, END));
        assert.equal(got.error, undefined);
        assert.equal(got.text, answer);
        assert.equal(got.reasoning, '');
        assert.ok(!JSON.stringify(got.events).includes(SECRET_BLOB));
        // Known at once to be the answer: nothing more is streamed as presumed reasoning.
        assert.deepEqual(
          got.events.map((e) => e.type),
          where === 'first'
            ? ['text', 'text', 'finish']
            : ['reasoning', 'retractReasoning', 'text', 'text', 'finish'],
        );
      });
    }

    it('the same in a whole JSON body; a summary next to it is reasoning', async () => {
      const details = [
        { type: 'reasoning.summary', summary: 'Summarised why.' },
        { type: 'reasoning.encrypted', data: SECRET_BLOB, text: SECRET_BLOB },
      ];
      const message = { role: 'assistant', content: answer, reasoning: null, reasoning_details: details };
      const body = JSON.stringify({ id: 'j1', choices: [{ index: 0, message, finish_reason: 'stop' }] });
      const got = await read(bytesOf(body), THINKING_MODEL, 'application/json');
      assert.equal(got.text, answer);
      assert.equal(got.reasoning, 'Summarised why.');
      assert.ok(!JSON.stringify(got.events).includes(SECRET_BLOB));
    });
  });

  describe('an error sent as a flat object, without an error wrapper', () => {
    const MESSAGE = 'The model overloaded: KV cache is full';
    const shapes: Record<string, Record<string, unknown>> = {
      'vLLM (object: error)': {
        object: 'error',
        message: MESSAGE,
        type: 'InternalServerError',
        param: null,
        code: 500,
      },
      'message and type': { message: MESSAGE, type: 'server_error' },
      'message and code': { message: MESSAGE, code: 'upstream_failed' },
      'message and status': { message: MESSAGE, status: 503 },
    };
    for (const [name, shape] of Object.entries(shapes)) {
      it(`${name}: as the first event, followed by [DONE], is an error with the server's message`, async () => {
        const got = await read(bytesOf(`data: ${JSON.stringify(shape)}\n\n`, 'data: [DONE]\n\n'), TEXT_MODEL);
        assert.ok(got.error instanceof StreamError, String(got.error));
        assert.match(got.error.message, /KV cache is full/);
        assert.match(got.error.message, /instead of an answer/);
        assert.equal(got.text, '');
        assert.equal(got.finish, undefined);
      });

      it(`${name}: after some text, keeps the text and reports the error`, async () => {
        const body = [delta({ content: 'so far' }), `data: ${JSON.stringify(shape)}\n\n`, 'data: [DONE]\n\n'];
        const got = await read(bytesOf(...body), TEXT_MODEL);
        assert.ok(got.error instanceof StreamError, String(got.error));
        assert.match(got.error.message, /in the middle of the answer.*KV cache is full/);
        assert.equal(got.text, 'so far');
      });

      it(`${name}: as a whole JSON body (stream ignored) is the same error`, async () => {
        const got = await read(bytesOf(JSON.stringify(shape)), TEXT_MODEL, 'application/json');
        assert.ok(got.error instanceof StreamError, String(got.error));
        assert.match(got.error.message, /KV cache is full/);
      });
    }

    it('a non-streamed request answered 200 with a flat error rejects with the message', async () => {
      const server = await tinyServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(shapes['vLLM (object: error)']));
      });
      const client = createGatewayClient({ baseUrl: server.url, apiKey: KEY, retry: { maxRetries: 0 } });
      try {
        const error = await rejection(client.createChatCompletion(chat('hi')));
        assert.ok(error instanceof StreamError, String(error));
        assert.match(error.message, /KV cache is full/);
      } finally {
        await client.close();
        await server.close();
      }
    });

    it('a chunk with choices and stray message/code fields is still an answer', async () => {
      const body = chunk({ message: 'ok', code: 0, choices: [{ index: 0, delta: { content: 'Hi' } }] });
      const got = await read(bytesOf(body, END), TEXT_MODEL);
      assert.equal(got.error, undefined);
      assert.equal(got.text, 'Hi');
    });
  });
});
