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
  /** The fields the message was made from (see `sourcesOf`), compared by identity. */
  first: unknown;
  second: unknown;
  third: unknown;
  message: ChatMessage | undefined;
  tokens: number;
}

/** The messages of a conversation and `estimateMessagesTokens` of them. */
export interface CountedMessages {
  messages: ChatMessage[];
  estimate: number;
}

/**
 * The fields a turn's message is made from: compared on every send for every turn, so without an array of them
 * (400 arrays a send were a tenth of the extension's time between Enter and the request).
 */
function sourcesOf(turn: Turn): [unknown, unknown, unknown] {
  if (turn.role === 'user') return [turn.content, turn.quote, turn.attachments];
  if (turn.role === 'assistant') return [turn.content, turn.status, undefined];
  return [undefined, undefined, undefined];
}

function madeFromSame(turn: Turn, known: Remembered): boolean {
  if (turn.role === 'user')
    return known.first === turn.content && known.second === turn.quote && known.third === turn.attachments;
  if (turn.role === 'assistant') return known.first === turn.content && known.second === turn.status;
  return true;
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
    const known = this.turns.get(turn);
    if (known && madeFromSame(turn, known)) return known;
    const [first, second, third] = sourcesOf(turn);
    const message = turnToMessage(turn);
    const remembered = {
      first,
      second,
      third,
      message,
      tokens: message ? estimateTokens(message.content) : 0,
    };
    this.turns.set(turn, remembered);
    return remembered;
  }
}
