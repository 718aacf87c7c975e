// The crash trials' verdict, kept free of the editor so it can be tested on its own: what the conversation
// files held just before a kill -9 of the extension host, against what they hold after the restart.
import type { Conversation } from '../../../src/chat/types';

/** One broken promise of the store after a crash, with the conversation it concerns. */
export interface CrashViolation {
  id: string;
  kind: 'lost' | 'shrunk' | 'older';
  detail: string;
}

/**
 * Compares the conversations on disk before a kill (`before`) with those after the restart (`after`):
 * every conversation is still there ("lost"), holds at least the text and turns it had ("shrunk"), and
 * was not replaced by an earlier version of itself ("older": an earlier update time or a different turn).
 */
export function crashViolations(
  before: ReadonlyMap<string, Conversation>,
  after: ReadonlyMap<string, Conversation>,
): CrashViolation[] {
  const found: CrashViolation[] = [];
  for (const [id, was] of before) {
    const now = after.get(id);
    if (!now) {
      found.push({ id, kind: 'lost', detail: `"${was.title}" is gone (or unreadable)` });
      continue;
    }
    if (now.updatedAt < was.updatedAt) {
      found.push({
        id,
        kind: 'older',
        detail: `updated at ${now.updatedAt}, before the kill ${was.updatedAt}`,
      });
    }
    if (now.turns.length < was.turns.length) {
      found.push({
        id,
        kind: 'shrunk',
        detail: `${now.turns.length} turns, before the kill ${was.turns.length}`,
      });
    }
    was.turns.forEach((turn, i) => {
      const kept = now.turns[i];
      if (!kept) return; // counted above
      if (kept.id !== turn.id || kept.role !== turn.role) {
        found.push({
          id,
          kind: 'older',
          detail: `turn ${i} is ${kept.role} ${kept.id}, was ${turn.role} ${turn.id}`,
        });
      } else if (!kept.content.startsWith(turn.content)) {
        const kind = turn.content.startsWith(kept.content) ? 'shrunk' : 'older';
        found.push({
          id,
          kind,
          detail: `turn ${i} holds ${kept.content.length} characters that do not extend the ${turn.content.length} saved before the kill`,
        });
      }
    });
  }
  return found;
}
