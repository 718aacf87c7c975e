// The crash trials' verdict (test/reliability/ui/crashTrials.e2e.test.ts) catches each broken promise.
import * as assert from 'node:assert/strict';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  startAssistantTurn,
} from '../../../src/chat/conversation';
import type { Conversation } from '../../../src/chat/types';
import { crashViolations } from '../ui/crashTrialsCheck';

const copy = (conv: Conversation): Conversation => JSON.parse(JSON.stringify(conv)) as Conversation;

function streaming(id: string, text: string, now: number): Conversation {
  const conv = createConversation('model-x', now, id);
  addUserTurn(conv, `Question ${id}`, undefined, now);
  const turn = startAssistantTurn(conv, 'model-x', now);
  appendToTurn(conv, turn.id, { text });
  conv.updatedAt = now;
  return conv;
}

describe('Crash trials: the verdict on the files before and after a kill', () => {
  const before = new Map([
    ['a', streaming('a', 'The answer so far', 1000)],
    ['b', streaming('b', 'Another answer', 2000)],
  ]);

  it('accepts the same files, and files that only grew', () => {
    assert.deepEqual(crashViolations(before, before), []);
    const grown = copy(before.get('a')!);
    grown.turns[1].content += ', and more';
    grown.updatedAt = 1500;
    assert.deepEqual(crashViolations(before, new Map([...before, ['a', grown]])), []);
  });

  it('reports a lost, a shrunk and an older conversation', () => {
    const shrunk = copy(before.get('a')!);
    shrunk.turns[1].content = 'The answer';
    const older = streaming('b', 'Something else entirely', 1500);
    older.turns = older.turns.map((t, i) => ({ ...t, id: before.get('b')!.turns[i].id }));
    assert.deepEqual(
      crashViolations(before, new Map([['a', shrunk]])).map((v) => [v.id, v.kind]),
      [
        ['a', 'shrunk'],
        ['b', 'lost'],
      ],
    );
    assert.deepEqual(
      crashViolations(before, new Map([...before, ['b', older]])).map((v) => [v.id, v.kind]),
      [
        ['b', 'older'],
        ['b', 'older'],
      ],
    );
    const fewer = copy(before.get('b')!);
    fewer.turns.pop();
    assert.deepEqual(
      crashViolations(before, new Map([...before, ['b', fewer]])).map((v) => v.kind),
      ['shrunk'],
    );
  });
});
