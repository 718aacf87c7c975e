import * as assert from 'node:assert/strict';
import type { ChatMessage } from '../../../src/gateway/types';
import {
  dropOldestTurns,
  estimateMessagesTokens,
  estimateTokens,
  MESSAGE_OVERHEAD_TOKENS,
  planContextFit,
  REPLY_PRIMING_TOKENS,
} from '../../../src/chat/tokens';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });
const system = (content: string): ChatMessage => ({ role: 'system', content });

describe('chat/tokens', () => {
  it('estimates ASCII at about four characters per token, rounded up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('a'), 1);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('x'.repeat(4000)), 1000);
  });

  it('counts CJK, kana, Hangul and emoji as one token per character', () => {
    assert.equal(estimateTokens('你好世界'), 4);
    assert.equal(estimateTokens('こんにちは'), 5);
    assert.equal(estimateTokens('안녕하세요'), 5);
    assert.equal(estimateTokens('😀😀'), 2);
    // Far more than chars/4 would say: a naive estimate would undercount CJK fourfold.
    assert.ok(estimateTokens('漢'.repeat(1000)) >= 1000);
  });

  it('counts other non-ASCII at half a token per character', () => {
    assert.equal(estimateTokens('éééé'), 2);
    assert.equal(estimateTokens('Привет'), 3);
  });

  it('adds per-message overhead and reply priming', () => {
    const messages = [system('abcd'), user('abcdefgh')];
    assert.equal(
      estimateMessagesTokens(messages),
      REPLY_PRIMING_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS + 1 + 2,
    );
    assert.equal(estimateMessagesTokens([]), REPLY_PRIMING_TOKENS);
  });

  it('counts a tool-call turn with content null by its calls, and a tool result by its text', () => {
    const arguments_ = '{"city":"Oslo"}'; // 15 characters
    const messages: ChatMessage[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'weather', arguments: arguments_ } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'abcd' },
    ];
    assert.equal(
      estimateMessagesTokens(messages),
      REPLY_PRIMING_TOKENS + 2 * MESSAGE_OVERHEAD_TOKENS + estimateTokens(`weather${arguments_}`) + 1,
    );
  });

  it('reports a fit when the estimate is within context minus the reserved output', () => {
    const messages = [system('s'), user('hello')];
    const estimate = estimateMessagesTokens(messages);
    assert.deepEqual(planContextFit(messages, estimate + 100, 100), {
      fits: true,
      estimate,
      dropCount: 0,
      canFit: true,
    });
    assert.equal(planContextFit(messages, estimate + 99, 100).fits, false);
  });

  it('drops whole oldest exchanges, never the system prompt or the last question', () => {
    const big = 'x'.repeat(400); // 100 tokens + 4 overhead
    const messages = [
      system('rules'),
      user(big),
      assistant(big),
      user(big),
      assistant(big),
      user(big),
      assistant(big),
      user('the question'),
    ];
    const full = estimateMessagesTokens(messages);
    // Room for everything but about one exchange.
    const plan = planContextFit(messages, full - 250 + 1000, 1000);
    assert.equal(plan.fits, false);
    assert.equal(plan.estimate, full);
    assert.equal(plan.dropCount, 4, 'two messages are not enough, so two whole exchanges go');
    assert.equal(plan.canFit, true);
    const trimmed = dropOldestTurns(messages, plan.dropCount);
    assert.deepEqual(trimmed, [system('rules'), user(big), assistant(big), user('the question')]);
    assert.ok(estimateMessagesTokens(trimmed) <= full - 250);
  });

  it('says when even the last exchange alone cannot fit', () => {
    const messages = [system('s'), user('a'), assistant('b'), user('y'.repeat(40_000))];
    const plan = planContextFit(messages, 4000, 1000);
    assert.equal(plan.fits, false);
    assert.equal(plan.canFit, false);
    assert.equal(plan.dropCount, 2);
  });

  it('dropOldestTurns keeps system messages and does not start history with a reply', () => {
    const messages = [
      system('s'),
      user('u1'),
      assistant('a1'),
      assistant('a1b'),
      user('u2'),
      assistant('a2'),
    ];
    assert.deepEqual(dropOldestTurns(messages, 1), [system('s'), user('u2'), assistant('a2')]);
    assert.deepEqual(dropOldestTurns(messages, 0), messages);
    assert.deepEqual(dropOldestTurns(messages, 99), [system('s')]);
    assert.notEqual(dropOldestTurns(messages, 0), messages, 'returns a copy');
    const opensWithReply = [assistant('greeting'), user('q')];
    assert.deepEqual(dropOldestTurns(opensWithReply, 0), opensWithReply);
  });
});
