import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { chatBodyBytes } from '../../../src/gateway/chatBodyBytes';
import { chatBody } from '../../../src/gateway/config';
import type { ChatCompletionRequest, ChatMessage } from '../../../src/gateway/types';

/** Text with every kind of character JSON escapes or encodes on several bytes, lone surrogates included. */
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string());
const message: fc.Arbitrary<ChatMessage> = fc.record({
  role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
  content: text,
});

/** One step of a session: a new turn pair on the conversation, an edit of an earlier message, or another chat. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('grow' as const), added: fc.array(message, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), content: text }),
  fc.record({
    kind: fc.constant('other' as const),
    messages: fc.array(message, { maxLength: 4 }),
    // A large one is kept beside the session's own body.
    large: fc.boolean(),
  }),
  // A message that takes the body past 64 KB: from then on it goes in parts and its bytes are kept.
  fc.record({ kind: fc.constant('large' as const), content: text }),
);

const LARGE = 'L'.repeat(70 * 1024);

/** The body's bytes, whether in parts or joined. */
const joined = (body: Uint8Array | Uint8Array[]): Buffer =>
  Array.isArray(body) ? Buffer.concat(body) : Buffer.from(body);

describe('chatBodyBytes (the messages part of an earlier body reused)', () => {
  it('gives the UTF-8 bytes of chatBody for every request of a session, large or small, whatever came before', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 6 }),
        fc.array(step, { maxLength: 14 }),
        fc.boolean(),
        (start, steps, stream) => {
          let messages = start;
          const check = (request: ChatCompletionRequest): void => {
            assert.deepEqual(joined(chatBodyBytes(request, stream)), Buffer.from(chatBody(request, stream)));
          };
          check({ model: 'm', messages });
          for (const s of steps) {
            if (s.kind === 'grow') messages = [...messages, ...s.added];
            else if (s.kind === 'large')
              messages = [...messages, { role: 'user', content: LARGE + s.content }];
            else if (s.kind === 'edit' && messages.length) {
              // A new object, as an edited turn's message is: the earlier body's prefix no longer matches.
              messages = messages.map((m, i) =>
                i === s.at % messages.length ? { ...m, content: s.content } : m,
              );
            } else if (s.kind === 'other') {
              const others: ChatMessage[] = s.large
                ? [{ role: 'user', content: LARGE }, ...s.messages]
                : s.messages;
              check({ model: 'other', messages: others, max_tokens: 5 });
              continue;
            }
            check({ model: 'm', messages, temperature: 0.5 });
          }
        },
      ),
    );
  });

  it('the same body twice, and a conversation grown by a turn pair, match a plain JSON.stringify', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Quote "this", 漢字 and 🎉\n' },
    ];
    const request = { model: ' m ', messages };
    const plain = (r: ChatCompletionRequest): string =>
      JSON.stringify({ model: r.model.trim(), messages: r.messages, stream: true });
    assert.equal(joined(chatBodyBytes(request, true)).toString(), plain(request));
    assert.equal(joined(chatBodyBytes(request, true)).toString(), plain(request));
    const grown = {
      model: 'm',
      messages: [
        ...messages,
        { role: 'assistant' as const, content: 'Ok.' },
        { role: 'user' as const, content: 'é' },
      ],
    };
    assert.equal(joined(chatBodyBytes(grown, true)).toString(), plain(grown));
  });

  it('a large body comes in parts that share the kept bytes, joined again past eight runs, and match chatBody', () => {
    let messages: ChatMessage[] = [{ role: 'system', content: 'Be brief. ü' }];
    let earlier: Uint8Array[] | undefined;
    for (let i = 0; i < 12; i++) {
      messages = [
        ...messages,
        { role: 'user', content: `question ${i} «${'x'.repeat(4000)}»` },
        { role: 'assistant', content: `answer ${i} ${'y'.repeat(4000)} 🎉` },
      ];
      const request = { model: 'm', messages };
      const body = chatBodyBytes(request, true);
      const large = Buffer.byteLength(chatBody(request, true)) >= 64 * 1024;
      assert.equal(Array.isArray(body), large, `request ${i}: in parts exactly when 64 KB or more`);
      assert.deepEqual(joined(body), Buffer.from(chatBody(request, true)));
      if (Array.isArray(body) && earlier) {
        // The run of bytes that began the last body's messages is the same object, unless the runs were joined.
        assert.ok(body.length <= 8 + 2, 'at most eight runs between the head and the tail');
        if (body.length > 3) assert.equal(body[1], earlier[1]);
      }
      earlier = Array.isArray(body) ? body : undefined;
    }
  });

  it("a large conversation's next body still shares its kept bytes after other requests came between", () => {
    const long = (tag: string, turns: number): ChatMessage[] => [
      { role: 'system', content: 'Be brief.' },
      ...Array.from({ length: turns }, (_, i) => ({
        role: i % 2 ? ('assistant' as const) : ('user' as const),
        content: `${tag} ${i} ${'z'.repeat(4000)}`,
      })),
    ];
    const chat = long('chat', 20);
    const first = chatBodyBytes({ model: 'm', messages: chat }, true);
    assert.ok(Array.isArray(first), 'large: in parts');
    // A keystroke's inline completions (small, never kept), then other large conversations.
    for (let i = 0; i < 10; i++)
      chatBodyBytes({ model: 'c', messages: [{ role: 'user', content: `complete ${i}` }] }, false);
    for (const tag of ['agent', 'other chat', 'third'])
      chatBodyBytes({ model: 'm', messages: long(tag, 20) }, true);
    const grown = [...chat, { role: 'user' as const, content: 'and now?' }];
    const next = chatBodyBytes({ model: 'm', messages: grown }, true);
    assert.ok(Array.isArray(next));
    assert.equal(next[1], first[1], 'the conversation’s kept run is the same bytes, not encoded again');
    assert.deepEqual(joined(next), Buffer.from(chatBody({ model: 'm', messages: grown }, true)));

    // Past four other large bodies, the oldest is dropped: its next body is encoded whole (and still right).
    for (const tag of ['a', 'b', 'c', 'd']) chatBodyBytes({ model: 'm', messages: long(tag, 20) }, true);
    const again = [...grown, { role: 'assistant' as const, content: 'fine' }];
    const late = chatBodyBytes({ model: 'm', messages: again }, true);
    assert.ok(Array.isArray(late));
    assert.notEqual(late[1], first[1]);
    assert.deepEqual(joined(late), Buffer.from(chatBody({ model: 'm', messages: again }, true)));
  });
});
