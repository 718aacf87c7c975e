/**
 * Turns a model's answer to a hole prompt into the text shown as ghost text. Model output is
 * untrusted and chat models are chatty: fences, prose and repeats of the code around the hole are
 * removed, and the suggestion is cut at a sensible end.
 */
import { HOLE_MARKER, toLf } from './prompt';
import { cutSuggestion, isBlank } from './cut';
import { reindent, widthOf } from './indent';

/** The code around the hole and the editor's settings, as the post-processing needs them. */
export interface HoleContext {
  /** Text before the cursor, '\n' line breaks. */
  before: string;
  /** Text after the cursor, '\n' line breaks. */
  after: string;
  tabSize: number;
  insertSpaces: boolean;
  /** The document's line break, used in the result. */
  eol: '\n' | '\r\n';
}

/** The suggestion and whether the answer is known to be complete (the rest of the stream is not needed). */
export interface Suggestion {
  text: string;
  complete: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const PROSE_OPENER =
  /^(here('s| is| are)|sure\b|certainly\b|of course\b|the (code|completion|missing code|inserted code)\b|below\b|i('ve| have| will| would)\b)/i;

/** The text of the line the cursor is on, before and after the cursor. */
export function cursorLine(ctx: Pick<HoleContext, 'before' | 'after'>): { prefix: string; suffix: string } {
  const nl = ctx.after.indexOf('\n');
  return {
    prefix: ctx.before.slice(ctx.before.lastIndexOf('\n') + 1),
    suffix: nl < 0 ? ctx.after : ctx.after.slice(0, nl),
  };
}

/** Removes fences and the prose around them; `closed` tells that the answer's code block has ended. */
export function stripFences(answer: string): { text: string; closed: boolean } {
  const lines = answer.split('\n');
  const open = lines.findIndex((l) => FENCE.test(l));
  if (open < 0) {
    // No fence: a first line of prose ("Here is the code:") is dropped once a code line follows it.
    if (lines.length > 1 && PROSE_OPENER.test(lines[0].trim())) lines.shift();
    return { text: lines.join('\n'), closed: false };
  }
  const marks = (FENCE.exec(lines[open]) as RegExpExecArray)[1];
  const body: string[] = [];
  for (let i = open + 1; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i]);
    if (
      fence &&
      fence[1][0] === marks[0] &&
      fence[1].length >= marks.length &&
      !lines[i].slice(fence[0].length).trim()
    )
      return { text: body.join('\n'), closed: true };
    body.push(lines[i]);
  }
  // An opening fence whose line may still be arriving: nothing of the body is known yet.
  if (open === lines.length - 1) return { text: '', closed: false };
  return { text: body.join('\n'), closed: false };
}

/**
 * Removes a repeat of the code before the cursor from the start of the suggestion. Only a repeat that
 * starts at the beginning of a line (its indentation aside) counts, so a suggestion that merely starts
 * with the same character as the code before it is kept.
 */
export function removeLeadingOverlap(text: string, before: string): string {
  const trimmed = text.replace(/^[ \t]+/, '');
  let best = 0;
  let lineStart = before.length;
  for (let lines = 0; lines < 20 && lineStart > 0; lines++) {
    lineStart = before.lastIndexOf('\n', lineStart - 1) + 1;
    const repeated = before.slice(lineStart).replace(/^[ \t]+/, '');
    if (repeated.trim() && trimmed.startsWith(repeated)) best = Math.max(best, repeated.length);
    if (lineStart === 0) break;
    lineStart -= 1;
  }
  return best > 0 ? trimmed.slice(best) : text;
}

function bracketBalance(text: string): number {
  let depth = 0;
  for (const c of text) {
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
  }
  return depth;
}

/**
 * Removes from the end of the suggestion a repeat of the code after the cursor: on the cursor's line, the
 * start of the rest of the line (a bracket only when dropping it balances the line); on later lines,
 * whole lines equal to the next lines of the file.
 */
export function removeTrailingOverlap(text: string, after: string, linePrefix: string): string {
  const lineSuffix = after.slice(0, after.indexOf('\n') < 0 ? after.length : after.indexOf('\n'));
  if (!text.includes('\n')) {
    for (let k = Math.min(text.length, lineSuffix.length); k > 0; k--) {
      const repeated = lineSuffix.slice(0, k);
      if (!repeated.trim() || !text.endsWith(repeated)) continue;
      const kept = text.slice(0, text.length - k);
      const whole = (s: string): number => Math.abs(bracketBalance(linePrefix + s + lineSuffix));
      if (/[()[\]{}]/.test(repeated) && whole(kept) >= whole(text)) continue;
      return kept;
    }
    return text;
  }
  const lines = text.split('\n');
  const next = after
    .split('\n')
    .slice(lineSuffix.trim() ? 0 : 1)
    .filter((l) => l.trim())
    .map((l) => l.trimEnd());
  // Lines compare with their indentation: a block's own closing brace is not the enclosing one's.
  for (let k = Math.min(lines.length - 1, next.length); k > 0; k--) {
    const tail = lines.slice(lines.length - k).map((l) => l.trimEnd());
    if (tail.every((l, i) => l === next[i])) return lines.slice(0, lines.length - k).join('\n');
  }
  return text;
}

/**
 * The suggestion for `answer` (the model's text so far) at the hole described by `ctx`. Multi-line
 * suggestions are offered only when the cursor is on an empty line; elsewhere the rest of the line.
 * An empty `text` means nothing is shown.
 */
export function processAnswer(answer: string, ctx: HoleContext): Suggestion {
  const fenced = stripFences(toLf(answer).split(HOLE_MARKER).join(''));
  const { prefix, suffix } = cursorLine(ctx);
  const multiLine = isBlank(prefix) && isBlank(suffix);
  let text = removeLeadingOverlap(fenced.text, ctx.before);
  if (multiLine) text = dropRepeatedIndent(text, prefix, ctx.tabSize);
  const cut = cutSuggestion(text, { multiLine, linePrefix: prefix, tabSize: ctx.tabSize });
  let result = removeTrailingOverlap(cut.text, ctx.after, prefix);
  result = reindent(result, ctx.tabSize, ctx.insertSpaces).replace(/\s+$/, '');
  if (!result.trim()) result = '';
  return {
    text: ctx.eol === '\n' ? result : result.replace(/\n/g, ctx.eol),
    complete: cut.complete || fenced.closed,
  };
}

/** On an indented empty line, a first line that repeats the indentation already typed loses that much. */
function dropRepeatedIndent(text: string, prefix: string, tabSize: number): string {
  const typed = widthOf(prefix, tabSize);
  if (typed === 0) return text;
  const lead = /^[ \t]*/.exec(text)?.[0] ?? '';
  if (widthOf(lead, tabSize) < typed) return text.slice(lead.length);
  let width = 0;
  let i = 0;
  while (i < lead.length && width < typed) {
    width += lead[i] === '\t' ? tabSize - (width % tabSize) : 1;
    i++;
  }
  return text.slice(i);
}
