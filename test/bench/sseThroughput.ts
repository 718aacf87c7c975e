/**
 * Case 1b: SSE decoding throughput over the same recorded bytes: our parser (eventsource-parser, JSON,
 * the dialect assembler) against the `openai` package's Stream (its SSE decoder and JSON.parse).
 */
import { Stream } from 'openai/streaming';
import { request } from 'undici';
import { readChatStream } from '../../src/gateway/sse';
import { EMULATOR_TEST_KEY } from '../gateway-emulator/keys';
import { spawnEmulator } from './children';
import { chunkSizeFor } from './clientOverhead';
import { type Row, fmtBytes, fmtRatio, verdict } from './report';
import type { BenchSettings } from './settings';
import { interleave, median, medianRatio, now } from './stats';

const CASE = '1. Client overhead';
const MODEL = 'alpha-sonnet-4-5-20250929';
/** Each measured pass decodes the recording this many times, so one pass lasts tens of milliseconds. */
const PASSES = 20;

interface ChunkShape {
  choices?: Array<{ delta?: { content?: string } }>;
}

/** Records the raw body of one streamed answer, chunk by chunk as the socket delivered it. */
async function record(url: string): Promise<Uint8Array[]> {
  const response = await request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${EMULATOR_TEST_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      model: MODEL,
      messages: [{ role: 'user', content: 'Benchmark [[answer:long]]' }],
      stream: true,
    }),
  });
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) chunks.push(new Uint8Array(chunk));
  return chunks;
}

/** Re-cuts the recording into pieces of `size` bytes: socket reads rarely align with events. */
function recut(chunks: Uint8Array[], size: number): Uint8Array[] {
  const all = Buffer.concat(chunks);
  const out: Uint8Array[] = [];
  for (let at = 0; at < all.length; at += size) out.push(all.subarray(at, at + size));
  return out;
}

async function* replay(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

function responseOf(chunks: readonly Uint8Array[]): Response {
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

async function oursOnce(chunks: readonly Uint8Array[]): Promise<number> {
  let chars = 0;
  const options = { model: MODEL, contentType: 'text/event-stream; charset=utf-8' };
  for await (const event of readChatStream(replay(chunks), options))
    if (event.type === 'text') chars += event.text.length;
  return chars;
}

async function openaiOnce(chunks: readonly Uint8Array[]): Promise<number> {
  let chars = 0;
  const stream = Stream.fromSSEResponse<ChunkShape>(responseOf(chunks), new AbortController());
  for await (const chunk of stream) chars += chunk.choices?.[0]?.delta?.content?.length ?? 0;
  return chars;
}

/** Decodes the recording PASSES times and returns MB/s. */
async function throughput(decode: () => Promise<number>, bytes: number, expected: number): Promise<number> {
  const started = now();
  for (let i = 0; i < PASSES; i++) {
    const chars = await decode();
    if (chars !== expected) throw new Error(`decoder returned ${chars} characters, expected ${expected}`);
  }
  return (bytes * PASSES) / 1e6 / ((now() - started) / 1000);
}

/** Our SSE parser against openai's, over the same recorded bytes, in socket-sized and 1 KB pieces. */
export async function sseThroughputRows(settings: BenchSettings): Promise<Row[]> {
  const chunkSize = chunkSizeFor(settings.client.chunks);
  const emulator = await spawnEmulator({ chunkSize });
  let recorded: Uint8Array[];
  try {
    recorded = await record(emulator.info.url);
  } finally {
    await emulator.stop();
  }
  const bytes = recorded.reduce((n, c) => n + c.length, 0);
  const expected = await oursOnce(recorded);
  const rows: Row[] = [];
  for (const [label, chunks] of [
    ['as received', recorded],
    ['in 1 KB pieces', recut(recorded, 1024)],
  ] as const) {
    const runs = await interleave(
      settings.client.sseRounds,
      2,
      () => throughput(() => oursOnce(chunks), bytes, expected),
      () => throughput(() => openaiOnce(chunks), bytes, expected),
    );
    // Throughput: higher is better, so the ratio is ours/openai and the budget is a floor.
    const ratio = medianRatio(runs.ours, runs.baseline);
    rows.push({
      case: CASE,
      figure: `SSE decoding, ${fmtBytes(bytes)} stream ${label} (${chunks.length} reads)`,
      ours: `${median(runs.ours).toFixed(1)} MB/s`,
      baseline: `${median(runs.baseline).toFixed(1)} MB/s (openai Stream)`,
      ratio: fmtRatio(ratio),
      budget: '≥ 1.0× as fast',
      status: verdict(ratio >= 1.0),
      data: {
        oursMBps: runs.ours,
        openaiMBps: runs.baseline,
        bytes,
        reads: chunks.length,
        medianRatio: ratio,
      },
    });
  }
  return rows;
}
