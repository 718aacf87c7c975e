import * as assert from 'node:assert/strict';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  finishTurn,
  startAssistantTurn,
  truncateFrom,
} from '../../../src/chat/conversation';
import type { Attachment } from '../../../src/chat/context';
import { MessageMemo } from '../../../src/chat/messageMemo';
import { toGatewayMessages } from '../../../src/chat/messages';
import { estimateMessagesTokens } from '../../../src/chat/tokens';
import type { Conversation } from '../../../src/chat/types';

function attachment(content: string): Attachment {
  return {
    id: 'a1',
    kind: 'file',
    name: 'a.ts',
    path: 'src/a.ts',
    language: 'typescript',
    content,
    tokens: 9,
  };
}

/** What the memo must always equal: the messages built from scratch and their estimate. */
function fresh(conv: Conversation, prompt: string): { messages: unknown; estimate: number } {
  const messages = toGatewayMessages(conv, prompt);
  return { messages, estimate: estimateMessagesTokens(messages) };
}

describe('chat/messageMemo', () => {
  it('equals toGatewayMessages and its estimate through a conversation’s life', () => {
    const memo = new MessageMemo();
    const conv = createConversation('m', 0);
    const check = (prompt: string): void =>
      assert.deepEqual(memo.messages(conv, prompt), fresh(conv, prompt));
    check('Be brief.');
    const q1 = addUserTurn(conv, 'Explain this 日本語 code.');
    check('Be brief.');
    const a1 = startAssistantTurn(conv, 'm');
    check('Be brief.'); // the streaming turn is left out
    appendToTurn(conv, a1.id, { text: 'It adds ' });
    check('');
    appendToTurn(conv, a1.id, { text: 'numbers.' });
    finishTurn(conv, a1.id, { status: 'complete' });
    check('Be brief.'); // finished, its whole content is sent
    q1.attachments = [attachment('export const a = 1;\n')];
    check('Be brief.'); // attachments added to a turn are formatted again
    q1.attachments = [attachment('export const a = 2;\n')];
    check('Be brief.');
    q1.content = 'Edited.';
    check('   ');
    addUserTurn(conv, 'And this?', { fileName: 'b.py', language: 'python', code: 'x = 1\n', startLine: 3 });
    check('Be brief.');
    truncateFrom(conv, a1.id);
    check('Be brief.');
  });

  it('formats an unchanged turn once: the same message comes back', () => {
    const memo = new MessageMemo();
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'Q1');
    const first = memo.messages(conv, 'S').messages;
    addUserTurn(conv, 'Q2');
    const second = memo.messages(conv, 'S').messages;
    assert.equal(second.length, 3);
    assert.equal(second[1], first[1]);
  });
});
