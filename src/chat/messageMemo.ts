/**
 * The request's messages with their token estimate, remembered turn by turn. A send formats and counts the whole
 * conversation twice (the attachments' fit, then the context's fit): with 400 turns that is most of the
 * extension's own time between Enter and the request. A turn's message is kept while the fields it is made of
 * are the same objects, so an edited, retracted or finished turn is formatted again.
 */
import type { ChatMessage } from '../gateway/types';
import { turnToMessage } from './messages';
import { MESSAGE_OVERHEAD_TOKENS, REPLY_PRIMING_TOKENS, estimateTokens } from './tokens';
import type { Conversation, Turn } from './types';

interface Remembered {
  /** The fields the message was made from, compared by identity. */
  sources: readonly unknown[];
  message: ChatMessage | undefined;
  tokens: number;
}

/** The messages of a conversation and `estimateMessagesTokens` of them. */
export interface CountedMessages {
  messages: ChatMessage[];
  estimate: number;
}

function sourcesOf(turn: Turn): readonly unknown[] {
  if (turn.role === 'user') return [turn.content, turn.quote, turn.attachments];
  if (turn.role === 'assistant') return [turn.content, turn.status];
  return [];
}

function same(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** Remembers each turn's message and its estimate; one per chat session. */
export class MessageMemo {
  private readonly turns = new WeakMap<Turn, Remembered>();

  /** `toGatewayMessages(conv, systemPrompt)` and its `estimateMessagesTokens`, formatting only changed turns. */
  messages(conv: Conversation, systemPrompt: string): CountedMessages {
    const messages: ChatMessage[] = [];
    let estimate = REPLY_PRIMING_TOKENS;
    if (systemPrompt.trim()) {
      messages.push({ role: 'system', content: systemPrompt });
      estimate += MESSAGE_OVERHEAD_TOKENS + estimateTokens(systemPrompt);
    }
    for (const turn of conv.turns) {
      const remembered = this.remember(turn);
      if (!remembered.message) continue;
      messages.push(remembered.message);
      estimate += MESSAGE_OVERHEAD_TOKENS + remembered.tokens;
    }
    return { messages, estimate };
  }

  private remember(turn: Turn): Remembered {
    const sources = sourcesOf(turn);
    const known = this.turns.get(turn);
    if (known && same(known.sources, sources)) return known;
    const message = turnToMessage(turn);
    const remembered = { sources, message, tokens: message ? estimateTokens(message.content) : 0 };
    this.turns.set(turn, remembered);
    return remembered;
  }
}
