/**
 * Token estimates for fitting a conversation into a model's context window.
 *
 * There is no tokenizer here on purpose: models behind the gateway use different ones, and a
 * tokenizer table is megabytes. The estimate only has to be good enough to decide, before
 * sending, whether the oldest turns must go; the server's 400 remains the final word.
 */
import type { ChatMessage } from '../gateway/types';

/** Tokens added per message for the role and the delimiters around it (OpenAI's chat format uses 3–4). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens that prime the assistant's reply, counted once per request. */
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Estimated tokens in `text`, by code point:
 * - ASCII counts 1/4 token (BPE tokenizers average about four English characters per token);
 * - CJK ideographs, kana, Hangul, full-width forms and emoji count 1 token each (they rarely merge);
 * - any other non-ASCII character (accented Latin, Cyrillic, Greek, Arabic…) counts 1/2 token.
 * The sum is rounded up. It tends to overestimate slightly, which is the safe side.
 */
export function estimateTokens(text: string): number {
  // An index loop rather than for…of: three to four times faster, which matters for a 1 MB attachment.
  let quarterTokens = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      quarterTokens += 1;
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    // A lone surrogate counts as one code point, as for…of would yield it.
    quarterTokens += codePointQuarterTokens(cp);
  }
  return Math.ceil(quarterTokens / 4);
}

/**
 * The cost of one code point in quarter tokens, as `estimateTokens` counts it. Exported so that
 * code cutting text to a budget (chat/context/truncate) counts exactly the same way in one pass.
 */
export function codePointQuarterTokens(cp: number): number {
  if (cp < 0x80) return 1;
  return isWide(cp) ? 4 : 2;
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x11ff) || // Hangul Jamo
    (cp >= 0x2e80 && cp <= 0x9fff) || // CJK radicals, kana, CJK unified ideographs
    (cp >= 0xa960 && cp <= 0xa97f) || // Hangul Jamo extended
    (cp >= 0xac00 && cp <= 0xd7ff) || // Hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) || // CJK compatibility ideographs
    (cp >= 0xff00 && cp <= 0xffef) || // full-width forms
    cp >= 0x1f000 // emoji, symbols, CJK extensions B+
  );
}

/** Estimated tokens of one message: its overhead, its content, and the name and arguments of each tool call. */
function messageTokens(m: ChatMessage): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + (m.content === null ? 0 : estimateTokens(m.content));
  if (m.role === 'assistant' && m.tool_calls) {
    for (const call of m.tool_calls) tokens += estimateTokens(call.function.name + call.function.arguments);
  }
  return tokens;
}

/** Estimated prompt tokens of a request: each message's tokens (`messageTokens`), plus reply priming. */
export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const m of messages) total += messageTokens(m);
  return total;
}

/** The outcome of `planContextFit`. */
interface ContextFitPlan {
  /** Whether the messages fit as they are. */
  fits: boolean;
  /** Estimated prompt tokens of the messages as given. */
  estimate: number;
  /** How many of the oldest non-system messages to drop (always whole exchanges); 0 when it fits. */
  dropCount: number;
  /** Whether dropping `dropCount` messages makes it fit; false when even the last exchange alone is too big. */
  canFit: boolean;
}

/**
 * Plans how to fit `messages` into `contextTokens` while leaving `reservedOutputTokens` for the reply.
 * Drops whole exchanges (a user message and the replies after it), oldest first; never the system
 * message and never the last exchange, which holds the question being asked.
 */
export function planContextFit(
  messages: readonly ChatMessage[],
  contextTokens: number,
  reservedOutputTokens: number,
  /** `estimateMessagesTokens(messages)` when the caller has it already (see MessageMemo). */
  knownEstimate?: number,
): ContextFitPlan {
  const budget = contextTokens - reservedOutputTokens;
  const estimate = knownEstimate ?? estimateMessagesTokens(messages);
  if (estimate <= budget) return { fits: true, estimate, dropCount: 0, canFit: true };

  const groups = exchangeSizes(messages.filter((m) => m.role !== 'system'));
  let remaining = estimate;
  let dropCount = 0;
  for (let g = 0; g < groups.length - 1 && remaining > budget; g++) {
    remaining -= groups[g].tokens;
    dropCount += groups[g].count;
  }
  return { fits: false, estimate, dropCount, canFit: remaining <= budget };
}

/** Groups consecutive messages into exchanges that each start at a user message. */
function exchangeSizes(history: readonly ChatMessage[]): Array<{ count: number; tokens: number }> {
  const groups: Array<{ count: number; tokens: number }> = [];
  for (const m of history) {
    const cost = messageTokens(m);
    const current = groups[groups.length - 1];
    if (m.role === 'user' || !current) groups.push({ count: 1, tokens: cost });
    else {
      current.count++;
      current.tokens += cost;
    }
  }
  return groups;
}

/**
 * A copy of `messages` without the `count` oldest non-system messages. System messages stay.
 * Assistant messages left at the front of the history afterwards are dropped too, since a
 * history that opens with a reply to a question no longer present only confuses the model.
 */
export function dropOldestTurns(messages: readonly ChatMessage[], count: number): ChatMessage[] {
  const result: ChatMessage[] = [];
  let toDrop = Math.max(0, Math.floor(count));
  // With nothing to drop the history is returned as it is, whatever it opens with.
  let seenKept = toDrop === 0;
  for (const m of messages) {
    if (m.role === 'system') result.push(m);
    else if (toDrop > 0) toDrop--;
    else if (!seenKept && m.role === 'assistant') continue;
    else {
      seenKept = true;
      result.push(m);
    }
  }
  return result;
}
