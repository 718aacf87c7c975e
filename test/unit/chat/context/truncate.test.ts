import * as assert from 'node:assert/strict';
import { truncateToTokens } from '../../../../src/chat/context/truncate';
import { estimateTokens } from '../../../../src/chat/tokens';

/** Ten lines of exactly one token each ("abc" plus the line break is four ASCII characters). */
const tenLines = Array.from({ length: 10 }, (_, i) => `ab${i}`).join('\n');

describe('chat/context/truncate', () => {
  it('returns text that fits unchanged', () => {
    assert.deepEqual(truncateToTokens('', 0), { text: '' });
    assert.deepEqual(truncateToTokens(tenLines, 10), { text: tenLines });
    assert.deepEqual(truncateToTokens(tenLines, 1000), { text: tenLines });
    assert.deepEqual(truncateToTokens(`${tenLines}\n`, 11), { text: `${tenLines}\n` });
  });

  it('keeps whole lines while the kept text is within the budget', () => {
    // Line i ends at 4i-1 characters (with i-1 breaks), so k lines cost ceil((4k-1)/4) = k tokens.
    for (let budget = 1; budget < 10; budget++) {
      const r = truncateToTokens(tenLines, budget);
      assert.deepEqual(r.truncated, { keptLines: budget, totalLines: 10 });
      assert.equal(r.text, tenLines.split('\n').slice(0, budget).join('\n'));
      assert.ok(estimateTokens(r.text) <= budget);
      // One more line would not have fitted.
      const more = tenLines
        .split('\n')
        .slice(0, budget + 1)
        .join('\n');
      assert.ok(estimateTokens(more) > budget);
    }
  });

  it('keeps nothing when the first line alone is over the budget', () => {
    assert.deepEqual(truncateToTokens('x'.repeat(100), 10), {
      text: '',
      truncated: { keptLines: 0, totalLines: 1 },
    });
    assert.deepEqual(truncateToTokens('x'.repeat(100) + '\nb\n', 10), {
      text: '',
      truncated: { keptLines: 0, totalLines: 2 },
    });
    assert.deepEqual(truncateToTokens('a\nb', 0), { text: '', truncated: { keptLines: 0, totalLines: 2 } });
    assert.deepEqual(truncateToTokens('a\nb', Number.NaN), {
      text: '',
      truncated: { keptLines: 0, totalLines: 2 },
    });
  });

  it('does not count a final line break as another line', () => {
    const text = 'aaa\nbbb\ncccc\n';
    assert.deepEqual(truncateToTokens(text, 1), { text: 'aaa', truncated: { keptLines: 1, totalLines: 3 } });
    assert.deepEqual(truncateToTokens(text, 2), {
      text: 'aaa\nbbb',
      truncated: { keptLines: 2, totalLines: 3 },
    });
    // All three lines fit, only the last break does not: it is dropped, nothing is marked missing.
    assert.deepEqual(truncateToTokens(text, 3), { text: 'aaa\nbbb\ncccc' });
    assert.equal(estimateTokens(text), 4);
  });

  it('counts CRLF as one line break, and a lone CR as one', () => {
    const crlf = 'aa\r\nbb\r\ncc\r\ndd';
    const r = truncateToTokens(crlf, 2);
    assert.deepEqual(r, { text: 'aa\r\nbb', truncated: { keptLines: 2, totalLines: 4 } });
    assert.deepEqual(truncateToTokens('aa\rbb\rcc', 1).truncated, { keptLines: 1, totalLines: 3 });
    assert.deepEqual(truncateToTokens('a\n\r\nb', 0).truncated, { keptLines: 0, totalLines: 3 });
    // An empty first line costs nothing; the break after it does.
    assert.deepEqual(truncateToTokens('\n\n\n', 0), { text: '', truncated: { keptLines: 1, totalLines: 3 } });
  });

  it('counts wide and astral characters as estimateTokens does', () => {
    // Each line: 3 CJK (3 tokens) or 3 emoji (3 tokens, surrogate pairs); breaks are a quarter each.
    const text = ['你好世', '😀😀😀', 'éé', 'abcd'].join('\n');
    for (let budget = 0; budget <= estimateTokens(text); budget++) {
      const r = truncateToTokens(text, budget);
      assert.ok(estimateTokens(r.text) <= budget, `budget ${budget}: ${estimateTokens(r.text)}`);
      if (r.truncated) {
        const next = text
          .split('\n')
          .slice(0, r.truncated.keptLines + 1)
          .join('\n');
        assert.ok(estimateTokens(next) > budget, `budget ${budget} could keep another line`);
      }
    }
    assert.equal(truncateToTokens(text, 3).text, '你好世');
    assert.equal(truncateToTokens(text, 6).text, '你好世');
    assert.equal(truncateToTokens(text, 7).text, '你好世\n😀😀😀');
  });

  it('keeps the budget on random text, and the most lines that fit', () => {
    const alphabet = ['a', ' ', 'é', '你', '😀', '\n', '\r\n', '\r', '\ud800'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      let text = '';
      const len = Math.floor(next() * 60);
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const budget = Math.floor(next() * 20);
      const r = truncateToTokens(text, budget);
      assert.ok(estimateTokens(r.text) <= budget || (!r.truncated && estimateTokens(text) <= budget));
      assert.ok(text.startsWith(r.text));
      if (r.truncated) {
        const lines = text.split(/\r\n|\n|\r/);
        if (/[\r\n]$/.test(text)) lines.pop();
        assert.equal(r.truncated.totalLines, lines.length, JSON.stringify(text));
        assert.equal(r.text, text.slice(0, r.text.length));
        if (r.truncated.keptLines > 0) {
          const kept = text.split(/\r\n|\n|\r/).slice(0, r.truncated.keptLines);
          assert.equal(r.text.split(/\r\n|\n|\r/).length, kept.length);
        }
      } else assert.ok(r.text === text || r.text === text.replace(/(\r\n|\n|\r)$/, ''));
    }
  });

  it('cuts a megabyte file in one pass', () => {
    const line = 'export const value = computeSomething(input, 42);\n';
    const text = line.repeat(Math.ceil(1_000_000 / line.length));
    const r = truncateToTokens(text, 20_000);
    const perLine = line.length / 4;
    assert.equal(r.truncated?.totalLines, Math.ceil(1_000_000 / line.length));
    assert.ok(Math.abs((r.truncated?.keptLines ?? 0) - 20_000 / perLine) <= 1);
    assert.ok(estimateTokens(r.text) <= 20_000);
  });
});
