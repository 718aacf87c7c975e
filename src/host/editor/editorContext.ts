import * as vscode from 'vscode';
import { placeCode, type Eol } from '../../review/placement';

/** Up to `count` lines before and after a range, for context in prompts. */
export function surroundingLines(
  document: vscode.TextDocument,
  range: vscode.Range,
  count: number,
): { before: string; after: string } {
  const firstBefore = Math.max(0, range.start.line - count);
  const lastAfter = Math.min(document.lineCount - 1, range.end.line + count);
  const before = document.getText(new vscode.Range(firstBefore, 0, range.start.line, range.start.character));
  const after = document.getText(
    new vscode.Range(range.end.line, range.end.character, lastAfter, document.lineAt(lastAfter).text.length),
  );
  return { before, after };
}

/** The selection, or when it is empty the block around the cursor (lines up to the nearest blank lines). */
export function selectionOrBlock(editor: vscode.TextEditor): vscode.Range | undefined {
  const { document, selection } = editor;
  if (!selection.isEmpty && document.getText(selection).trim()) return selection;
  const line = selection.active.line;
  if (document.lineAt(line).isEmptyOrWhitespace) return undefined;
  let first = line;
  let last = line;
  while (first > 0 && !document.lineAt(first - 1).isEmptyOrWhitespace && line - first < 60) first--;
  while (last < document.lineCount - 1 && !document.lineAt(last + 1).isEmptyOrWhitespace && last - line < 60)
    last++;
  return new vscode.Range(first, 0, last, document.lineAt(last).text.length);
}

/** The document's line ending. */
function eolOf(document: vscode.TextDocument): Eol {
  return document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
}

/**
 * What puts code in place of `range` of `document` as it is now: the code with the document's line endings and
 * the line breaks review/placement.ts decides; the range itself is all that changes. `text` is the document's
 * text, when the caller already has it.
 */
export function codePlacer(
  document: vscode.TextDocument,
  range: vscode.Range,
  text = document.getText(),
): (code: string) => string {
  const start = document.offsetAt(range.start);
  const end = document.offsetAt(range.end);
  const eol = eolOf(document);
  return (code) => placeCode(text, start, end, code, eol).text;
}
