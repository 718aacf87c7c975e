import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { estimateTokens } from '../../../src/chat/tokens';
import { truncateToolResult } from '../../../src/agent/truncate';

const line = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '😀', '中', '{'), maxLength: 60 });
const output = fc
  .tuple(fc.array(line, { maxLength: 80 }), fc.boolean(), fc.boolean())
  .map(([lines, crlf, final]) => lines.join(crlf ? '\r\n' : '\n') + (final && lines.length ? '\n' : ''));
const longLine = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', 'é', '😀', '中', '{'),
  minLength: 5,
  maxLength: 60,
});
const longOutput = fc
  .tuple(fc.array(longLine, { minLength: 20, maxLength: 80 }), fc.boolean(), fc.boolean())
  .map(([lines, crlf, final]) => lines.join(crlf ? '\r\n' : '\n') + (final ? '\n' : ''));
const hasLoneSurrogate = (s: string): boolean =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
const MARKER =
  /\[Cut: the result was over \d+ tokens; (?:nothing shown|lines (\d+)–(\d+) of (\d+) shown(, line \d+ only in part)?)\. [^\]]*\]/;

describe('truncateToolResult', () => {
  it('leaves a result within the budget as it is', () => {
    fc.assert(
      fc.property(output, fc.constantFrom('head' as const, 'tail' as const), (text, keep) => {
        const max = estimateTokens(text);
        assert.deepEqual(truncateToolResult(text, { maxTokens: max, keep, estimateTokens }), { text });
      }),
    );
  });

  it('cuts to the budget: a prefix for a head, a suffix for a tail, with a marker naming the lines shown', () => {
    fc.assert(
      fc.property(
        longOutput,
        fc.integer({ min: 1, max: 95 }),
        fc.constantFrom('head' as const, 'tail' as const),
        (text, percent, keep) => {
          const max = Math.max(40, Math.floor((estimateTokens(text) * percent) / 100));
          fc.pre(estimateTokens(text) > max);
          const result = truncateToolResult(text, { maxTokens: max, keep, estimateTokens });
          assert.ok(result.cut);
          assert.ok(estimateTokens(result.text) <= max, `${estimateTokens(result.text)} > ${max}`);
          assert.ok(!hasLoneSurrogate(result.text));
          const marker = MARKER.exec(result.text);
          assert.ok(marker, result.text);
          const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
          assert.equal(result.cut.totalLines, lines);
          if (keep === 'head') {
            assert.ok(result.text.endsWith(marker[0]));
            const body = result.text.slice(0, -marker[0].length);
            // The marker starts on a line of its own: a cut inside a line adds the line break.
            assert.ok(text.startsWith(body) || (body.endsWith('\n') && text.startsWith(body.slice(0, -1))));
          } else {
            assert.ok(result.text.startsWith(`${marker[0]}\n`));
            assert.ok(text.endsWith(result.text.slice(marker[0].length + 1)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps whole lines, and part of a line only when a line is most of the budget', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const head = truncateToolResult(text, { maxTokens: 80, keep: 'head', estimateTokens });
    assert.equal(head.cut?.partialLine, false);
    assert.ok(head.text.startsWith('line 1\nline 2\n'));
    assert.match(
      head.text,
      /lines 1–\d+ of 100 shown\. To see more, call the tool again for a smaller part, starting after line \d+\.\]$/,
    );
    const minified = `${'x'.repeat(10_000)}\nshort`;
    const cut = truncateToolResult(minified, { maxTokens: 100, keep: 'head', estimateTokens });
    assert.deepEqual([cut.cut?.firstLine, cut.cut?.lastLine, cut.cut?.partialLine], [1, 1, true]);
    assert.match(cut.text, /^x+\n\[Cut: .*line 1 only in part/);
    const tail = truncateToolResult(`short\n${'😀'.repeat(5000)}`, {
      maxTokens: 100,
      keep: 'tail',
      estimateTokens,
    });
    assert.deepEqual([tail.cut?.firstLine, tail.cut?.lastLine, tail.cut?.partialLine], [2, 2, true]);
    assert.ok(!hasLoneSurrogate(tail.text));
  });

  it('lets the tool say how to get the rest', () => {
    const text = Array.from({ length: 500 }, (_, i) => `row ${i}`).join('\n');
    const result = truncateToolResult(text, {
      maxTokens: 100,
      keep: 'head',
      estimateTokens,
      howToGetRest: (cut) => `Call read_file with startLine ${cut.lastLine + 1}.`,
    });
    const last = result.cut?.lastLine ?? 0;
    assert.ok(result.text.endsWith(`Call read_file with startLine ${last + 1}.]`));
    assert.ok(result.text.includes(`row ${last - 1}\n`) && !result.text.includes(`row ${last}\n`));
  });
});
