// The crash trials' verdict (test/reliability/ui/crashTrials.e2e.test.ts) catches each broken promise.
import * as assert from 'node:assert/strict';
import type { Conversation } from '../../../src/chat/types';
import { crashViolations } from '../ui/crashTrialsCheck';
import { cloneConversation, streamingConversation } from '../../support/conversations';

const streaming = (id: string, text: string, now: number): Conversation =>
  streamingConversation(id, `Question ${id}`, text, now);

describe('Crash trials: the verdict on the files before and after a kill', () => {
  const before = new Map([
    ['a', streaming('a', 'The answer so far', 1000)],
    ['b', streaming('b', 'Another answer', 2000)],
  ]);

  it('accepts the same files, and files that only grew', () => {
    assert.deepEqual(crashViolations(before, before), []);
    const grown = cloneConversation(before.get('a')!);
    grown.turns[1].content += ', and more';
    grown.updatedAt = 1500;
    assert.deepEqual(crashViolations(before, new Map([...before, ['a', grown]])), []);
  });

  it('reports a lost, a shrunk and an older conversation', () => {
    const shrunk = cloneConversation(before.get('a')!);
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
    const fewer = cloneConversation(before.get('b')!);
    fewer.turns.pop();
    assert.deepEqual(
      crashViolations(before, new Map([...before, ['b', fewer]])).map((v) => v.kind),
      ['shrunk'],
    );
  });
});
