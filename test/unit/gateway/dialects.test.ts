// Dialects met when testing from outside (issue 15): streams recorded in the shapes real servers send.
import * as assert from 'node:assert/strict';
import { readChatStream } from '../../../src/gateway/sse';
import { KEY, THINKING_MODEL, bytesOf, collect } from './helpers';

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
});
