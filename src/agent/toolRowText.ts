/**
 * The text of a tool's row in the chat: a one-line summary and the input and result as shown. The row is a summary;
 * the model read the whole result.
 */
import type { AgentToolCall, ToolResult } from './types';

/** Longest input or result shown in a row. */
export const SHOWN_CHARS = 4000;

/** `text` as a row shows it: cut after SHOWN_CHARS characters, with an ellipsis. */
export function shownText(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}\n…` : text;
}

/** A row's one-line summary before the tool has answered ("read_file src/a.ts"). */
export function pendingSummary(call: AgentToolCall): string {
  const arg = ['command', 'path', 'query', 'glob']
    .map((k) => call.input[k])
    .find((v) => typeof v === 'string');
  return typeof arg === 'string' ? `${call.name} ${arg}` : call.name;
}

/** A failed call's row: what it tried, and the first words of why ("edit_file src/a.ts: oldText occurs 2 times"). */
export function failedSummary(tried: string, result: ToolResult): string {
  if (!result.isError) return tried;
  const why =
    result.content
      .replace(/^Error:\s*/, '')
      .replace(/^(The edit|Edit \d+ of \d+): /, '')
      .split(/(?<=[.;])\s|\n/)[0] ?? '';
  return `${tried}: ${why.length > 60 ? `${why.slice(0, 59)}…` : why}`;
}
