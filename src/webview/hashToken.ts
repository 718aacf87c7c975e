/**
 * The `#` token before the caret, and whether it can be a context request. Pure: no DOM, so the rules are
 * unit-tested in plain Node. `#` is ordinary text far more often than it asks for context (issue numbers,
 * colours, `#include`, Markdown headings, `C#`), so the picker opens only for what could name a context item.
 */
import type { PickerMode } from '../contextProtocol';

/** A `#token` in the message: where its `#` is, what it searches, and the text typed after it. */
export interface HashToken {
  start: number;
  mode: PickerMode;
  query: string;
}

/** The `#` token being typed before the caret: `#query`, `#file:query` or `#sym:query`. */
export function hashToken(text: string, caret: number): HashToken | undefined {
  // `#` only after whitespace or at the start: `C#`, `a#b` and URLs' fragments are never tokens.
  const match = /(^|\s)#(?:(file|sym):)?([^\s#]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  const start = match.index + match[1].length;
  const mode: PickerMode = match[2] === 'file' ? 'files' : match[2] === 'sym' ? 'symbols' : 'all';
  return { start, mode, query: match[3] };
}

/** An issue number (`#42`) or a colour that starts with a digit (`#7f3a`, `#0af`, `#1e1e1e`). */
const DIGIT_FIRST_HEX = /^[0-9][0-9a-f]*$/i;
/** A full colour (`#ff00aa`, `#abc123cc`); short letter-first hex (`#e2e`, `#fff`) may still name a file. */
const LONG_COLOUR = /^(?=[a-f]*[0-9])(?:[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** What a file or a kind's name can start with: `.env`, `_config`, `@types`, `src/…`, any letter or digit. */
const NAME_START = /^[\p{L}\p{N}._@/-]/u;

/** Whether the text after `#` can name a context item; `#file:` and `#sym:` always ask for one. */
export function canBeContextItem(token: HashToken): boolean {
  if (token.mode !== 'all' || token.query === '') return true;
  const { query } = token;
  return NAME_START.test(query) && !DIGIT_FIRST_HEX.test(query) && !LONG_COLOUR.test(query);
}

/** The `#` token before the caret when the picker should open for it, else undefined. */
export function contextRequest(text: string, caret: number): HashToken | undefined {
  const token = hashToken(text, caret);
  return token && canBeContextItem(token) ? token : undefined;
}
