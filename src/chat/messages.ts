/** Turns a conversation into the message list sent to /v1/chat/completions. */
import type { TextMessage } from '../gateway/types';
import { withAttachments } from './context/format';
import { fenceFor } from './fence';
import type { CodeQuote, Conversation, Turn } from './types';

// fenceFor lives in its own module so that context/format can use it without an import cycle.
export { fenceFor } from './fence';

/**
 * The messages for a request: the system prompt first (when non-blank), then every turn in order.
 *
 * - A user turn with a quote carries the code in a fenced block labelled with file, language and line.
 * - A user turn with attachments sends them as delimited blocks before the question (`withAttachments`).
 * - An assistant turn sends its `content` only. Reasoning is never sent back: providers either
 *   reject it or bill it again, and it was never meant to be part of the transcript.
 * - An image turn (`/image`) is never sent: it is for the user, and sending it would cost tokens unasked.
 * - The turn still streaming is left out (it is the answer being asked for), and so is an
 *   assistant turn with no content (an error or a Stop before the first token): an empty
 *   assistant message is rejected by some servers and tells the model nothing.
 */
export function toGatewayMessages(conv: Conversation, systemPrompt: string): TextMessage[] {
  const messages: TextMessage[] = [];
  if (systemPrompt.trim()) messages.push({ role: 'system', content: systemPrompt });
  for (const turn of conv.turns) {
    const message = turnToMessage(turn);
    if (message) messages.push(message);
  }
  return messages;
}

/** The message one turn sends, or undefined for a turn that sends nothing (see `toGatewayMessages`). */
export function turnToMessage(turn: Turn): TextMessage | undefined {
  if (turn.role === 'user') {
    const asked = turn.modelText ?? turn.content;
    const content = turn.quote ? withQuote(asked, turn.quote) : asked;
    return {
      role: 'user',
      content: turn.attachments?.length ? withAttachments(content, turn.attachments) : content,
    };
  }
  if (turn.role === 'image') return undefined;
  if (turn.status === 'streaming' || turn.content.length === 0) return undefined;
  return { role: 'assistant', content: turn.content };
}

/** The user's text followed by the quoted code, e.g. "From `a.ts` (typescript), starting at line 12:". */
export function withQuote(text: string, quote: CodeQuote): string {
  const fence = fenceFor(quote.code);
  const language = quote.language.replace(/[^\w+#.-]/g, '');
  const header = `From \`${quote.fileName}\`${language ? ` (${language})` : ''}, starting at line ${quote.startLine}:`;
  const block = `${header}\n${fence}${language}\n${quote.code.replace(/\n$/, '')}\n${fence}`;
  return text.trim() ? `${text}\n\n${block}` : block;
}
