/**
 * Cutting a long tool result to a token budget. Reads keep their head (the model asks for the next page),
 * command output keeps its tail (errors and summaries come last). The cut is marked, and the marker says
 * which lines are shown and how to get the rest, so the model never mistakes a part for the whole.
 */

/** Which end of a long result survives. */
export type KeepEnd = 'head' | 'tail';

/** What a cut kept, for the marker's wording. Lines are numbered from 1. */
export interface ResultCut {
  keep: KeepEnd;
  /** First and last line shown (inclusive); 0 and 0 when nothing at all fit. */
  firstLine: number;
  lastLine: number;
  totalLines: number;
  /** True when one line was too long and only part of it is shown (its start for a head, its end for a tail). */
  partialLine: boolean;
}

/** How to cut one result. */
export interface TruncateOptions {
  maxTokens: number;
  keep: KeepEnd;
  estimateTokens(text: string): number;
  /** The sentence telling the model how to get the rest (a tool knows its own arguments). */
  howToGetRest?(cut: ResultCut): string;
}

/** The text to send, and what was cut when it was. */
export interface TruncatedResult {
  text: string;
  cut?: ResultCut;
}

/** Returns `text` unchanged when it fits in `maxTokens`, else its head or tail with a marker, within the budget. */
export function truncateToolResult(text: string, options: TruncateOptions): TruncatedResult {
  const { maxTokens, keep, estimateTokens } = options;
  if (estimateTokens(text) <= maxTokens) return { text };
  const totalLines = countLines(text);
  const describe = (cut: ResultCut): string =>
    marker(cut, maxTokens, options.howToGetRest ?? defaultHowToGetRest);
  // Reserve room for the marker with the widest numbers it can show.
  const widest: ResultCut = {
    keep,
    firstLine: totalLines,
    lastLine: totalLines,
    totalLines,
    partialLine: true,
  };
  // One more token for the line break between the kept text and the marker.
  const budget = Math.max(0, maxTokens - estimateTokens(describe(widest)) - 1);
  const kept =
    keep === 'head' ? keepHead(text, budget, estimateTokens) : keepTail(text, budget, estimateTokens);
  const cut: ResultCut =
    kept.lines === 0 && !kept.partial
      ? { keep, firstLine: 0, lastLine: 0, totalLines, partialLine: false }
      : keep === 'head'
        ? {
            keep,
            firstLine: 1,
            lastLine: kept.lines + (kept.partial ? 1 : 0),
            totalLines,
            partialLine: kept.partial,
          }
        : {
            keep,
            firstLine: totalLines - kept.lines + (kept.partial ? 0 : 1),
            lastLine: totalLines,
            totalLines,
            partialLine: kept.partial,
          };
  if (keep === 'head') {
    const body = kept.text === '' || kept.text.endsWith('\n') ? kept.text : `${kept.text}\n`;
    return { text: `${body}${describe(cut)}`, cut };
  }
  return { text: `${describe(cut)}\n${kept.text}`, cut };
}

function defaultHowToGetRest(cut: ResultCut): string {
  return cut.keep === 'head'
    ? `To see more, call the tool again for a smaller part, starting after line ${cut.lastLine}.`
    : 'The earlier lines are omitted; narrow the command or filter its output to see them.';
}

function marker(cut: ResultCut, maxTokens: number, howToGetRest: (cut: ResultCut) => string): string {
  const over = `the result was over ${maxTokens} tokens`;
  const shown =
    cut.lastLine === 0
      ? 'nothing shown'
      : cut.partialLine
        ? `lines ${cut.firstLine}–${cut.lastLine} of ${cut.totalLines} shown, line ${cut.keep === 'head' ? cut.lastLine : cut.firstLine} only in part`
        : `lines ${cut.firstLine}–${cut.lastLine} of ${cut.totalLines} shown`;
  return `[Cut: ${over}; ${shown}. ${howToGetRest(cut)}]`;
}

/** Lines in the text: a final newline does not start another line; an empty text has none. */
function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

interface Kept {
  text: string;
  /** Whole lines kept. */
  lines: number;
  /** True when part of one more line was kept. */
  partial: boolean;
}

function keepHead(text: string, budget: number, estimate: (s: string) => number): Kept {
  let used = 0;
  let end = 0;
  let lines = 0;
  while (end < text.length) {
    const nl = text.indexOf('\n', end);
    const next = nl < 0 ? text.length : nl + 1;
    const cost = estimate(text.slice(end, next));
    if (used + cost > budget) {
      // A line longer than the rest of the budget: part of it is worth more than nothing when little is kept.
      if (used * 2 >= budget) break;
      const length = longestFitting(text.length - end, budget - used, (n) =>
        estimate(text.slice(end, end + n)),
      );
      const safe = length > 0 && isHighSurrogate(text.charCodeAt(end + length - 1)) ? length - 1 : length;
      if (safe <= 0) break;
      return { text: text.slice(0, end + safe), lines, partial: true };
    }
    used += cost;
    end = next;
    lines++;
  }
  return { text: text.slice(0, end), lines, partial: false };
}

function keepTail(text: string, budget: number, estimate: (s: string) => number): Kept {
  let used = 0;
  let start = text.length;
  let lines = 0;
  while (start > 0) {
    // The line ending at `start` begins after the previous newline (the one before its own final newline).
    const nl = text.lastIndexOf('\n', start - 2);
    const begin = nl < 0 ? 0 : nl + 1;
    const cost = estimate(text.slice(begin, start));
    if (used + cost > budget) {
      if (used * 2 >= budget) break;
      const length = longestFitting(start - begin, budget - used, (n) =>
        estimate(text.slice(start - n, start)),
      );
      const from = start - length;
      const safe = length > 0 && isLowSurrogate(text.charCodeAt(from)) ? from + 1 : from;
      if (safe >= start) break;
      return { text: text.slice(safe), lines, partial: true };
    }
    used += cost;
    start = begin;
    lines++;
  }
  return { text: text.slice(start), lines, partial: false };
}

/** The largest n in [0, max] with cost(n) ≤ budget, for a cost that grows with n (binary search). */
function longestFitting(max: number, budget: number, cost: (n: number) => number): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (cost(mid) <= budget) low = mid;
    else high = mid - 1;
  }
  return low;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
