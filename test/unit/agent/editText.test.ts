import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyExactEdits, lineStats } from '../../../src/agent/editText';

/** Text without '§' and '¤': those mark targets and absent text. Tabs, accents and astral code points included. */
const char = fc.constantFrom('a', 'b', ' ', '\t', '\n', 'é', '😀', '𝔘', '{', '}', '=');
const text = fc.string({ unit: char, maxLength: 40 });
const lineText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', 'é', '😀', '{', '}'), maxLength: 8 });
const hasLoneSurrogate = (s: string): boolean =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
const ok = (outcome: ReturnType<typeof applyExactEdits>): string => {
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
  return outcome.text;
};

describe('applyExactEdits: exact replacement', () => {
  it('replaces a unique target and leaves every other character as it was', () => {
    fc.assert(
      fc.property(text, text, text, text, (before, target, after, replacement) => {
        const oldText = `§${target}`;
        const result = ok(applyExactEdits(before + oldText + after, [{ oldText, newText: replacement }]));
        assert.equal(result, before + replacement + after);
        assert.ok(!hasLoneSurrogate(result));
      }),
    );
  });

  it('applies edits in order, each to the text the previous left', () => {
    const result = ok(
      applyExactEdits('let a = 1;\nlet b = a;\n', [
        { oldText: 'let a = 1;', newText: 'let x = 1;' },
        { oldText: 'let b = a;', newText: 'let b = x;' },
        { oldText: 'let x = 1;\nlet b', newText: 'const x = 1;\nconst b' },
      ]),
    );
    assert.equal(result, 'const x = 1;\nconst b = x;\n');
  });

  it('refuses a missing oldText, naming the edit, and applies none of the edits', () => {
    fc.assert(
      fc.property(text, text, fc.nat(3), (body, missing, before) => {
        const edits = [
          ...Array.from({ length: before }, (_, i) => ({ oldText: `§${i}`, newText: `[${i}]` })),
          { oldText: `¤${missing}`, newText: 'x' },
        ];
        const original = Array.from({ length: before }, (_, i) => `§${i}`).join(body) + body;
        const outcome = applyExactEdits(original, edits);
        assert.ok(!outcome.ok);
        assert.equal(outcome.reason, 'notFound');
        assert.equal(outcome.editIndex, before);
        assert.equal(outcome.matches, 0);
        const which = edits.length > 1 ? `Edit ${before + 1} of ${edits.length}: ` : 'The edit: ';
        assert.ok(outcome.message.startsWith(`${which}oldText was not found`), outcome.message);
      }),
    );
  });

  it('refuses an oldText that is not unique, with the count and the lines of the matches', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 3, maxLength: 5 }), text, (parts, target) => {
        const oldText = `§${target}`;
        const original = parts.join(oldText);
        const outcome = applyExactEdits(original, [{ oldText, newText: '' }]);
        assert.ok(!outcome.ok);
        assert.equal(outcome.reason, 'notUnique');
        assert.equal(outcome.matches, parts.length - 1);
        const expectedLines = [];
        let at = -1;
        while ((at = original.indexOf(oldText, at + 1)) >= 0)
          expectedLines.push(original.slice(0, at).split('\n').length);
        assert.match(
          outcome.message,
          new RegExp(`occurs ${parts.length - 1} times \\(at lines ${expectedLines.join(', ')}\\)`),
        );
      }),
    );
  });

  it('counts overlapping matches as ambiguous', () => {
    const outcome = applyExactEdits('aaa', [{ oldText: 'aa', newText: 'b' }]);
    assert.ok(!outcome.ok && outcome.reason === 'notUnique' && outcome.matches === 2);
  });

  it('refuses an empty oldText, except on an empty file', () => {
    const refused = applyExactEdits('x', [{ oldText: '', newText: 'y' }]);
    assert.ok(!refused.ok && refused.reason === 'empty');
    assert.match(refused.message, /oldText is empty/);
    assert.equal(ok(applyExactEdits('', [{ oldText: '', newText: 'hello\n' }])), 'hello\n');
  });
});

describe('applyExactEdits: line endings and Unicode', () => {
  it('matches LF oldText in a CRLF file and keeps CRLF, and the reverse', () => {
    fc.assert(
      fc.property(
        fc.array(lineText, { minLength: 1, maxLength: 10 }),
        fc.array(lineText, { maxLength: 4 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (lines, replacement, from, count, crlf) => {
          const start = from % lines.length;
          const end = start + 1 + (count % (lines.length - start));
          const marked = lines.map((l, i) => `${i}§${l}`);
          const eol = crlf ? '\r\n' : '\n';
          const other = crlf ? '\n' : '\r\n';
          const file = marked.join(eol) + eol;
          const oldText = marked.slice(start, end).join(other);
          const newLines = replacement.map((l) => `new ${l}`);
          const result = ok(applyExactEdits(file, [{ oldText, newText: newLines.join(other) }]));
          const expected =
            [...marked.slice(0, start), newLines.join(eol), ...marked.slice(end)].join(eol) + eol;
          assert.equal(result, expected);
        },
      ),
    );
  });

  it('in a file of mixed endings, also matches oldText exactly as written', () => {
    const file = 'a\r\nb\r\nc\nd\r\n';
    assert.equal(ok(applyExactEdits(file, [{ oldText: 'c\nd', newText: 'C\nD' }])), 'a\r\nb\r\nC\nD\r\n');
    assert.equal(
      ok(applyExactEdits(file, [{ oldText: 'b\r\nc\n', newText: 'B\r\nC\n' }])),
      'a\r\nB\r\nC\nd\r\n',
    );
  });

  it('never matches half of an astral character', () => {
    const outcome = applyExactEdits('😀 and 😁', [{ oldText: '\ude00', newText: 'x' }]);
    assert.ok(!outcome.ok && outcome.reason === 'notFound');
    const twice = applyExactEdits('😀😀', [{ oldText: '😀', newText: '🙂' }]);
    assert.ok(!twice.ok && twice.matches === 2);
    assert.equal(ok(applyExactEdits('𝔘𝔘 = 😀;', [{ oldText: '= 😀', newText: '= 𝔘' }])), '𝔘𝔘 = 𝔘;');
  });
});

describe('applyExactEdits: hints for a retry', () => {
  const file = ['function f() {', '  const a = 1;', '  const b = 2;', '  return a + b;', '}', ''].join('\n');

  it('names the line that matches when whitespace is ignored', () => {
    const outcome = applyExactEdits(file, [{ oldText: 'const a = 1;\n    const b = 2;', newText: '' }]);
    assert.ok(!outcome.ok);
    assert.match(outcome.message, /matches at line 2 when whitespace is ignored/);
  });

  it('names the line where oldText departs from the file', () => {
    const outcome = applyExactEdits(file, [{ oldText: '  const a = 1;\n  const b = 3;\n', newText: '' }]);
    assert.ok(!outcome.ok);
    assert.match(
      outcome.message,
      /first line matches line 2, but the next one differs: the file's line 3 reads " {2}const b = 2;"/,
    );
  });

  it('names the closest line when the first line is not in the file', () => {
    const outcome = applyExactEdits(file, [{ oldText: '  return a - b;', newText: '' }]);
    assert.ok(!outcome.ok);
    assert.match(outcome.message, /the closest line is 4: " {2}return a \+ b;"/);
    const none = applyExactEdits(file, [{ oldText: 'zzzz qqqq', newText: '' }]);
    assert.ok(!none.ok);
    assert.match(none.message, /No line of the file resembles/);
  });
});

describe('lineStats', () => {
  it('counts added and removed lines', () => {
    assert.deepEqual(lineStats('a\nb\nc\n', 'a\nB\nc\nd\n'), { added: 2, removed: 1 });
    assert.deepEqual(lineStats('', 'x\ny\n'), { added: 2, removed: 0 });
    assert.deepEqual(lineStats('same\r\n', 'same\r\n'), { added: 0, removed: 0 });
    assert.deepEqual(lineStats('a\r\n', 'a\n'), { added: 1, removed: 1 }, 'a line-ending change is a change');
  });

  it('added minus removed is the change in line count', () => {
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 12 }), fc.array(lineText, { maxLength: 12 }), (a, b) => {
        const before = a.map((l) => `${l}\n`).join('');
        const after = b.map((l) => `${l}\n`).join('');
        const stats = lineStats(before, after);
        assert.equal(stats.added - stats.removed, b.length - a.length);
        assert.ok(stats.removed <= a.length && stats.added <= b.length);
      }),
    );
  });
});
