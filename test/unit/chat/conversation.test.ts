import * as assert from 'node:assert/strict';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  deriveTitle,
  finishTurn,
  lastUserTurn,
  markInterrupted,
  MAX_TITLE_LENGTH,
  NEW_CONVERSATION_TITLE,
  newId,
  retractReasoning,
  startAssistantTurn,
  summarize,
  truncateFrom,
} from '../../../src/chat/conversation';
import type { AssistantTurn } from '../../../src/chat/types';

describe('chat/conversation', () => {
  it('creates an empty conversation with the given clock and id', () => {
    const conv = createConversation('model-a', 1000, 'abc');
    assert.deepEqual(conv, {
      id: 'abc',
      title: NEW_CONVERSATION_TITLE,
      model: 'model-a',
      createdAt: 1000,
      updatedAt: 1000,
      turns: [],
    });
  });

  it('newId returns distinct RFC 4122 v4 ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId()));
    assert.equal(ids.size, 1000);
    for (const id of ids)
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the first user turn names the conversation; later ones do not', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, '\n  How do I   reverse a list?\nin python', undefined, 5);
    assert.equal(conv.title, 'How do I reverse a list?');
    assert.equal(conv.updatedAt, 5);
    addUserTurn(conv, 'Another question', undefined, 6);
    assert.equal(conv.title, 'How do I reverse a list?');
    assert.equal(conv.turns.length, 2);
  });

  it('a quote-only first message is titled after the file', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, '  ', { code: 'x', language: 'ts', fileName: 'a.ts', startLine: 1 });
    assert.equal(conv.title, 'a.ts');
    assert.equal(conv.turns[0].role === 'user' && conv.turns[0].quote?.fileName, 'a.ts');
  });

  it('streams text and reasoning into the assistant turn in place, then finishes it', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'hi');
    const turn = startAssistantTurn(conv, 'thinker', 10);
    assert.equal(conv.model, 'thinker');
    assert.equal(turn.status, 'streaming');
    appendToTurn(conv, turn.id, { reasoning: 'Let me ' });
    appendToTurn(conv, turn.id, { reasoning: 'think.' });
    appendToTurn(conv, turn.id, { text: 'Hel' });
    appendToTurn(conv, turn.id, { text: 'lo' });
    assert.equal(turn.content, 'Hello');
    assert.equal(turn.reasoning, 'Let me think.');
    assert.equal(conv.turns[1], turn, 'the turn object is mutated, not replaced');
    const usage = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };
    finishTurn(conv, turn.id, { status: 'complete', usage, finishReason: 'stop', reasoningMs: 1200 }, 99);
    assert.equal(turn.status, 'complete');
    assert.deepEqual(turn.usage, usage);
    assert.equal(turn.finishReason, 'stop');
    assert.equal(turn.reasoningMs, 1200);
    assert.equal(conv.updatedAt, 99);
  });

  it('retractReasoning drops reasoning that was the answer, only while the turn streams', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'hi');
    const turn = startAssistantTurn(conv, 'thinker', 10);
    appendToTurn(conv, turn.id, { reasoning: 'The answer.' });
    assert.equal(retractReasoning(conv, turn.id), turn);
    appendToTurn(conv, turn.id, { text: 'The answer.' });
    assert.equal(turn.reasoning, undefined);
    assert.equal(turn.content, 'The answer.');
    appendToTurn(conv, turn.id, { reasoning: 'Real reasoning.' });
    finishTurn(conv, turn.id, { status: 'complete' });
    assert.equal(retractReasoning(conv, turn.id), undefined);
    assert.equal(turn.reasoning, 'Real reasoning.');
  });

  it('ignores chunks for unknown, user, or already finished turns', () => {
    const conv = createConversation('m', 0);
    const user = addUserTurn(conv, 'hi');
    const turn = startAssistantTurn(conv, 'm');
    appendToTurn(conv, turn.id, { text: 'partial' });
    finishTurn(conv, turn.id, { status: 'stopped' });
    assert.equal(appendToTurn(conv, turn.id, { text: ' late' }), undefined);
    assert.equal(appendToTurn(conv, user.id, { text: 'x' }), undefined);
    assert.equal(appendToTurn(conv, 'nope', { text: 'x' }), undefined);
    assert.equal(turn.content, 'partial');
    assert.equal(user.content, 'hi');
  });

  it('appending a long stream stays fast (no per-token copy of the conversation)', () => {
    const conv = createConversation('m', 0);
    for (let i = 0; i < 200; i++) {
      addUserTurn(conv, 'q'.repeat(1000));
      const t = startAssistantTurn(conv, 'm');
      appendToTurn(conv, t.id, { text: 'a'.repeat(5000) });
      finishTurn(conv, t.id, { status: 'complete' });
    }
    addUserTurn(conv, 'last');
    const turn = startAssistantTurn(conv, 'm');
    const start = performance.now();
    for (let i = 0; i < 50_000; i++) appendToTurn(conv, turn.id, { text: 'tok ' });
    const elapsed = performance.now() - start;
    assert.equal(turn.content.length, 200_000);
    assert.ok(elapsed < 500, `50k appends took ${elapsed.toFixed(0)} ms`);
  });

  it('finishTurn records an error and clears it on a later success', () => {
    const conv = createConversation('m', 0);
    const turn = startAssistantTurn(conv, 'm');
    finishTurn(conv, turn.id, { status: 'error', error: { message: 'Rate limited', requestId: 'r1' } });
    assert.equal(turn.error?.requestId, 'r1');
    finishTurn(conv, turn.id, { status: 'complete' });
    assert.equal(turn.error, undefined);
    assert.equal(finishTurn(conv, 'missing', { status: 'complete' }), undefined);
  });

  it('truncateFrom drops the turn and everything after it', () => {
    const conv = createConversation('m', 0);
    const u1 = addUserTurn(conv, 'one');
    startAssistantTurn(conv, 'm');
    const u2 = addUserTurn(conv, 'two');
    const a2 = startAssistantTurn(conv, 'm');
    assert.deepEqual(
      truncateFrom(conv, u2.id, 7).map((t) => t.id),
      [u2.id, a2.id],
    );
    assert.equal(conv.turns.length, 2);
    assert.equal(conv.updatedAt, 7);
    assert.deepEqual(truncateFrom(conv, 'unknown'), []);
    assert.equal(conv.turns.length, 2);
    truncateFrom(conv, u1.id);
    assert.equal(conv.turns.length, 0);
  });

  it('lastUserTurn finds the newest user turn', () => {
    const conv = createConversation('m', 0);
    assert.equal(lastUserTurn(conv), undefined);
    addUserTurn(conv, 'one');
    const two = addUserTurn(conv, 'two');
    startAssistantTurn(conv, 'm');
    assert.equal(lastUserTurn(conv), two);
  });

  it('deriveTitle keeps short lines, cuts long ones on a word, never splits an emoji', () => {
    assert.equal(deriveTitle(''), NEW_CONVERSATION_TITLE);
    assert.equal(deriveTitle(' \n\t\n'), NEW_CONVERSATION_TITLE);
    assert.equal(deriveTitle('Short one'), 'Short one');
    const long = 'Explain the difference between processes and threads in operating systems please';
    const title = deriveTitle(long);
    assert.ok(!title.includes('…'), 'no literal ellipsis: the list truncates with CSS');
    assert.ok(title.length <= MAX_TITLE_LENGTH);
    assert.ok(long.startsWith(title));
    assert.ok(!title.endsWith(' '));
    assert.equal(deriveTitle('😀'.repeat(100)), '😀'.repeat(MAX_TITLE_LENGTH));
    assert.equal(deriveTitle('x'.repeat(200)), 'x'.repeat(MAX_TITLE_LENGTH));
  });

  it('summarize gives the history line', () => {
    const conv = createConversation('m', 1, 'id1');
    addUserTurn(conv, 'Hello there', undefined, 2);
    assert.deepEqual(summarize(conv), {
      id: 'id1',
      title: 'Hello there',
      model: 'm',
      updatedAt: 2,
      turnCount: 1,
    });
  });

  it('markInterrupted turns leftover streaming turns into interrupted, keeping text', () => {
    const conv = createConversation('m', 0);
    addUserTurn(conv, 'q');
    const done = startAssistantTurn(conv, 'm');
    finishTurn(conv, done.id, { status: 'complete' });
    const cut = startAssistantTurn(conv, 'm');
    appendToTurn(conv, cut.id, { text: 'half an ans' });
    const restored = JSON.parse(JSON.stringify(conv)) as typeof conv;
    assert.equal(markInterrupted(restored), 1);
    const turn = restored.turns[2] as AssistantTurn;
    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.content, 'half an ans');
    assert.equal((restored.turns[1] as AssistantTurn).status, 'complete');
    assert.equal(markInterrupted(restored), 0);
  });
});
