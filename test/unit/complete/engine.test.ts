import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import type { GatewayClient } from '../../../src/gateway/types';
import { type CompletionQuery, CompletionEngine, type EngineSettings } from '../../../src/complete/engine';
import { HOLE_MARKER } from '../../../src/complete/prompt';
import { answerText } from '../../../src/complete/stream';
import { type Emulator, startEmulator } from '../../gateway-emulator';
import { EMULATOR_HOLE_MARKER, expectedCompletion } from '../../gateway-emulator/completionAnswers';
import { chatRequestsOf } from '../../support/emulatorRequests';
import { sleep } from '../../support/poll';

const chatRequests = (e: Emulator) => chatRequestsOf(e);

function query(before: string, after = '\n}\n', more: Partial<CompletionQuery> = {}): CompletionQuery {
  return {
    document: 'file:///w/a.ts',
    fileName: 'a.ts',
    languageId: 'typescript',
    offset: before.length,
    before,
    after,
    tabSize: 4,
    insertSpaces: true,
    eol: '\n',
    explicit: false,
    ...more,
  };
}

describe('complete/engine against the emulator', function () {
  let emulator: Emulator;
  let client: GatewayClient;
  let settings: EngineSettings;
  let failures: unknown[];
  let engine: CompletionEngine;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0, chunkSize: 4, chunkDelayMs: 5, keys: ['sk-unit-complete'] });
    client = createGatewayClient({
      baseUrl: emulator.url,
      apiKey: 'sk-unit-complete',
      retry: { maxRetries: 0 },
    });
    settings = { model: 'alpha-haiku-4-5-20251001', contextTokens: 4000, debounceMs: 20 };
    failures = [];
    engine = new CompletionEngine({
      settings: () => settings,
      stream: (request, signal) => answerText(client, request, signal),
      onFailure: (e) => failures.push(e),
    });
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('uses the same hole marker as the emulator', () => {
    assert.equal(HOLE_MARKER, EMULATOR_HOLE_MARKER);
  });

  it('shows the clean suggestion, and stops reading once it is complete', async () => {
    const before = 'function main() {\n  ';
    const result = await engine.provide(query(before), new AbortController().signal);
    const expected = expectedCompletion({ language: 'typescript', before, after: '\n}\n' });
    assert.deepEqual(result, { kind: 'suggestion', text: expected, source: 'gateway' });
    assert.equal(expected.split('\n').length, 5);
    await emulator.waitFor((r) => r.length === 1 && r[0].responseEnded !== undefined);
    const [sent] = chatRequests(emulator);
    const body = sent.body as { model: string; messages: Array<{ content: string }> };
    assert.equal(body.model, 'alpha-haiku-4-5-20251001');
    assert.ok(body.messages[1].content.includes(`${before}${HOLE_MARKER}`));
    // The prose after the closing fence was never needed: the client closed the stream before it ended.
    await emulator.waitFor((r) => r[0].clientClosed || r[0].responseEnded);
    assert.equal(sent.clientClosed, true);
  });

  it('serves typing through and coming back from the cache, without a request', async () => {
    const before = 'function main() {\n  ';
    const first = await engine.provide(query(before), new AbortController().signal);
    assert.equal(first.kind, 'suggestion');
    const text = first.kind === 'suggestion' ? first.text : '';
    for (let i = 1; i <= text.length; i++) {
      const typed = before + text.slice(0, i);
      const next = await engine.provide(query(typed), new AbortController().signal);
      if (i < text.length)
        assert.deepEqual(next, { kind: 'suggestion', text: text.slice(i), source: 'cache' });
    }
    const back = await engine.provide(query(before), new AbortController().signal);
    assert.equal(back.kind === 'suggestion' && back.source, 'cache');
    assert.equal(chatRequests(emulator).length, 1);
    assert.equal(engine.stats.cacheHits, text.length + 1);
  });

  it('in a keystroke storm, sends at most one request per pause and closes every cancelled one', async () => {
    settings.debounceMs = 40;
    let text = 'const value = ';
    let previous: AbortController | undefined;
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      previous?.abort();
      previous = new AbortController();
      text += String.fromCharCode(97 + (i % 26));
      pending.push(engine.provide(query(text, ''), previous.signal));
      await sleep(10);
    }
    const last = await pending[pending.length - 1];
    await Promise.all(pending);
    assert.equal(chatRequests(emulator).length, 1);
    assert.equal((last as { kind: string }).kind, 'suggestion');
  });

  it('a keystroke during a request aborts it on the wire', async () => {
    const before = 'const slow = 1; // [[fault:slow-first-byte:3000]]\nlet x = ';
    const controller = new AbortController();
    const pending = engine.provide(query(before, ''), controller.signal);
    await emulator.waitFor((r) => r.length === 1);
    controller.abort();
    assert.deepEqual(await pending, { kind: 'none', reason: 'cancelled' });
    await emulator.waitFor((r) => r[0].clientClosed, 2000);
    assert.equal(failures.length, 0, 'a cancelled request is no failure');
  });

  it('explicit trigger skips the pause; failures are reported, not thrown', async () => {
    settings.debounceMs = 5000;
    const started = Date.now();
    const q = query('let y = ', '', { explicit: true, before: 'let y = // [[fault:status:401]]\nlet y = ' });
    const result = await engine.provide(q, new AbortController().signal);
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(result, { kind: 'none', reason: 'failed' });
    assert.equal(failures.length, 1);
    assert.equal((failures[0] as { status?: number }).status, 401);
  });
});
