import * as assert from 'node:assert/strict';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  finishTurn,
  startAssistantTurn,
} from '../../../src/chat/conversation';
import { conversationToMarkdown } from '../../../src/chat/exportMarkdown';

describe('chat/exportMarkdown', () => {
  const conv = createConversation('gpt-x', Date.UTC(2026, 10, 22, 7, 34, 55), 'c1');
  addUserTurn(conv, 'Why is this slow?', {
    code: 'for (const x of xs) {\n  await f(x);\n}\n',
    language: 'typescript',
    fileName: 'src/loop.ts',
    startLine: 40,
  });
  const a1 = startAssistantTurn(conv, 'thinker-1');
  appendToTurn(conv, a1.id, { reasoning: 'The awaits run in sequence.</details><script>x</script>' });
  appendToTurn(conv, a1.id, { text: 'Each `await` waits for the previous call.' });
  finishTurn(conv, a1.id, {
    status: 'complete',
    reasoningMs: 2345,
    usage: { prompt_tokens: 120, completion_tokens: 340, total_tokens: 460, reasoning_tokens: 200 },
  });
  addUserTurn(conv, 'Show a faster version');
  const a2 = startAssistantTurn(conv, 'thinker-1');
  appendToTurn(conv, a2.id, { text: 'Use Promise.all' });
  finishTurn(conv, a2.id, { status: 'stopped' });
  addUserTurn(conv, 'Again');
  const a3 = startAssistantTurn(conv, 'thinker-1');
  finishTurn(conv, a3.id, {
    status: 'error',
    error: { message: 'Rate limit\nexceeded', requestId: 'req_9' },
  });
  const md = conversationToMarkdown(conv);

  it('starts with the title heading and the model and dates', () => {
    const lines = md.split('\n');
    assert.equal(lines[0], '# Why is this slow?');
    assert.match(lines[2], /^_Model: thinker-1 · Started: 2026-11-22T07:34:55\.000Z · Updated: .*_$/);
  });

  it('labels each turn and keeps them in order', () => {
    const headings = md.split('\n').filter((l) => l.startsWith('### '));
    assert.deepEqual(headings, [
      '### You',
      '### Assistant (thinker-1)',
      '### You',
      '### Assistant (thinker-1)',
      '### You',
      '### Assistant (thinker-1)',
    ]);
  });

  it('renders the quote as fenced code with its file and line', () => {
    assert.ok(
      md.includes(
        '`src/loop.ts`, from line 40:\n\n```typescript\nfor (const x of xs) {\n  await f(x);\n}\n```',
      ),
    );
  });

  it('folds reasoning into a details block that the reasoning cannot close early', () => {
    assert.ok(md.includes('<details><summary>Thinking (2s)</summary>\n\nThe awaits run in sequence.'));
    assert.equal(md.match(/<\/details>/g)?.length, 1);
    assert.ok(md.includes('&lt;/details>'));
    assert.ok(md.indexOf('</details>') < md.indexOf('Each `await` waits'));
  });

  it('marks stopped and failed answers and prints usage', () => {
    assert.ok(md.includes('_Tokens: 120 prompt · 340 completion (200 reasoning) · 460 total_'));
    assert.ok(md.includes('Use Promise.all\n\n_[Stopped by the user]_'));
    assert.ok(md.includes('> **Error:** Rate limit exceeded (request id req_9)'));
    assert.ok(md.endsWith('\n'));
  });

  it('exports the same conversation to the same text', () => {
    assert.equal(conversationToMarkdown(conv), md);
  });
});
