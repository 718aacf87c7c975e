/**
 * The hole-filling prompt of inline completions. The gateway has only /v1/chat/completions (no
 * fill-in-the-middle endpoint), so the file around the cursor is sent as a chat message with an
 * explicit marker where the code goes, and the model is told to answer with that code alone.
 */
import type { TextMessage } from '../gateway/types';
import { codePointQuarterTokens } from '../chat/tokens';

/** Marks the cursor in the prompt. Chosen to be unlike anything in real source files. */
export const HOLE_MARKER = '<|HOLE|>';
/** The default of `modelGateway.complete.contextTokens`. */
export const DEFAULT_CONTEXT_TOKENS = 4000;
/** The default of `modelGateway.complete.model`: a fast model, since a suggestion is only useful while the user waits. */
export const DEFAULT_COMPLETE_MODEL = 'alpha-haiku-4-5-20251001';

/** What the prompt is built from. Texts use '\n' line breaks (see `toLf`). */
export interface HoleInput {
  /** The file's path relative to the workspace (or its name for an untitled file). */
  fileName: string;
  languageId: string;
  /** Text before the cursor; only its tail is used. */
  before: string;
  /** Text after the cursor; only its head is used. */
  after: string;
  /** Budget for both sides together, in estimated tokens. */
  contextTokens: number;
}

/** The built prompt and the context windows it holds. */
export interface HolePrompt {
  messages: TextMessage[];
  before: string;
  after: string;
}

export const SYSTEM_PROMPT = [
  'You are a code completion engine inside an editor.',
  `The user sends a file with one hole marked ${HOLE_MARKER} at the cursor.`,
  'Answer with the code to insert at the hole, and nothing else:',
  '- no explanations, no Markdown fences;',
  '- do not repeat the code before or after the hole;',
  '- keep the indentation style of the file;',
  '- if nothing should be inserted, answer with an empty message.',
].join('\n');

/** Converts CRLF and lone CR line breaks to '\n'. */
export function toLf(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Splits a budget of `total` tokens about 3:1 between the text before and after the cursor. */
export function splitBudget(total: number): { before: number; after: number } {
  const t = Number.isFinite(total) && total > 0 ? Math.floor(total) : DEFAULT_CONTEXT_TOKENS;
  const before = Math.ceil((t * 3) / 4);
  return { before, after: t - before };
}

/**
 * The longest tail of `text` within `maxTokens`, starting at a line start when it had to be cut (a
 * half line at the top would only confuse the model). Counts as `estimateTokens` does.
 */
export function tailWithinTokens(text: string, maxTokens: number): string {
  const budget = Math.max(0, maxTokens) * 4;
  let quarters = 0;
  let i = text.length;
  while (i > 0) {
    let cp = text.charCodeAt(i - 1);
    let width = 1;
    if (cp >= 0xdc00 && cp <= 0xdfff && i > 1) {
      const high = text.charCodeAt(i - 2);
      if (high >= 0xd800 && high <= 0xdbff) {
        cp = (high - 0xd800) * 0x400 + (cp - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const cost = codePointQuarterTokens(cp);
    if (quarters + cost > budget) break;
    quarters += cost;
    i -= width;
  }
  if (i === 0) return text;
  const lineStart = text.indexOf('\n', i);
  return lineStart < 0 ? '' : text.slice(lineStart + 1);
}

/** The longest head of `text` within `maxTokens`, ending at a line end when it had to be cut. */
export function headWithinTokens(text: string, maxTokens: number): string {
  const budget = Math.max(0, maxTokens) * 4;
  let quarters = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    let cp = text.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const cost = codePointQuarterTokens(cp);
    if (quarters + cost > budget) break;
    quarters += cost;
    i += width;
  }
  if (i >= n) return text;
  const lineEnd = text.lastIndexOf('\n', i);
  return lineEnd < 0 ? '' : text.slice(0, lineEnd);
}

/**
 * Builds the chat messages for one completion. A marker that already occurs in the file is defused,
 * so the model sees exactly one hole.
 */
export function buildHolePrompt(input: HoleInput): HolePrompt {
  const budget = splitBudget(input.contextTokens);
  const before = tailWithinTokens(toLf(input.before), budget.before);
  const after = headWithinTokens(toLf(input.after), budget.after);
  const defuse = (s: string): string => s.split(HOLE_MARKER).join('<|HOLE |>');
  const user = [
    `File: ${input.fileName}`,
    `Language: ${input.languageId}`,
    '',
    `${defuse(before)}${HOLE_MARKER}${defuse(after)}`,
  ].join('\n');
  return {
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: user },
    ],
    before,
    after,
  };
}
