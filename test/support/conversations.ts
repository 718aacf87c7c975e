// Conversations for the store and durability tests, built through the real conversation model.
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  startAssistantTurn,
} from '../../src/chat/conversation';
import type { Conversation } from '../../src/chat/types';

/** A deep copy: what a save writes and a later load reads back. */
export function cloneConversation(conv: Conversation): Conversation {
  return JSON.parse(JSON.stringify(conv)) as Conversation;
}

/** A conversation `id` of `question` and an answer that has streamed `answer` so far, all at time `now`. */
export function streamingConversation(
  id: string,
  question: string,
  answer: string,
  now: number,
): Conversation {
  const conv = createConversation('model-x', now, id);
  addUserTurn(conv, question, undefined, now);
  const turn = startAssistantTurn(conv, 'model-x', now);
  appendToTurn(conv, turn.id, { text: answer });
  conv.updatedAt = now;
  return conv;
}
