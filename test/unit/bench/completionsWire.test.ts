import * as assert from 'node:assert/strict';
import { buildHolePrompt } from '../../../src/complete/prompt';
import { Agent } from '../../../src/gateway/undici';
import {
  BENCH_CONTEXT_TOKENS,
  BENCH_MODEL,
  completingWrite,
  holeContext,
  sendByHand,
  suggestionThrough,
  watchSentRequests,
  writeContent,
} from '../../bench/completionsWire';
import { EMULATOR_TEST_KEY, type Emulator, startEmulator } from '../../gateway-emulator';
import { expectedCompletion } from '../../gateway-emulator/completionAnswers';

const TEXT = 'function main() {\n  const a = 1;\n  \n}\n';
const OFFSET = TEXT.indexOf('\n  \n') + 3;

describe('bench case 9: the wire', () => {
  let emulator: Emulator;
  let agent: InstanceType<typeof Agent>;
  beforeEach(async () => {
    emulator = await startEmulator({ chunkSize: 8, recordWrites: true });
    agent = new Agent();
  });
  afterEach(async () => {
    await agent.close();
    await emulator.close();
  });

  it('reads the answer text of SSE writes, skipping [DONE] and comments', () => {
    const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`;
    assert.equal(writeContent(chunk('ab') + chunk('c')), 'abc');
    assert.equal(writeContent(': keep-alive\n\ndata: [DONE]\n\n'), '');
  });

  it('finds the write after which the suggestion is complete, and the request by hand leaves on the record', async () => {
    const watch = watchSentRequests();
    const hole = {
      fileName: 'main.ts',
      languageId: 'typescript',
      before: TEXT.slice(0, OFFSET),
      after: TEXT.slice(OFFSET),
    };
    try {
      const body = await sendByHand(
        agent,
        emulator.url,
        EMULATOR_TEST_KEY,
        hole,
        new AbortController().signal,
      );
      let text = '';
      for await (const chunk of body) text += chunk.toString('utf8');
      const [record] = emulator.requests;
      const writes = record.writes ?? [];
      assert.equal(writes.map((w) => w.text).join(''), text);
      // The request left once, before the emulator had read it.
      assert.equal(
        watch.sent.filter((s) => s.origin === emulator.url && s.path === '/v1/chat/completions').length,
        1,
      );
      assert.ok(watch.sent[0].at <= (record.bodyAt ?? 0));
      assert.deepEqual(
        (record.body as { messages: unknown }).messages,
        buildHolePrompt({ ...hole, contextTokens: BENCH_CONTEXT_TOKENS }).messages,
      );
      assert.equal((record.body as { model: string }).model, BENCH_MODEL);

      const ctx = holeContext(TEXT, OFFSET, { tabSize: 2, insertSpaces: true });
      const needed = completingWrite(writes, ctx);
      assert.ok(needed > 0 && needed < writes.length - 1, `needed write ${needed} of ${writes.length}`);
      const block = expectedCompletion({ language: 'typescript', before: TEXT.slice(0, OFFSET), after: '' });
      assert.equal(suggestionThrough(writes, needed, ctx), block);
      assert.equal(completingWrite(writes.slice(0, needed), ctx), -1, 'the writes before are not enough');
    } finally {
      watch.stop();
    }
  });

  it('says -1 while no write completes the suggestion', () => {
    const ctx = holeContext(TEXT, OFFSET, { tabSize: 2, insertSpaces: true });
    const partial = `data: ${JSON.stringify({ choices: [{ delta: { content: '```ts\nfunction f() {\n' } }] })}\n\n`;
    assert.equal(completingWrite([{ text: partial }], ctx), -1);
  });
});
