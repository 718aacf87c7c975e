/** estimateTokens counts by code point with an index loop; it must agree with a plain for…of count. */
import * as assert from 'node:assert/strict';
import { codePointQuarterTokens, estimateTokens } from '../../../../src/chat/tokens';

function reference(text: string): number {
  let quarters = 0;
  for (const ch of text) quarters += codePointQuarterTokens(ch.codePointAt(0) ?? 0);
  return Math.ceil(quarters / 4);
}

describe('chat/tokens estimateTokens by code point', () => {
  it('agrees with a for…of count, including astral characters and lone surrogates', () => {
    const pieces = ['a', 'é', '你', '😀', '𝄞', '\ud800', '\udc00', '\ud83d', '\r\n', 'ｱ', '\u{20000}'];
    let seed = 99;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 2000; round++) {
      let text = '';
      for (let i = next(40); i > 0; i--) text += pieces[next(pieces.length)];
      assert.equal(estimateTokens(text), reference(text), JSON.stringify(text));
    }
    // A high surrogate at the very end, and a low one at the very start.
    assert.equal(estimateTokens('abc\ud83d'), reference('abc\ud83d'));
    assert.equal(estimateTokens('\ude00abc'), reference('\ude00abc'));
    assert.equal(estimateTokens('😀'), 1);
    assert.equal(estimateTokens('\ud83d\ud83d'), 1);
  });
});
