/**
 * `edit_file`'s semantics: exact-match replacement, nothing fuzzy. Each edit's `oldText` must occur exactly
 * once in the text the earlier edits left; otherwise the edit is refused with the reason and a hint the model
 * can act on (how many matches and where, or the nearest line), so it retries with more context.
 *
 * Line endings: models write `\n`. In a file whose lines end in `\r\n`, an `oldText` written with `\n` matches
 * the `\r\n` text, and its `newText` is written with `\r\n`, so the file keeps its line endings (and the same
 * the other way round). A file of mixed endings also matches an `oldText` exactly as written.
 *
 * An empty `oldText` is refused, except on an empty file, where it stands for the whole (empty) text: that
 * lets the model fill a file that exists but is empty.
 */
import { diffLineArrays, splitLines } from '../review/diff';

/** One replacement of `edit_file`. */
export interface ExactEdit {
  oldText: string;
  newText: string;
}

/** The edited text, or why an edit was refused (then nothing is applied). */
export type EditOutcome =
  | { ok: true; text: string }
  | {
      ok: false;
      /** Index of the refused edit in the list. */
      editIndex: number;
      reason: 'notFound' | 'notUnique' | 'empty';
      /** Times `oldText` occurs (0 when not found). */
      matches: number;
      /** For the model: which edit, why, and a hint. */
      message: string;
    };

/** At most this many match positions are named in a "not unique" message. */
const LISTED_MATCHES = 8;

/** Applies the edits in order, each to the text the previous ones left; all or nothing. */
export function applyExactEdits(text: string, edits: readonly ExactEdit[]): EditOutcome {
  let current = text;
  for (let i = 0; i < edits.length; i++) {
    const { oldText, newText } = edits[i];
    const which = edits.length > 1 ? `Edit ${i + 1} of ${edits.length}` : 'The edit';
    if (oldText === '') {
      if (current === '') {
        current = newText;
        continue;
      }
      const message = `${which}: oldText is empty. Give the exact text to replace, copied from the file (an empty oldText is accepted only for an empty file).`;
      return { ok: false, editIndex: i, reason: 'empty', matches: 0, message };
    }
    const eol = lineEnding(current);
    const matched = matchOf(current, oldText, eol);
    if (matched.positions.length === 1) {
      const at = matched.positions[0];
      const replacement = matched.normalized ? withEol(newText, eol) : newText;
      current = current.slice(0, at) + replacement + current.slice(at + matched.needle.length);
      continue;
    }
    if (matched.positions.length === 0) {
      const earlier =
        i > 0 ? ' (edits apply in order: the earlier edits of this call were already applied)' : '';
      const message = `${which}: oldText was not found in the file${earlier}. ${notFoundHint(current, oldText)}`;
      return { ok: false, editIndex: i, reason: 'notFound', matches: 0, message };
    }
    const count = matched.total;
    const lines = lineNumbers(current, matched.positions.slice(0, LISTED_MATCHES));
    const more = count > lines.length ? ', …' : '';
    const message = `${which}: oldText occurs ${count} times (at lines ${lines.join(', ')}${more}). Include more of the surrounding lines so that it matches exactly once.`;
    return { ok: false, editIndex: i, reason: 'notUnique', matches: count, message };
  }
  return { ok: true, text: current };
}

/** Lines added and removed between two texts, for a row such as "Edited src/a.ts +12 −3". */
export function lineStats(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const segment of diffLineArrays(splitLines(before), splitLines(after))) {
    if (segment.kind !== 'change') continue;
    added += splitLines(segment.newText).length;
    removed += splitLines(segment.oldText).length;
  }
  return { added, removed };
}

/** The file's line ending: `\r\n` when most of its line breaks are, else `\n`. */
function lineEnding(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

function withEol(text: string, eol: '\n' | '\r\n'): string {
  return eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text.replace(/\r\n/g, '\n');
}

interface Match {
  needle: string;
  /** True when the needle is `oldText` with the file's line endings (newText then gets them too). */
  normalized: boolean;
  /** Where it matches (the first few), and how many times in all. */
  positions: number[];
  total: number;
}

/** Matches of `oldText` with the file's line endings, else of `oldText` as written. */
function matchOf(text: string, oldText: string, eol: '\n' | '\r\n'): Match {
  const normalized = withEol(oldText, eol);
  const found = find(text, normalized);
  if (found.total > 0 || normalized === oldText) return { needle: normalized, normalized: true, ...found };
  return { needle: oldText, normalized: false, ...find(text, oldText) };
}

/** Positions of `needle` (overlapping ones too: they make the edit ambiguous), never splitting a surrogate pair. */
function find(text: string, needle: string): { positions: number[]; total: number } {
  const positions: number[] = [];
  let total = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (splitsPair(text, at) || splitsPair(text, at + needle.length)) continue;
    total++;
    if (positions.length < LISTED_MATCHES) positions.push(at);
  }
  return { positions, total };
}

/** True when `index` falls between the two halves of a surrogate pair. */
function splitsPair(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** 1-based line numbers of ascending positions. */
function lineNumbers(text: string, positions: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const at of positions) {
    for (let nl = text.indexOf('\n', from); nl >= 0 && nl < at; nl = text.indexOf('\n', nl + 1)) {
      line++;
      from = nl + 1;
    }
    lines.push(line);
  }
  return lines;
}

/** Where the model's `oldText` departs from the file: its lines matched so far, or the nearest line. */
function notFoundHint(text: string, oldText: string): string {
  const oldLines = oldText.split(/\r?\n/);
  const start = oldLines.findIndex((l) => l.trim() !== '');
  if (start < 0) return 'oldText is only whitespace: give the exact text to replace.';
  const wanted = oldLines.slice(start);
  const fileLines = text.split(/\r?\n/);
  let best: { line: number; exact: number; loose: number } | undefined;
  for (let j = 0; j < fileLines.length; j++) {
    if (fileLines[j].trim() !== wanted[0].trim()) continue;
    const exact = run(wanted, fileLines, j, (a, b) => a === b);
    const loose = run(wanted, fileLines, j, (a, b) => a.trim() === b.trim());
    if (!best || loose > best.loose || (loose === best.loose && exact > best.exact))
      best = { line: j, exact, loose };
  }
  if (best && best.loose === wanted.length)
    return `It matches at line ${best.line + 1} when whitespace is ignored: copy the indentation and spaces exactly as the file has them (line ${best.line + 1 + best.exact} reads ${quote(fileLines[best.line + best.exact] ?? '')}).`;
  if (best) {
    const differs = best.line + best.loose;
    const matched =
      best.loose === 1
        ? `Its first line matches line ${best.line + 1}`
        : `Its first ${best.loose} lines match from line ${best.line + 1}`;
    return `${matched}, but the next one differs: the file's line ${differs + 1} reads ${quote(fileLines[differs] ?? '')}. Read the file again and copy the text exactly.`;
  }
  const near = nearestLine(fileLines, wanted[0]);
  if (near)
    return `Its first line is not in the file; the closest line is ${near + 1}: ${quote(fileLines[near])}. Read the file again and copy the text exactly.`;
  return 'No line of the file resembles its first line: read the file again to get its current text.';
}

/** How many of `wanted` match the file's lines from `j` on, in a row. */
function run(
  wanted: string[],
  fileLines: string[],
  j: number,
  same: (a: string, b: string) => boolean,
): number {
  let n = 0;
  while (n < wanted.length && j + n < fileLines.length && same(wanted[n], fileLines[j + n])) n++;
  return n;
}

/** The file line most like `line` by shared character pairs (Dice coefficient over 0.5), if any. */
function nearestLine(fileLines: string[], line: string): number | undefined {
  const target = bigrams(line.trim());
  if (target.size === 0) return undefined;
  let best: number | undefined;
  let bestScore = 0.5;
  for (let j = 0; j < fileLines.length; j++) {
    const trimmed = fileLines[j].trim();
    if (trimmed.length < 2) continue;
    const pairs = bigrams(trimmed);
    let shared = 0;
    for (const p of pairs) if (target.has(p)) shared++;
    const score = (2 * shared) / (pairs.size + target.size);
    if (score > bestScore) {
      bestScore = score;
      best = j;
    }
  }
  return best;
}

function bigrams(text: string): Set<string> {
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < text.length; i++) pairs.add(text.slice(i, i + 2));
  return pairs;
}

function quote(line: string): string {
  const chars = [...line];
  const shown = chars.length > 120 ? `${chars.slice(0, 120).join('')}…` : line;
  return JSON.stringify(shown);
}
