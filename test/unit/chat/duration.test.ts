import * as assert from 'node:assert/strict';
import { formatDuration } from '../../../src/chat/duration';
import { conversationToMarkdown } from '../../../src/chat/exportMarkdown';
import type { Conversation } from '../../../src/chat/types';

describe('chat/duration formatDuration', () => {
  it('writes whole seconds, never 0s, and minutes past one minute', () => {
    assert.equal(formatDuration(0), '1s');
    assert.equal(formatDuration(400), '1s');
    assert.equal(formatDuration(1499), '1s');
    assert.equal(formatDuration(12_345), '12s');
    assert.equal(formatDuration(59_400), '59s');
    assert.equal(formatDuration(60_000), '1m');
    assert.equal(formatDuration(125_000), '2m 5s');
    assert.equal(formatDuration(900, true), '0s', 'a running clock starts at 0s');
    assert.equal(formatDuration(61_900, true), '1m 1s');
  });

  it('the export says what the chat view says: "Thinking (1s)" for a short reasoning', () => {
    const conversation: Conversation = {
      id: 'c',
      title: 't',
      model: 'm',
      createdAt: 0,
      updatedAt: 0,
      turns: [
        { id: 'u', role: 'user', content: 'q', createdAt: 0 },
        {
          id: 'a',
          role: 'assistant',
          model: 'm-thinking',
          content: 'answer',
          reasoning: 'hmm',
          reasoningMs: 300,
          status: 'complete',
          createdAt: 0,
        },
      ],
    };
    assert.match(conversationToMarkdown(conversation), /<summary>Thinking \(1s\)<\/summary>/);
  });
});
