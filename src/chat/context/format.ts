/**
 * How attachments travel to the model: each one as a delimited block with its path, line range and
 * language in an opening tag, and its content in a Markdown fence long enough that nothing inside
 * (backticks, a literal `</attachment>`) can end it early.
 */
import { fenceFor } from '../fence';
import { estimateTokens } from '../tokens';
import type { Attachment } from './types';

/** The block sent to the model for one attachment. */
export function formatAttachment(a: Omit<Attachment, 'tokens'>): string {
  const attributes: Array<[string, string]> = [['kind', a.kind]];
  // A file's name is its path's base name, so it is only worth repeating when it says something else
  // (a symbol's name, 'Problems', 'Terminal: bash').
  if (a.name && a.name !== baseName(a.path)) attributes.push(['name', a.name]);
  if (a.path) attributes.push(['path', a.path]);
  const range = lineRange(a);
  if (range) attributes.push(['lines', `${range.start}-${range.end}`]);
  if (a.language) attributes.push(['language', a.language]);
  if (a.truncated) {
    attributes.push(['truncated', `kept ${a.truncated.keptLines} of ${a.truncated.totalLines} lines`]);
  }
  const tag = `<attachment ${attributes.map(([k, v]) => `${k}="${escapeAttribute(v)}"`).join(' ')}>`;

  const content = a.content.replace(/\r?\n$/, '');
  const fence = fenceFor(content);
  const language = a.language.replace(/[^\w+#.-]/g, '');
  const lines = [tag, `${fence}${language}`, content, fence];
  if (a.truncated) lines.push(truncationNote(a, a.truncated));
  lines.push('</attachment>');
  return lines.join('\n');
}

/** The first sentence of a message with attachments, telling the model how to read what follows. */
export function attachmentsLead(count: number): string {
  const items = count === 1 ? '1 item' : `${count} items`;
  return `The user attached ${items} as context. Each is inside <attachment> tags; the question follows them.`;
}

/**
 * The user message sent to the model: without attachments the question as it is; with them, a lead
 * line, the blocks separated by blank lines, then `Question:` and the question, so the model can
 * tell the question from the attached material.
 */
export function withAttachments(question: string, attachments: readonly Attachment[]): string {
  if (attachments.length === 0) return question;
  const parts = [attachmentsLead(attachments.length)];
  for (const a of attachments) parts.push(formatAttachment(a));
  parts.push(`Question:\n${question}`);
  return parts.join('\n\n');
}

/** Estimated tokens of the block `formatAttachment` makes for `a`. */
export function attachmentTokens(a: Omit<Attachment, 'tokens'>): number {
  return estimateTokens(formatAttachment(a));
}

/**
 * Estimated tokens `withAttachments` adds around `count` blocks (the lead, the blank lines, the
 * `Question:` line); 0 without attachments. It is all ASCII, so adding it to the blocks' own
 * estimates never undercounts the whole message.
 */
export function attachmentsOverheadTokens(count: number): number {
  if (count <= 0) return 0;
  return estimateTokens(`${attachmentsLead(count)}${'\n\n'.repeat(count + 1)}Question:\n`);
}

/** The line range of an attachment, when it has one; an end before the start is read as the start. */
function lineRange(a: Pick<Attachment, 'startLine' | 'endLine'>): { start: number; end: number } | undefined {
  if (a.startLine === undefined) return undefined;
  return { start: a.startLine, end: Math.max(a.startLine, a.endLine ?? a.startLine) };
}

/** e.g. `[truncated: lines 121-5000 of src/a.ts were left out]`, in the file's own line numbers. */
function truncationNote(a: Omit<Attachment, 'tokens'>, t: { keptLines: number; totalLines: number }): string {
  const first = (a.startLine ?? 1) + t.keptLines;
  const last = (a.startLine ?? 1) + t.totalLines - 1;
  // Outside the fence, so escaped like the tag: a path cannot end the block from here either.
  const source = escapeAttribute(a.path || a.name);
  if (first === last) return `[truncated: line ${first} of ${source} was left out]`;
  return `[truncated: lines ${first}-${last} of ${source} were left out]`;
}

/** Escapes a value for a double-quoted attribute; line breaks too, so the opening tag stays one line. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&"<>\r\n\t]/g, (ch) => ATTRIBUTE_ESCAPES[ch] ?? ch);
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  '<': '&lt;',
  '>': '&gt;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
