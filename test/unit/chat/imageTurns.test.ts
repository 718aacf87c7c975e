import * as assert from 'node:assert/strict';
import {
  addUserTurn,
  createConversation,
  markInterrupted,
  startAssistantTurn,
} from '../../../src/chat/conversation';
import { conversationToMarkdown } from '../../../src/chat/exportMarkdown';
import { finishImageTurn, relativeLink, startImageTurn } from '../../../src/chat/imageTurns';
import { toGatewayMessages } from '../../../src/chat/messages';
import { parseConversationFile, serializeConversation } from '../../../src/chat/storeFormat';
import type { Conversation, ImageTurnOptions } from '../../../src/chat/types';

const OPTIONS: ImageTurnOptions = { size: '1536x1024', quality: 'high', n: 2, responseFormat: 'b64_json' };

function withImages(): { conv: Conversation; turnId: string } {
  const conv = createConversation('chat-model', 1000, 'c-1');
  const turn = startImageTurn(
    conv,
    { content: '/image a red fox --n 2', prompt: 'a red fox', model: 'image-model', options: OPTIONS },
    2000,
  );
  finishImageTurn(
    conv,
    turn.id,
    {
      status: 'complete',
      images: [
        { path: 'images/fox one.png', revisedPrompt: 'A red fox <b>in</b> snow' },
        { path: 'images/fox-2.png' },
      ],
    },
    5000,
  );
  return { conv, turnId: turn.id };
}

describe('chat/imageTurns', () => {
  it('names an untitled conversation after the prompt and records the files and duration', () => {
    const { conv, turnId } = withImages();
    assert.equal(conv.title, 'a red fox');
    const turn = conv.turns.find((t) => t.id === turnId);
    assert.ok(turn?.role === 'image');
    assert.equal(turn.status, 'complete');
    assert.equal(turn.durationMs, 3000);
    assert.deepEqual(
      turn.images.map((i) => i.path),
      ['images/fox one.png', 'images/fox-2.png'],
    );
  });

  it('finishes a turn once: a late outcome after Stop changes nothing', () => {
    const conv = createConversation('m', 0, 'c-2');
    const turn = startImageTurn(conv, { content: '/image x', prompt: 'x', model: 'i', options: OPTIONS }, 0);
    assert.ok(finishImageTurn(conv, turn.id, { status: 'stopped' }, 10));
    assert.equal(
      finishImageTurn(conv, turn.id, { status: 'complete', images: [{ path: 'a.png' }] }, 20),
      undefined,
    );
    assert.equal(turn.status, 'stopped');
    assert.deepEqual(turn.images, []);
  });

  it('is never sent to the chat model: a later question goes out without it', () => {
    const { conv } = withImages();
    addUserTurn(conv, 'What is a fox?', undefined, 6000);
    startAssistantTurn(conv, 'chat-model', 7000);
    const messages = toGatewayMessages(conv, 'Be brief.');
    assert.deepEqual(messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is a fox?' },
    ]);
    assert.ok(!JSON.stringify(messages).includes('fox one'));
  });

  it('exports images as relative Markdown links from the exported file folder', () => {
    const { conv } = withImages();
    const atRoot = conversationToMarkdown(conv);
    assert.match(atRoot, /!\[a red fox\]\(images\/fox%20one\.png\)/);
    assert.match(atRoot, /!\[a red fox\]\(images\/fox-2\.png\)/);
    assert.match(atRoot, /Revised prompt: A red fox <b>in<\/b> snow/);
    const inDocs = conversationToMarkdown(conv, 'docs/notes');
    assert.match(inDocs, /!\[a red fox\]\(\.\.\/\.\.\/images\/fox%20one\.png\)/);
  });

  it('computes relative links between folders', () => {
    assert.equal(relativeLink('', 'images/a.png'), 'images/a.png');
    assert.equal(relativeLink('images', 'images/a.png'), 'a.png');
    assert.equal(relativeLink('docs', 'images/a b.png'), '../images/a%20b.png');
    assert.equal(relativeLink('images/sub', 'images/a.png'), '../a.png');
  });

  it('is stored as paths and metadata, and loads back the same', () => {
    const { conv } = withImages();
    const text = serializeConversation(conv);
    const loaded = parseConversationFile(text, 'c-1');
    assert.ok(loaded.ok);
    assert.deepEqual(loaded.value, conv);
  });

  it('refuses a stored image turn whose path leaves the workspace, or with options the gateway does not accept', () => {
    for (const bad of ['../secret.png', '/etc/passwd', 'C:/x.png', 'images/../../x.png', '']) {
      const { conv } = withImages();
      const turn = conv.turns[0];
      assert.ok(turn.role === 'image');
      turn.images[0].path = bad;
      assert.equal(parseConversationFile(serializeConversation(conv), 'c-1').ok, false, bad);
    }
    const { conv } = withImages();
    const turn = conv.turns[0];
    assert.ok(turn.role === 'image');
    (turn.options as { size: string }).size = '800x600';
    assert.equal(parseConversationFile(serializeConversation(conv), 'c-1').ok, false);
  });

  it('marks an image turn cut off while generating as interrupted on load', () => {
    const conv = createConversation('m', 0, 'c-3');
    const turn = startImageTurn(conv, { content: '/image x', prompt: 'x', model: 'i', options: OPTIONS }, 0);
    assert.equal(markInterrupted(conv), 1);
    assert.equal(turn.status, 'interrupted');
  });
});
