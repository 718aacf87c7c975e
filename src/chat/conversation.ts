/**
 * Operations on a `Conversation`.
 *
 * Style: these functions MUTATE the conversation (and its turns) in place and return what they
 * created or changed. The host owns one live conversation per chat; streaming appends a chunk per
 * token, so copying the conversation (or even the turn list) on every token would make a long
 * answer quadratic. Consumers that need a snapshot (the webview, persistence) get deltas or a
 * JSON serialisation, never the live object.
 */
import type { Usage } from '../gateway/types';
import type {
  AssistantTurn,
  CodeQuote,
  Conversation,
  ConversationSummary,
  Turn,
  TurnError,
  TurnStatus,
  UserTurn,
} from './types';

/** Title of a conversation before its first message gives it one. */
export const NEW_CONVERSATION_TITLE = 'New chat';

/** Longest title `deriveTitle` produces, in characters (before the ellipsis). */
export const MAX_TITLE_LENGTH = 60;

/** A random unique id (RFC 4122 v4) from the platform's crypto, in Node 20 and in browsers. */
export function newId(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  // randomUUID exists only in secure contexts; getRandomValues exists everywhere.
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new, empty conversation. */
export function createConversation(
  model: string,
  now: number = Date.now(),
  id: string = newId(),
): Conversation {
  return { id, title: NEW_CONVERSATION_TITLE, model, createdAt: now, updatedAt: now, turns: [] };
}

/** Appends a user turn; the first user turn of an untitled conversation also names it. */
export function addUserTurn(
  conv: Conversation,
  content: string,
  quote?: CodeQuote,
  now: number = Date.now(),
): UserTurn {
  const turn: UserTurn = { id: newId(), role: 'user', content, createdAt: now };
  if (quote) turn.quote = quote;
  const isFirst = !conv.turns.some((t) => t.role === 'user');
  if (isFirst && conv.title === NEW_CONVERSATION_TITLE) {
    conv.title = deriveTitle(content.trim() ? content : (quote?.fileName ?? ''));
  }
  conv.turns.push(turn);
  conv.updatedAt = now;
  return turn;
}

/** Appends an empty assistant turn in `streaming` state and makes `model` the conversation's model. */
export function startAssistantTurn(
  conv: Conversation,
  model: string,
  now: number = Date.now(),
): AssistantTurn {
  const turn: AssistantTurn = {
    id: newId(),
    role: 'assistant',
    model,
    content: '',
    status: 'streaming',
    createdAt: now,
  };
  conv.turns.push(turn);
  conv.model = model;
  conv.updatedAt = now;
  return turn;
}

/** Finds a turn by id, looking at the newest first because that is where streaming happens. */
function findTurn(conv: Conversation, turnId: string): Turn | undefined {
  for (let i = conv.turns.length - 1; i >= 0; i--) {
    if (conv.turns[i].id === turnId) return conv.turns[i];
  }
  return undefined;
}

/**
 * Appends streamed text/reasoning to a streaming assistant turn; O(chunk) for the newest turn.
 * Returns the turn, or undefined when there is no such streaming turn (a late chunk after Stop is dropped).
 */
export function appendToTurn(
  conv: Conversation,
  turnId: string,
  delta: { text?: string; reasoning?: string },
): AssistantTurn | undefined {
  const turn = findTurn(conv, turnId);
  if (!turn || turn.role !== 'assistant' || turn.status !== 'streaming') return undefined;
  if (delta.text) turn.content += delta.text;
  if (delta.reasoning) turn.reasoning = (turn.reasoning ?? '') + delta.reasoning;
  return turn;
}

/**
 * Discards the reasoning of a streaming assistant turn: what was streamed as reasoning was the answer
 * (a thinking model that answered without think tags), and arrives again as text.
 */
export function retractReasoning(conv: Conversation, turnId: string): AssistantTurn | undefined {
  const turn = findTurn(conv, turnId);
  if (!turn || turn.role !== 'assistant' || turn.status !== 'streaming') return undefined;
  delete turn.reasoning;
  delete turn.reasoningMs;
  return turn;
}

/** How a finished turn ended. */
interface TurnOutcome {
  status: Exclude<TurnStatus, 'streaming'>;
  usage?: Usage;
  error?: TurnError;
  finishReason?: string;
  reasoningMs?: number;
}

/** Ends an assistant turn, keeping the text it received; undefined when the turn is not an assistant turn. */
export function finishTurn(
  conv: Conversation,
  turnId: string,
  outcome: TurnOutcome,
  now: number = Date.now(),
): AssistantTurn | undefined {
  const turn = findTurn(conv, turnId);
  if (!turn || turn.role !== 'assistant') return undefined;
  turn.status = outcome.status;
  if (outcome.usage) turn.usage = outcome.usage;
  if (outcome.error) turn.error = outcome.error;
  else delete turn.error;
  if (outcome.finishReason !== undefined) turn.finishReason = outcome.finishReason;
  if (outcome.reasoningMs !== undefined) turn.reasoningMs = outcome.reasoningMs;
  conv.updatedAt = now;
  return turn;
}

/** Drops the turn `turnId` and every turn after it (edit-and-resend, regenerate); returns the dropped turns. */
export function truncateFrom(conv: Conversation, turnId: string, now: number = Date.now()): Turn[] {
  const index = conv.turns.findIndex((t) => t.id === turnId);
  if (index < 0) return [];
  const removed = conv.turns.splice(index);
  conv.updatedAt = now;
  return removed;
}

/** The newest user turn, if any. */
export function lastUserTurn(conv: Conversation): UserTurn | undefined {
  for (let i = conv.turns.length - 1; i >= 0; i--) {
    const turn = conv.turns[i];
    if (turn.role === 'user') return turn;
  }
  return undefined;
}

/**
 * A history title from a first message: its first non-blank line, whitespace collapsed, ≤ ~60 chars. A cut
 * title gets no "…": the history list truncates visibly with CSS, and Rename shows the title as stored.
 */
export function deriveTitle(text: string): string {
  const line = text
    .split(/\r\n|\r|\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find((l) => l.length > 0);
  if (!line) return NEW_CONVERSATION_TITLE;
  const chars = Array.from(line); // by code point, so an emoji is never cut in half
  if (chars.length <= MAX_TITLE_LENGTH) return line;
  const cut = chars.slice(0, MAX_TITLE_LENGTH).join('');
  // Prefer ending on a word boundary, unless that would throw away most of the title.
  const space = cut.lastIndexOf(' ');
  const base = space >= MAX_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut;
  return base.replace(/[\s.,;:!?-]+$/, '');
}

/** The history-list line for a conversation. */
export function summarize(conv: Conversation): ConversationSummary {
  return {
    id: conv.id,
    title: conv.title,
    model: conv.model,
    updatedAt: conv.updatedAt,
    turnCount: conv.turns.length,
  };
}

/**
 * Turns still `streaming` (or images still `generating`) when a conversation is loaded were cut off by a crash or reload:
 * marks them `interrupted`, keeping their text. Returns how many turns changed.
 */
export function markInterrupted(conv: Conversation): number {
  let changed = 0;
  for (const turn of conv.turns) {
    if (turn.role !== 'user' && (turn.status === 'streaming' || turn.status === 'generating')) {
      turn.status = 'interrupted';
      changed++;
    }
  }
  return changed;
}
