/**
 * The fast path of streaming a table: while its last row is still being written, only that row is
 * rendered again, not the whole table. A GFM table row renders from its own text and the table's header
 * (the column count) and delimiter row (the alignments), so the header, the delimiter and the open row
 * are parsed as a table of one row, and its row replaces the last one shown.
 *
 * It holds while the open row's line starts with `|` (no other block starts that way, so the line stays a
 * row) and no newline arrives (a new line may be a row, or end the table): then the tail is rendered in
 * full again.
 */
import type MarkdownIt from 'markdown-it';
import { md, renderTokens } from './markdown';

type Token = MarkdownIt.Token;

/** The open last row of a table at the end of the open tail. */
export interface OpenTableRow {
  /** The header and delimiter lines, each with its newline. */
  head: string;
  /** Where the open row's line starts in the open source. */
  rowStart: number;
  /** Length of the open source when the row was last rendered. */
  sourceLength: number;
  row: HTMLTableRowElement;
}

/**
 * After a full render of the open source `pending` into `tail` (from `tokens`, whose line numbers count
 * from `firstLine`, the line `pending` starts on), the open row of a table that ends the tail, or
 * undefined when the fast path must not be used.
 */
export function openTableRow(
  tokens: Token[],
  tail: HTMLElement,
  pending: string,
  firstLine: number,
): OpenTableRow | undefined {
  const close = tokens.at(-1);
  if (close?.type !== 'table_close' || close.level !== 0 || pending.endsWith('\n')) return undefined;
  const open = findOpen(tokens, 'table_open');
  const rowStart = pending.lastIndexOf('\n') + 1;
  const tableLine = open?.map?.[0];
  if (tableLine === undefined || pending[rowStart] !== '|') return undefined;
  const head = linesFrom(pending, tableLine - firstLine, 2);
  const table = tail.lastChild;
  const body = table instanceof HTMLTableElement ? table.tBodies[0] : undefined;
  const row = body?.rows[body.rows.length - 1];
  // The open line must be a body row of this table, after its header and delimiter, shown last.
  if (!row || !head || head.end > rowStart || !isLastRowOnLine(tokens, firstLine + lineOf(pending, rowStart)))
    return undefined;
  return { head: head.text, rowStart, sourceLength: pending.length, row };
}

/**
 * Renders the open row again from `pending` when only that row has grown; false (nothing changed) when the
 * open tail must be rendered in full instead.
 */
export function appendToTableRow(open: OpenTableRow, pending: string): boolean {
  if (pending.indexOf('\n', open.sourceLength) !== -1) return false;
  const env = {};
  const tokens = md.parse(open.head + pending.slice(open.rowStart), env);
  const rows = tokens.filter((t) => t.type === 'tr_open').length;
  // The header row and exactly one body row, in a table that is the only block.
  if (tokens[0]?.type !== 'table_open' || tokens.at(-1)?.type !== 'table_close' || rows !== 2) return false;
  const table = renderTokens(tokens, env).firstChild;
  const row = table instanceof HTMLTableElement ? table.tBodies[0]?.rows[0] : undefined;
  if (!row) return false;
  open.row.replaceWith(row);
  open.row = row;
  open.sourceLength = pending.length;
  return true;
}

function findOpen(tokens: Token[], type: string): Token | undefined {
  for (let i = tokens.length - 1; i >= 0; i--)
    if (tokens[i].type === type && tokens[i].level === 0) return tokens[i];
  return undefined;
}

/** The `count` lines from 0-based line `line`, with their newlines, and where they end; undefined if incomplete. */
function linesFrom(src: string, line: number, count: number): { text: string; end: number } | undefined {
  let start = 0;
  for (let i = 0; i < line; i++) start = src.indexOf('\n', start) + 1;
  let end = start;
  for (let i = 0; i < count; i++) {
    const nl = src.indexOf('\n', end);
    if (nl === -1) return undefined;
    end = nl + 1;
  }
  return { text: src.slice(start, end), end };
}

/** 0-based line number of offset. */
function lineOf(src: string, offset: number): number {
  let line = 0;
  for (let at = src.indexOf('\n'); at !== -1 && at < offset; at = src.indexOf('\n', at + 1)) line++;
  return line;
}

/** Whether the table's last row (its tr_open's map) is the given line. */
function isLastRowOnLine(tokens: Token[], line: number): boolean {
  for (let i = tokens.length - 1; i >= 0; i--)
    if (tokens[i].type === 'tr_open') return tokens[i].map?.[0] === line;
  return false;
}
