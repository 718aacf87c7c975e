/**
 * Applying a chat code block to a file, the pure part: which file the block names, whether it is the whole
 * new file (diffed directly) or a fragment (merged by a model), and whether a model's merge is safe to show.
 */
import { targetFromComment } from './blockTarget';
import { diffSegments, splitLines, type Segment } from './diff';

export { blockTarget, targetFromComment, targetFromInfo } from './blockTarget';

/**
 * Lines that stand for code a block leaves out ("// ... existing code ...", "# rest unchanged", "…"):
 * such a block is a fragment, and a merged file must not keep them.
 */
const LAZY_LINE =
  /^\s*(?:\/\/|#|--|\/\*|<!--|;|\*)?\s*(?:(?:\.{3}|…)\s*$|(?:\.{3}|…).*\b(?:existing|rest|unchanged|same|remaining|other|previous|more)\b|.*\b(?:existing code|rest of (?:the )?(?:file|code|class|function)|(?:code|file|remains?) unchanged)\b)/i;

/** The block without a first comment line that only names the file, unless the file starts with it too. */
export function withoutNameComment(code: string, fileText: string): string {
  if (targetFromComment(code) === undefined) return code;
  const lines = splitLines(code);
  const index = lines.findIndex((line) => line.trim() !== '');
  const fileFirst = splitLines(fileText).find((line) => line.trim() !== '');
  if (fileFirst?.trim() === lines[index].trim()) return code;
  return lines.slice(index + 1).join('');
}

/** True when a line of the block stands for code left out. */
export function isLazyLine(line: string): boolean {
  return LAZY_LINE.test(line);
}

function nonBlank(text: string): string[] {
  return splitLines(text)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** How much longer or shorter than the file a block may be and still be read as the whole new file. */
const WHOLE_FILE_RATIO = 1.5;

/**
 * True when the block is clearly the whole new file: no line standing for left-out code, the same first and
 * last non-blank lines as the file, and a similar length (within 1.5× either way). An empty file takes any block.
 */
export function isWholeFile(fileText: string, block: string): boolean {
  const file = nonBlank(fileText);
  const code = nonBlank(block);
  if (code.length === 0) return false;
  if (splitLines(block).some(isLazyLine)) return false;
  if (file.length === 0) return true;
  const ratio = code.length / file.length;
  if (ratio > WHOLE_FILE_RATIO || ratio < 1 / WHOLE_FILE_RATIO) return false;
  return code[0] === file[0] && code[code.length - 1] === file[file.length - 1];
}

/** Where a quoted selection still is in the file, as offsets; the quoted line first, else a unique match. */
export function findQuote(
  fileText: string,
  quote: string,
  startLine: number,
): { offset: number; length: number } | undefined {
  if (!quote.trim()) return undefined;
  const lines = splitLines(fileText);
  const atLine = lines.slice(0, Math.max(0, startLine - 1)).join('').length;
  if (fileText.startsWith(quote, atLine)) return { offset: atLine, length: quote.length };
  const first = fileText.indexOf(quote);
  if (first < 0 || fileText.indexOf(quote, first + 1) >= 0) return undefined;
  return { offset: first, length: quote.length };
}

/** Unchanged lines between two hunks up to which they count as one region of the change. */
const REGION_GAP = 3;
/** More removed non-blank lines than this, in a region that adds nothing, is a large unrelated drop. */
const MAX_UNRELATED_DROP = 12;
/** A file of at least this many non-blank lines must keep half of them through a merge. */
const MIN_LINES_FOR_HALF_RULE = 24;

/** Whether a merged file may be shown for review, and if not, why. */
export type MergeCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a model's merge of a block into a file before it is shown. It is refused when it is empty, keeps a
 * line standing for left-out code that the file did not have, removes more than 12 non-blank lines in a
 * region where it adds nothing (code the block never touched), or, in a file of 24 or more non-blank lines,
 * keeps fewer than half of them.
 */
export function checkMerge(
  fileText: string,
  merged: string,
  /** The diff of the two, when already known (a full diff of a large scattered rewrite is slow). */
  segments: readonly Segment[] = diffSegments(fileText, merged),
): MergeCheck {
  if (!merged.trim()) return { ok: false, reason: 'the merged file is empty' };
  const fileLines = new Set(nonBlank(fileText));
  const placeholder = splitLines(merged).find((l) => isLazyLine(l) && !fileLines.has(l.trim()));
  if (placeholder) {
    return { ok: false, reason: `it keeps a placeholder for left-out code: "${placeholder.trim()}"` };
  }
  let line = 1;
  let region: { from: number; to: number; removed: number; added: number } | undefined;
  const regions: Array<NonNullable<typeof region>> = [];
  for (const segment of segments) {
    if (segment.kind === 'same') {
      const count = splitLines(segment.text).length;
      if (region && count > REGION_GAP) region = undefined;
      line += count;
      continue;
    }
    const oldCount = splitLines(segment.oldText).length;
    if (!region) {
      region = { from: line, to: line, removed: 0, added: 0 };
      regions.push(region);
    }
    region.to = line + oldCount - 1;
    region.removed += nonBlank(segment.oldText).length;
    region.added += nonBlank(segment.newText).length;
    line += oldCount;
  }
  const dropped = regions.find((r) => r.added === 0 && r.removed > MAX_UNRELATED_DROP);
  if (dropped) {
    return {
      ok: false,
      reason: `it removes lines ${dropped.from}–${dropped.to} of the file, which the code block does not replace`,
    };
  }
  const before = nonBlank(fileText).length;
  const after = nonBlank(merged).length;
  if (before >= MIN_LINES_FOR_HALF_RULE && after * 2 < before) {
    return { ok: false, reason: `it keeps only ${after} of the file's ${before} non-blank lines` };
  }
  return { ok: true };
}

/** The merged text with the file's final newline, or lack of one; models drop or add it at will. */
export function matchFinalNewline(fileText: string, merged: string): string {
  const eol = /\r\n$/.test(fileText) ? '\r\n' : '\n';
  const trimmed = merged.replace(/(?:\r?\n)+$/, '');
  return fileText.endsWith('\n') ? trimmed + eol : trimmed;
}
