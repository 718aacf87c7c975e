/** Renders a conversation as a Markdown document for "Export conversation". */
import type { Usage } from '../gateway/types';
import { formatDuration } from './duration';
import { fenceFor } from './messages';
import type { Attachment } from './context/types';
import { imageTurnMarkdown } from './imageTurns';
import type { AssistantTurn, CodeQuote, Conversation, UserTurn } from './types';

/**
 * The conversation as Markdown: a title heading, then each turn under `### You` or
 * `### Assistant (model)`, with quotes as fenced code, attachments and reasoning folded in `<details>` blocks,
 * a marker for answers that did not complete, and the token usage. Dates are UTC ISO strings so
 * the same conversation always exports to the same text. Images link by path relative to `imageLinkBase`, the
 * exported file's folder relative to the workspace folder.
 */
export function conversationToMarkdown(conv: Conversation, imageLinkBase = ''): string {
  const parts: string[] = [
    `# ${oneLine(conv.title) || 'Conversation'}`,
    `_Model: ${conv.model} · Started: ${iso(conv.createdAt)} · Updated: ${iso(conv.updatedAt)}_`,
  ];
  for (const turn of conv.turns) {
    if (turn.role === 'user') parts.push(userSection(turn));
    else if (turn.role === 'image') parts.push(imageTurnMarkdown(turn, imageLinkBase));
    else parts.push(assistantSection(turn));
  }
  return `${parts.join('\n\n')}\n`;
}

function userSection(turn: UserTurn): string {
  const lines = ['### You'];
  if (turn.content.trim()) lines.push(turn.content);
  if (turn.quote) lines.push(quoteBlock(turn.quote));
  for (const a of turn.attachments ?? []) lines.push(attachmentBlock(a));
  return lines.join('\n\n');
}

/**
 * A collapsed `<details>` block titled `Attached: name (path:lines)` holding the content as sent.
 * The summary is HTML, so it is escaped; the content is in a fence, which keeps a literal
 * `</details>` in it from closing the block.
 */
function attachmentBlock(a: Attachment): string {
  const range = a.startLine !== undefined ? `:${a.startLine}-${a.endLine ?? a.startLine}` : '';
  const where = a.path ? ` (${a.path}${range})` : '';
  const cut = a.truncated
    ? `, truncated: kept ${a.truncated.keptLines} of ${a.truncated.totalLines} lines`
    : '';
  const summary = escapeHtml(oneLine(`Attached: ${a.name}${where}${cut}`));
  const content = a.content.replace(/\r?\n$/, '');
  const fence = fenceFor(content);
  const language = a.language.replace(/[^\w+#.-]/g, '');
  return `<details><summary>${summary}</summary>\n\n${fence}${language}\n${content}\n${fence}\n\n</details>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function assistantSection(turn: AssistantTurn): string {
  const lines = [`### Assistant (${oneLine(turn.model)})`];
  if (turn.reasoning?.trim()) {
    const seconds = turn.reasoningMs !== undefined ? ` (${formatDuration(turn.reasoningMs)})` : '';
    // Blank lines around the body let Markdown inside the block render; a literal closing tag
    // in the reasoning would end the block early, so it is defused.
    const body = turn.reasoning.replace(/<\/details/gi, '&lt;/details');
    lines.push(`<details><summary>Thinking${seconds}</summary>\n\n${body}\n\n</details>`);
  }
  if (turn.content) lines.push(turn.content);
  const marker = statusMarker(turn);
  if (marker) lines.push(marker);
  if (turn.usage) lines.push(usageLine(turn.usage));
  return lines.join('\n\n');
}

function quoteBlock(quote: CodeQuote): string {
  const fence = fenceFor(quote.code);
  const language = quote.language.replace(/[^\w+#.-]/g, '');
  const code = quote.code.replace(/\n$/, '');
  return `\`${quote.fileName}\`, from line ${quote.startLine}:\n\n${fence}${language}\n${code}\n${fence}`;
}

function statusMarker(turn: AssistantTurn): string | undefined {
  switch (turn.status) {
    case 'stopped':
      return '_[Stopped by the user]_';
    case 'interrupted':
      return '_[Interrupted: VS Code closed or reloaded while this answer was arriving]_';
    case 'truncated':
      return '_[Truncated: the answer reached the maximum length]_';
    case 'streaming':
      return '_[Still being written when exported]_';
    case 'error': {
      const id = turn.error?.requestId ? ` (request id ${turn.error.requestId})` : '';
      return `> **Error:** ${oneLine(turn.error?.message ?? 'the request failed')}${id}`;
    }
    default:
      return undefined;
  }
}

/** e.g. `_Tokens: 120 prompt · 340 completion (200 reasoning) · 460 total_`. */
function usageLine(usage: Usage): string {
  const reasoning = usage.reasoning_tokens ? ` (${usage.reasoning_tokens} reasoning)` : '';
  return `_Tokens: ${usage.prompt_tokens} prompt · ${usage.completion_tokens} completion${reasoning} · ${usage.total_tokens} total_`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
