/** Cutting attached text to a token budget, at whole lines. */
import { codePointQuarterTokens } from '../tokens';

/** The result of `truncateToTokens`: the text kept and, when it was cut, how many lines. */
export interface TruncateResult {
  text: string;
  truncated?: { keptLines: number; totalLines: number };
}

/**
 * Keeps whole lines from the start of `text` while `estimateTokens` of the kept text stays within
 * `maxTokens`; the text is returned unchanged when it fits. One pass over the text, counting tokens
 * exactly as `estimateTokens` does. `\r\n`, `\n` and a lone `\r` each end a line, and a line break at
 * the very end does not start another line (a file of 3 lines ending in a newline has 3 lines).
 * The kept text ends without the last kept line's line break. When even the first line is over the
 * budget, nothing is kept (`keptLines` 0): the block then says that the whole file was left out.
 */
export function truncateToTokens(text: string, maxTokens: number): TruncateResult {
  const budget = Number.isNaN(maxTokens) ? 0 : Math.max(0, maxTokens) * 4;
  let quarters = 0;
  let keptLines = 0;
  let keptEnd = 0;
  let lines = 0;
  let overBudget = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      // End of a line: keep it if everything up to here fits.
      lines++;
      if (!overBudget) {
        if (quarters <= budget) {
          keptLines = lines;
          keptEnd = i;
        } else overBudget = true;
      }
      const width = c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      quarters += width;
      i += width;
      continue;
    }
    if (!overBudget) {
      let cp = c;
      let width = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          width = 2;
        }
      }
      quarters += codePointQuarterTokens(cp);
      i += width;
    } else i++;
  }
  if (quarters <= budget) return { text };
  const last = text.charCodeAt(n - 1);
  const endsWithBreak = last === 10 || last === 13;
  // The last line has no break after it, so the loop has not counted it.
  if (!endsWithBreak) lines++;
  // Every line fits and only the final line break is over: drop the break, no line is missing.
  if (endsWithBreak && !overBudget) return { text: text.slice(0, keptEnd) };
  return { text: text.slice(0, keptEnd), truncated: { keptLines, totalLines: lines } };
}
