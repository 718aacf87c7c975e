/**
 * Where code from the model goes in a document, and with which line breaks: the one place that decides the
 * newlines of Generate Code and of a code block's Insert and Replace. Pure: the host passes the document's
 * text, its line ending and the selection as offsets.
 *
 * The change replaces exactly the selection, so text outside it is never touched. Its text is the code with
 * the document's line endings, and at most one line break added (the separator rule):
 * - a selection that ends with a line break (a line-wise selection, ending at column 0) keeps a line break at
 *   its end, so the line after it stays a line of its own;
 * - an insertion at the start of a line that has text after the cursor ends with a line break, so the code
 *   does not run into that line;
 * - an insertion at the end of a document that ends with a line break ends with one, so the file keeps its
 *   final newline (and every blank line before it);
 * - an insertion at the end of a document whose last line has text before the cursor starts with a line break,
 *   so the code does not run into that line; no final newline is added to a file that had none.
 * A line break the code already has where one would be added is used instead of adding another.
 */
import type { TextChange } from './model';

/** A document's line ending. */
export type Eol = '\n' | '\r\n';

/** The change that puts `code` in place of the selection [start, end) of `text`, whose line ending is `eol`. */
export function placeCode(text: string, start: number, end: number, code: string, eol: Eol): TextChange {
  const change = { offset: start, length: end - start };
  const body = code.replace(/\r\n|\n/g, eol);
  if (!body) return { ...change, text: '' };
  const endsLine = /\n$/.test(body);
  if (start < end) {
    const keepsBreak = text[end - 1] === '\n' && !endsLine;
    return { ...change, text: keepsBreak ? body + eol : body };
  }
  const atLineStart = start === 0 || text[start - 1] === '\n';
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start);
  const after = restOfLine(text, start);
  const atEnd = start === text.length;
  if (atLineStart && !endsLine && (after.trim() !== '' || (atEnd && start > 0))) {
    return { ...change, text: body + eol };
  }
  if (atEnd && before.trim() !== '' && !body.startsWith(eol)) {
    return { ...change, text: eol + body };
  }
  return { ...change, text: body };
}

/** The text from `offset` to the end of its line, without the line break. */
function restOfLine(text: string, offset: number): string {
  const next = text.indexOf('\n', offset);
  return (next < 0 ? text.slice(offset) : text.slice(offset, next)).replace(/\r$/, '');
}
