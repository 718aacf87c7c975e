/**
 * Case 1a: our client against a bare undici request reading the same stream, interleaved in one run.
 * The emulator runs in its own process and streams a ~2,000-chunk answer with no pacing.
 */
import { Agent, request } from 'undici';
import { createGatewayClient } from '../../src/gateway';
import { EMULATOR_TEST_KEY, fixedAnswer } from '../gateway-emulator';
import { spawnEmulator } from './children';
import { type Row, fmtMs, fmtRatio, verdict } from './report';
import type { BenchSettings } from './settings';
import { interleave, median, medianRatio, now } from './stats';

const CASE = '1. Client overhead';
const KEY = EMULATOR_TEST_KEY;
const MODEL = 'alpha-sonnet-4-5-20250929';
/** The 20 KB Markdown answer, cut into chunks whose count the settings ask for. */
const PROMPT = 'Benchmark [[answer:long]]';

interface Timing {
  ttft: number;
  total: number;
  chars: number;
}

function chatBody(): string {
  return JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: PROMPT }], stream: true });
}

const CONTENT = Buffer.from('"content":"');
const QUOTE = 0x22;

/**
 * Whether a read holds the start of a non-empty `content` string: the bare reader's first token, found
 * with a byte search and no parsing. (Its first read can hold only the role event; stopping the clock
 * there would time the first byte, not the first token, and the figure would follow wherever the
 * server's writes happened to split.)
 */
function holdsText(chunk: Uint8Array): boolean {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  for (let at = bytes.indexOf(CONTENT); at !== -1; at = bytes.indexOf(CONTENT, at + 1)) {
    if (bytes[at + CONTENT.length] !== QUOTE) return true;
  }
  return false;
}

/**
 * How long each run waits before it starts. The emulator spends ~4 ms building a 2,000-chunk answer before
 * its first byte, and a request sent the moment the previous answer ended waited another 2-10 ms for the
 * emulator to finish up after that one: pairs then split into a slow first run and a fast second one,
 * and the per-pair ratios measured the order, not the clients.
 */
const REST_MS = 20;

function rested<T>(run: () => Promise<T>): () => Promise<T> {
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    return run();
  };
}

/** The code points of the answer per chunk, so the stream has about `chunks` text chunks. */
export function chunkSizeFor(chunks: number): number {
  return Math.max(1, Math.floor([...fixedAnswer('long')].length / chunks));
}

/** Measures TTFT and total time of our client and of a bare undici read, ABAB. */
export async function clientOverheadRows(settings: BenchSettings): Promise<Row[]> {
  const chunkSize = chunkSizeFor(settings.client.chunks);
  const emulator = await spawnEmulator({ chunkSize });
  const client = createGatewayClient({ baseUrl: emulator.info.url, apiKey: KEY, retry: { maxRetries: 0 } });
  const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  const url = `${emulator.info.url}/v1/chat/completions`;
  let events = 0;

  const ours = async (): Promise<Timing> => {
    const started = now();
    let ttft = 0;
    let chars = 0;
    events = 0;
    const stream = client.streamChatCompletion({
      model: MODEL,
      messages: [{ role: 'user', content: PROMPT }],
    });
    for await (const event of stream) {
      if (event.type !== 'text') continue;
      if (!chars) ttft = now() - started;
      chars += event.text.length;
      events++;
    }
    return { ttft, total: now() - started, chars };
  };

  const bare = async (): Promise<Timing> => {
    const started = now();
    let ttft = 0;
    let bytes = 0;
    const response = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        Authorization: `Bearer ${KEY}`,
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
      },
      body: chatBody(),
    });
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      if (!ttft && holdsText(chunk)) ttft = now() - started;
      bytes += chunk.length;
    }
    return { ttft, total: now() - started, chars: bytes };
  };

  try {
    const runs = await interleave(settings.client.rounds, settings.client.warmup, rested(ours), rested(bare));
    const expected = fixedAnswer('long').length;
    if (runs.ours.some((r) => r.chars !== expected))
      throw new Error('our client did not receive the whole answer');
    const pick = (key: 'ttft' | 'total'): Row => {
      const a = runs.ours.map((r) => r[key]);
      const b = runs.baseline.map((r) => r[key]);
      const ratio = medianRatio(a, b);
      return {
        case: CASE,
        figure: `${key === 'ttft' ? 'time to first token' : 'total time'}, ${events} chunks (median of ${a.length})`,
        ours: fmtMs(median(a)),
        baseline: `${fmtMs(median(b))} (bare undici)`,
        ratio: fmtRatio(ratio),
        budget: '≤ 1.05×',
        status: verdict(ratio <= 1.05),
        data: { ours: a, baseline: b, medianRatio: ratio, chunkSize, textChunks: events },
      };
    };
    return [pick('ttft'), pick('total')];
  } finally {
    await client.close();
    await agent.close();
    await emulator.stop();
  }
}
