/**
 * Case 11: the agent's text-protocol parser over a 1 MB answer in 20,000 chunks (prose, code fences that quote
 * the call format, and call blocks whose arguments hold tags and line breaks). Per-chunk cost must stay flat:
 * the last 10% of the chunks at most 1.5× the first 10%, which a parser re-scanning its buffer would miss.
 */
import { formatCallBlock } from '../../src/agent/callFormat';
import { createTextCallParser } from '../../src/agent/textCallParser';
import { type Row, fmtBytes, fmtMs, fmtRatio, verdict } from './report';
import type { BenchSettings } from './settings';
import { median, medianRatio, now } from './stats';

const CASE = '11. Agent';
const ANSWER_CHARS = 1_000_000;
const CHUNKS = 20_000;
const WARMUP = 3;
const TOOL_NAMES = ['read_file', 'create_file', 'search_text'];

/** One repeating stretch of the answer, and the calls in it. */
function unit(i: number): { text: string; calls: number } {
  const content = `export const v${i} = a < b && c > d; // "</tool_call>" in a string\n`.repeat(25);
  const parts = [
    `Step ${i}: I read the file and compare a < b, then <b>note</b> the results.\n\n`,
    '```xml\n<tool_call>\n{"name": "read_file", "arguments": {"path": "quoted.ts"}}\n</tool_call>\n```\n',
    formatCallBlock('read_file', { path: `src/file${i}.ts`, startLine: 1, endLine: 120 }),
    '\nThen the new file:\n',
    formatCallBlock('create_file', { path: `src/new${i}.ts`, content }),
    `\nAnd inline \`<tool_call>\` stays text, 😀 𠜎 too.\n`,
  ];
  return { text: parts.join(''), calls: 2 };
}

/** The answer, cut into CHUNKS pieces of (nearly) equal length, and how many calls it holds. */
function answer(): { chunks: string[]; calls: number } {
  const parts: string[] = [];
  let length = 0;
  let calls = 0;
  for (let i = 0; length < ANSWER_CHARS; i++) {
    const u = unit(i);
    parts.push(u.text);
    length += u.text.length;
    calls += u.calls;
  }
  const text = parts.join('');
  const chunks = Array.from({ length: CHUNKS }, (_, k) =>
    text.slice(Math.floor((k * text.length) / CHUNKS), Math.floor(((k + 1) * text.length) / CHUNKS)),
  );
  return { chunks, calls };
}

/** The mean of the times without their slowest 1%: collector pauses land in either tenth at random. */
function meanWithoutPauses(times: Float64Array): number {
  const sorted = Float64Array.from(times).sort();
  const kept = sorted.subarray(0, Math.ceil(sorted.length * 0.99));
  return kept.reduce((total, t) => total + t, 0) / kept.length;
}

/** Parses the chunks once; returns the time per chunk of the first and the last tenth, and the total. */
function parseOnce(
  chunks: readonly string[],
  expectedCalls: number,
): { first: number; last: number; total: number } {
  const parser = createTextCallParser({ toolNames: TOOL_NAMES });
  const tenth = Math.floor(chunks.length / 10);
  const first = new Float64Array(tenth);
  const last = new Float64Array(tenth);
  let calls = 0;
  let total = 0;
  for (let i = 0; i < chunks.length; i++) {
    const started = now();
    const events = parser.push(chunks[i]);
    const ms = now() - started;
    total += ms;
    if (i < tenth) first[i] = ms;
    else if (i >= chunks.length - tenth) last[i - (chunks.length - tenth)] = ms;
    for (const event of events) {
      if (event.type === 'toolCall') calls++;
      else if (event.type === 'malformedCall') throw new Error(`malformed call: ${event.call.reason}`);
    }
  }
  parser.end();
  if (calls !== expectedCalls) throw new Error(`parsed ${calls} calls, expected ${expectedCalls}`);
  return { first: meanWithoutPauses(first), last: meanWithoutPauses(last), total };
}

/** Per-chunk times are a few microseconds. */
function fmtUs(ms: number): string {
  return `${(ms * 1000).toFixed(2)} µs`;
}

/** Runs case 11. */
export async function agentParserRows(settings: BenchSettings): Promise<Row[]> {
  const { chunks, calls } = answer();
  const bytes = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
  for (let i = 0; i < WARMUP; i++) parseOnce(chunks, calls);
  const runs = Array.from({ length: settings.agent.parserRounds }, () => parseOnce(chunks, calls));
  const ratio = medianRatio(
    runs.map((r) => r.last),
    runs.map((r) => r.first),
  );
  const total = median(runs.map((r) => r.total));
  return [
    {
      case: CASE,
      figure: `Text-protocol parser, ${fmtBytes(bytes)} answer in ${chunks.length} chunks (${calls} calls): time per chunk (slowest 1% aside), last 10% vs first 10% (median of ${runs.length} runs)`,
      ours: `${fmtUs(median(runs.map((r) => r.last)))} / chunk`,
      baseline: `${fmtUs(median(runs.map((r) => r.first)))} / chunk (first 10%)`,
      ratio: fmtRatio(ratio),
      budget: '≤ 1.5×',
      status: verdict(ratio <= 1.5),
      note: `whole answer parsed in ${fmtMs(total)}`,
      data: { runs, ratio, totalMs: total, chunks: chunks.length, bytes, calls },
    },
  ];
}
