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
  fc.record({ kind: fc.constant('other' as const), messages: fc.array(message, { maxLength: 4 }) }),
);

/** The body's bytes, whether in parts or joined. */
const joined = (body: Uint8Array | Uint8Array[]): Buffer =>
  Array.isArray(body) ? Buffer.concat(body) : Buffer.from(body);

describe('chatBodyBytes (the messages part of the last body reused)', () => {
  it('gives the UTF-8 bytes of chatBody for every request of a session, whatever came before', () => {
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
            else if (s.kind === 'edit' && messages.length) {
              // A new object, as an edited turn's message is: the earlier body's prefix no longer matches.
              messages = messages.map((m, i) =>
                i === s.at % messages.length ? { ...m, content: s.content } : m,
              );
            } else if (s.kind === 'other') {
              check({ model: 'other', messages: s.messages, max_tokens: 5 });
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
});
