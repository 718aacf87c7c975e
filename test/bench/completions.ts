/**
 * Case 7, inline completions, in plain Node: the real engine (src/complete) and the real gateway client
 * against the emulator on loopback. The editor's own part (reading the windows by offset from the
 * document) is reproduced with string slices of a 10,000-line text; the extension host is not used here.
 */
import { CompletionEngine, type CompletionQuery, contextChars } from '../../src/complete/engine';
import { buildHolePrompt } from '../../src/complete/prompt';
import { answerText } from '../../src/complete/stream';
import { createGatewayClient } from '../../src/gateway';
import type { ChatCompletionRequest } from '../../src/gateway/types';
import { EMULATOR_TEST_KEY, startEmulator } from '../gateway-emulator';
import { type Row, fmtMs, fmtRatio, verdict } from './report';
import type { BenchSettings } from './settings';
import { median } from './stats';
import { chatRequestsOf } from '../support/emulatorRequests';

const CASE = '9. Inline completions';
const MODEL = 'alpha-haiku-4-5-20251001';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function bigFile(): string {
  return Array.from(
    { length: 10_000 },
    (_, i) => `  const value${i} = compute(${i}, 'item-${i}'); // line ${i}`,
  ).join('\n');
}

function queryAt(text: string, offset: number, explicit: boolean): CompletionQuery {
  const chars = contextChars(4000);
  return {
    document: 'file:///bench/big.ts',
    fileName: 'big.ts',
    languageId: 'typescript',
    offset,
    before: text.slice(Math.max(0, offset - chars), offset),
    after: text.slice(offset, offset + chars),
    tabSize: 2,
    insertSpaces: true,
    eol: '\n',
    explicit,
  };
}

/** Runs the three figures of the issue that plain Node can measure. */
export async function completionRows(settings: BenchSettings): Promise<Row[]> {
  const emulator = await startEmulator({ port: 0, chunkSize: 8, chunkDelayMs: 2 });
  const client = createGatewayClient({
    baseUrl: emulator.url,
    apiKey: EMULATOR_TEST_KEY,
    retry: { maxRetries: 0 },
  });
  const chats = (): number => chatRequestsOf(emulator).length;
  let leftAt = 0;
  const stream = (request: ChatCompletionRequest, signal: AbortSignal): AsyncIterable<string> => {
    leftAt = performance.now();
    return answerText(client, request, signal);
  };
  const engineSettings = { model: MODEL, contextTokens: 4000, debounceMs: 300 };
  const engine = new CompletionEngine({ settings: () => engineSettings, stream });
  const rows: Row[] = [];
  try {
    // 1. Overhead on a 10,000-line file: provider call → request handed to the client, vs by hand.
    const text = bigFile();
    const rounds = settings.quick ? 15 : 60;
    const ours: number[] = [];
    const hand: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const offset = text.indexOf('\n', Math.floor(text.length / 2) + i * 97) + 3;
      const started = performance.now();
      await engine.provide(queryAt(text, offset, true), new AbortController().signal);
      ours.push(leftAt - started);
      const byHand = performance.now();
      const messages = buildHolePrompt({
        fileName: 'big.ts',
        languageId: 'typescript',
        before: text.slice(offset - 12_000, offset),
        after: text.slice(offset, offset + 4_000),
        contextTokens: 4000,
      }).messages;
      const handLeft = performance.now();
      for await (const _ of answerText(
        client,
        { model: MODEL, messages, max_tokens: 256 },
        new AbortController().signal,
      ))
        break;
      hand.push(handLeft - byHand);
    }
    const o = median(ours);
    const h = median(hand);
    rows.push({
      case: CASE,
      figure: 'overhead, call → request leaves (10,000 lines, median)',
      ours: fmtMs(o),
      baseline: `${fmtMs(h)} (by hand)`,
      ratio: fmtRatio(o / Math.max(h, 1e-6)),
      budget: '≤ 5 ms',
      status: verdict(o <= 5),
      note: 'plain Node, engine + real client; the extension host is not measured',
      data: { ours, hand },
    });

    // 2. Keystroke storm: 200 keystrokes 30 ms apart, then a pause.
    emulator.reset();
    let line = '\nconst storm = ';
    let previous: AbortController | undefined;
    const pending: Promise<unknown>[] = [];
    const base = text.length;
    for (let i = 0; i < 200; i++) {
      previous?.abort();
      previous = new AbortController();
      line += String.fromCharCode(97 + (i % 26));
      const doc = text + line;
      pending.push(engine.provide(queryAt(doc, base + line.length, false), previous.signal));
      await sleep(30);
    }
    await Promise.all(pending);
    await sleep(200);
    const storm = chatRequestsOf(emulator);
    const cancelledOpen = storm.filter((r) => !r.responseEnded && !r.clientClosed).length;
    rows.push({
      case: CASE,
      figure: 'keystroke storm: requests (200 keys, 30 ms apart)',
      ours: String(storm.length),
      baseline: '200 (one per key)',
      ratio: fmtRatio(storm.length / 200),
      budget: '≤ 2, cancelled ones closed',
      status: verdict(storm.length <= 2 && cancelledOpen === 0),
      data: { requests: storm.length, cancelledOpen },
    });

    // 3. Typing through a 5-line suggestion, character by character.
    emulator.reset();
    const doc = `${text}\nfunction host() {\n  \n}\n`;
    const at = doc.length - 3;
    const first = await engine.provide(queryAt(doc, at, true), new AbortController().signal);
    const suggestion = first.kind === 'suggestion' ? first.text : '';
    const before = chats();
    for (let i = 1; i <= suggestion.length; i++) {
      const typed = doc.slice(0, at) + suggestion.slice(0, i) + doc.slice(at);
      await engine.provide(queryAt(typed, at + i, false), new AbortController().signal);
    }
    const through = chats() - before;
    rows.push({
      case: CASE,
      figure: `typing through a ${suggestion.split('\n').length}-line suggestion: requests`,
      ours: String(through),
      baseline: `${suggestion.length} (one per key)`,
      ratio: fmtRatio(through / Math.max(1, suggestion.length)),
      budget: '0',
      status: verdict(through === 0 && suggestion.split('\n').length === 5),
      data: { chars: suggestion.length, requests: through },
    });
  } finally {
    await client.close();
    await emulator.close();
  }
  return rows;
}
