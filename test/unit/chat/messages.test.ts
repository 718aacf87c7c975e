import * as assert from 'node:assert/strict';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  finishTurn,
  startAssistantTurn,
} from '../../../src/chat/conversation';
import { fenceFor, toGatewayMessages } from '../../../src/chat/messages';

describe('chat/messages', () => {
  it('puts the system prompt first and then every turn in order', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'Q1');
    const a1 = startAssistantTurn(conv, 'm');
    appendToTurn(conv, a1.id, { text: 'A1' });
    finishTurn(conv, a1.id, { status: 'complete' });
    addUserTurn(conv, 'Q2');
    assert.deepEqual(toGatewayMessages(conv, 'Be brief.'), [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
    ]);
  });

  it('omits a blank system prompt', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'Q');
    assert.deepEqual(toGatewayMessages(conv, '  \n'), [{ role: 'user', content: 'Q' }]);
  });

  it('never sends reasoning, in any message', () => {
    const conv = createConversation('m', 0);
    for (const status of ['complete', 'stopped', 'interrupted', 'truncated', 'error'] as const) {
      addUserTurn(conv, `question ${status}`);
      const t = startAssistantTurn(conv, 'thinker');
      appendToTurn(conv, t.id, { reasoning: `SECRET-REASONING-${status}`, text: `answer ${status}` });
      finishTurn(conv, t.id, { status });
    }
    const messages = toGatewayMessages(conv, 'sys');
    assert.equal(messages.length, 11);
    for (const m of messages) assert.ok(!m.content.includes('SECRET-REASONING'), m.content);
    assert.deepEqual(Object.keys(messages[2]).sort(), ['content', 'role']);
  });

  it('skips the streaming turn and assistant turns without content', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'Q1');
    const failed = startAssistantTurn(conv, 'm');
    appendToTurn(conv, failed.id, { reasoning: 'thought a bit' });
    finishTurn(conv, failed.id, { status: 'error', error: { message: 'boom' } });
    addUserTurn(conv, 'Q2');
    const partialError = startAssistantTurn(conv, 'm');
    appendToTurn(conv, partialError.id, { text: 'partial' });
    finishTurn(conv, partialError.id, { status: 'error', error: { message: 'connection reset' } });
    addUserTurn(conv, 'Q3');
    const pending = startAssistantTurn(conv, 'm');
    appendToTurn(conv, pending.id, { text: 'still typing' });
    assert.deepEqual(toGatewayMessages(conv, ''), [
      { role: 'user', content: 'Q1' },
      { role: 'user', content: 'Q2' },
      { role: 'assistant', content: 'partial' },
      { role: 'user', content: 'Q3' },
    ]);
  });

  it('sends a quote as a fenced block labelled with file, language and line', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'Explain this', {
      code: 'const a = 1;\nconst b = 2;\n',
      language: 'typescript',
      fileName: 'src/a.ts',
      startLine: 12,
    });
    const [message] = toGatewayMessages(conv, '');
    assert.equal(
      message.content,
      'Explain this\n\nFrom `src/a.ts` (typescript), starting at line 12:\n```typescript\nconst a = 1;\nconst b = 2;\n```',
    );
  });

  it("sends a command's modelText in place of the text the transcript shows, with its attachments", () => {
    const conv = createConversation('m', 0);
    const turn = addUserTurn(conv, 'Explain `add` in a.ts:1', undefined, 0);
    turn.modelText = 'Explain the attached code. Surrounding lines, for context only: x';
    turn.attachments = [
      {
        id: 'a',
        kind: 'selection',
        name: 'a.ts',
        path: 'a.ts',
        startLine: 1,
        endLine: 1,
        language: 'ts',
        content: 'add()',
        tokens: 9,
      },
    ];
    const [message] = toGatewayMessages(conv, '');
    assert.ok(
      message.content.endsWith(
        'Question:\nExplain the attached code. Surrounding lines, for context only: x',
      ),
    );
    assert.ok(message.content.includes('add()'));
    assert.ok(!message.content.includes('Explain `add`'));
  });

  it('uses a fence longer than any backtick run inside the quoted code', () => {
    assert.equal(fenceFor('no ticks'), '```');
    assert.equal(fenceFor('a ```js\nx\n``` b'), '````');
    assert.equal(fenceFor('`````'), '``````');
    const conv = createConversation('m', 0);
    addUserTurn(conv, '', {
      code: '```\nnested\n```',
      language: 'markdown',
      fileName: 'README.md',
      startLine: 1,
    });
    const content = toGatewayMessages(conv, '')[0].content;
    assert.ok(content.startsWith('From `README.md` (markdown), starting at line 1:\n````markdown\n'));
    assert.ok(content.endsWith('\n````'));
  });
});
