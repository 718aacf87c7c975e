/** Attachments in user turns: what is sent, exported, saved and loaded back. */
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  finishTurn,
  startAssistantTurn,
} from '../../../src/chat/conversation';
import { attachmentTokens, formatAttachment, withAttachments } from '../../../src/chat/context/format';
import type { Attachment } from '../../../src/chat/context/types';
import { conversationToMarkdown } from '../../../src/chat/exportMarkdown';
import { toGatewayMessages, withQuote } from '../../../src/chat/messages';
import { parseConversationFile, serializeConversation } from '../../../src/chat/storeFormat';
import type { Conversation } from '../../../src/chat/types';
import { useTempStore } from './storeFixtures';

function attachment(over: Partial<Attachment> = {}): Attachment {
  const a: Omit<Attachment, 'tokens'> = {
    id: 'att-1',
    kind: 'selection',
    name: 'loop.ts',
    path: 'src/loop.ts',
    startLine: 3,
    endLine: 5,
    language: 'typescript',
    content: 'for (const x of xs) {\n  await f(x);\n}\n',
    ...over,
  };
  return { ...a, tokens: attachmentTokens(a) };
}

const problems: Attachment = (() => {
  const a: Omit<Attachment, 'tokens'> = {
    id: 'att-2',
    kind: 'problems',
    name: 'Problems',
    path: '',
    language: '',
    content: "src/loop.ts:4:3 error TS2304: Cannot find name 'f'.",
  };
  return { ...a, tokens: attachmentTokens(a) };
})();

function conversationWithAttachments(): Conversation {
  const conv = createConversation('m', Date.UTC(2026, 0, 2), 'conv-att');
  addUserTurn(conv, 'Why is this slow?', undefined, 1).attachments = [attachment(), problems];
  const answer = startAssistantTurn(conv, 'm', 2);
  appendToTurn(conv, answer.id, { text: 'Sequential awaits.' });
  finishTurn(conv, answer.id, { status: 'complete' });
  addUserTurn(conv, 'And now?', undefined, 3);
  return conv;
}

describe('chat attachments in turns', () => {
  it('sends a turn with attachments as the blocks followed by the question', () => {
    const conv = conversationWithAttachments();
    const messages = toGatewayMessages(conv, '');
    assert.equal(messages[0].content, withAttachments('Why is this slow?', [attachment(), problems]));
    assert.match(messages[0].content, /^The user attached 2 items/);
    assert.ok(messages[0].content.includes(formatAttachment(attachment())));
    assert.ok(messages[0].content.endsWith('\n\nQuestion:\nWhy is this slow?'));
    // Later turns without attachments are unchanged, and the earlier ones keep theirs on every request.
    assert.deepEqual(messages.slice(1), [
      { role: 'assistant', content: 'Sequential awaits.' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('puts a quote with the question, after the attachments', () => {
    const conv = createConversation('m', 0);
    const quote = { code: 'x()', language: 'js', fileName: 'a.js', startLine: 7 };
    const turn = addUserTurn(conv, 'Explain', quote);
    turn.attachments = [attachment()];
    const [message] = toGatewayMessages(conv, '');
    assert.equal(message.content, withAttachments(withQuote('Explain', quote), [attachment()]));
    assert.ok(message.content.indexOf('Question:\nExplain') > message.content.indexOf('</attachment>'));
  });

  it('sends a turn with an empty attachment list as the plain question', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'Hi').attachments = [];
    assert.deepEqual(toGatewayMessages(conv, ''), [{ role: 'user', content: 'Hi' }]);
  });

  it('exports attachments as collapsed blocks with name, path and lines', () => {
    const md = conversationToMarkdown(conversationWithAttachments());
    assert.ok(
      md.includes(
        '<details><summary>Attached: loop.ts (src/loop.ts:3-5)</summary>\n\n```typescript\nfor (const x of xs) {\n  await f(x);\n}\n```\n\n</details>',
      ),
      md,
    );
    assert.ok(
      md.includes(
        "<details><summary>Attached: Problems</summary>\n\n```\nsrc/loop.ts:4:3 error TS2304: Cannot find name 'f'.\n```",
      ),
    );
    assert.ok(md.indexOf('Why is this slow?') < md.indexOf('Attached: loop.ts'));
  });

  it('exports hostile attachment text without breaking out of the block', () => {
    const conv = createConversation('m', 0);
    const hostile = attachment({
      name: '<img src=x onerror=alert(1)>',
      path: 'a/<b>.ts',
      content: '</details>\n```\n<script>x</script>',
      truncated: { keptLines: 3, totalLines: 90 },
    });
    addUserTurn(conv, 'Q').attachments = [hostile];
    const md = conversationToMarkdown(conv);
    assert.ok(
      md.includes(
        '<summary>Attached: &lt;img src=x onerror=alert(1)&gt; (a/&lt;b&gt;.ts:3-5), truncated: kept 3 of 90 lines</summary>',
      ),
    );
    assert.ok(md.includes('````typescript\n</details>\n```\n<script>x</script>\n````\n\n</details>'));
  });

  it('keeps attachments through serialize and parse', () => {
    const conv = conversationWithAttachments();
    const parsed = parseConversationFile(serializeConversation(conv), conv.id);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, conv);
  });

  it("keeps a command's modelText through serialize and parse, and refuses one that is not text", () => {
    const conv = conversationWithAttachments();
    const first = conv.turns[0];
    assert.equal(first.role, 'user');
    if (first.role === 'user')
      first.modelText = 'Explain the attached code. Surrounding lines, for context only: …';
    const parsed = parseConversationFile(serializeConversation(conv), conv.id);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, conv);
    const broken = serializeConversation(conv).replace(/"modelText":"[^"]*"/, '"modelText":42');
    assert.equal(parseConversationFile(broken, conv.id).ok, false);
  });

  it('drops malformed attachments on load and keeps the rest of the conversation', () => {
    const conv = conversationWithAttachments();
    const good = attachment();
    const bad: unknown[] = [
      null,
      'text',
      { ...good, kind: 'shell' },
      { ...good, content: 42 },
      { ...good, tokens: -1 },
      { ...good, tokens: undefined },
      { ...good, startLine: 0 },
      { ...good, endLine: 1.5 },
      { ...good, path: '../outside.ts' },
      { ...good, path: '/etc/passwd' },
      { ...good, truncated: { keptLines: 'all' } },
      { ...good, id: undefined },
    ];
    const raw = JSON.parse(serializeConversation(conv)) as {
      conversation: { turns: Array<Record<string, unknown>> };
    };
    raw.conversation.turns[0].attachments = [bad[0], good, ...bad.slice(1)];
    raw.conversation.turns[2].attachments = { not: 'a list' };
    const parsed = parseConversationFile(JSON.stringify(raw), conv.id);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
    const [first, , third] = parsed.value.turns;
    assert.ok(first.role === 'user' && third.role === 'user');
    assert.deepEqual(first.attachments, [good]);
    assert.equal('attachments' in third, false);
    assert.equal(parsed.value.turns.length, 3);
  });

  it('removes the list when no attachment in it is valid', () => {
    const conv = conversationWithAttachments();
    const raw = JSON.parse(serializeConversation(conv)) as {
      conversation: { turns: Array<Record<string, unknown>> };
    };
    raw.conversation.turns[0].attachments = [{ id: 'x' }];
    const parsed = parseConversationFile(JSON.stringify(raw), conv.id);
    assert.ok(parsed.ok);
    assert.equal('attachments' in parsed.value.turns[0], false);
  });

  describe('in a real store', () => {
    const ctx = useTempStore();

    it('saves attachments and loads them back after a reopen', async () => {
      const conv = conversationWithAttachments();
      await ctx.store.save(conv);
      const loaded = await ctx.reopen().load(conv.id);
      assert.deepEqual(loaded.problems, []);
      assert.deepEqual(loaded.conversation, conv);
      assert.deepEqual(toGatewayMessages(loaded.conversation!, ''), toGatewayMessages(conv, ''));
    });

    it('loads a file with a hand-broken attachment, without it', async () => {
      const conv = conversationWithAttachments();
      await ctx.store.save(conv);
      const text = await fsp.readFile(ctx.convFile(conv.id), 'utf8');
      await fsp.writeFile(ctx.convFile(conv.id), text.replace('"kind":"problems"', '"kind":42'));
      const loaded = await ctx.reopen().load(conv.id);
      assert.deepEqual(loaded.problems, []);
      const first = loaded.conversation?.turns[0];
      assert.ok(first?.role === 'user');
      assert.deepEqual(first.attachments, [attachment()]);
    });
  });
});
