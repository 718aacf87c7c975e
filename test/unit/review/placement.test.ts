import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { TextChange } from '../../../src/review/model';
import { placeCode, type Eol } from '../../../src/review/placement';

function applied(text: string, change: TextChange): string {
  return text.slice(0, change.offset) + change.text + text.slice(change.offset + change.length);
}

/** `text` with every line break as `eol`. */
const withEol = (text: string, eol: Eol): string => text.replace(/\r\n|\n/g, eol);

const lineText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '}', 'é', '😀'), maxLength: 5 });

/** A document: lines (blank ones too), LF or CRLF, with or without a final newline. */
const documents = fc
  .record({
    lines: fc.array(lineText, { maxLength: 8 }),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ lines, crlf, finalNewline }) => {
    const eol: Eol = crlf ? '\r\n' : '\n';
    const text = lines.length ? lines.join(eol) + (finalNewline ? eol : '') : '';
    return { text, eol };
  });

/** Offsets where a cursor can be: never between the \r and \n of a CRLF. */
function cursorOffsets(text: string): number[] {
  const offsets: number[] = [];
  for (let i = 0; i <= text.length; i++) if (!(text[i - 1] === '\r' && text[i] === '\n')) offsets.push(i);
  return offsets;
}

/** Line starts, line ends and the end of the document: the boundaries the bugs were at. */
function boundaries(text: string): number[] {
  const offsets = new Set([0, text.length]);
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\n') continue;
    offsets.add(i + 1);
    offsets.add(text[i - 1] === '\r' ? i - 1 : i);
  }
  return [...offsets].sort((a, b) => a - b);
}

/** A document and a selection in it, its ends mostly at line boundaries, sometimes anywhere. */
const cases = documents.chain(({ text, eol }) => {
  const bounds = boundaries(text);
  const anywhere = cursorOffsets(text);
  const offset = fc.oneof(
    { arbitrary: fc.constantFrom(...bounds), weight: 3 },
    { arbitrary: fc.constantFrom(...anywhere), weight: 1 },
  );
  const code = fc
    .record({
      lines: fc.array(lineText, { minLength: 1, maxLength: 4 }),
      crlf: fc.boolean(),
      leading: fc.boolean(),
      trailing: fc.boolean(),
    })
    .map(({ lines, crlf, leading, trailing }) => {
      const nl = crlf ? '\r\n' : '\n';
      return (leading ? nl : '') + lines.join(nl) + (trailing ? nl : '');
    })
    .filter((c) => c !== '');
  const selection = fc
    .oneof(
      fc.tuple(offset, offset),
      offset.map((o) => [o, o] as [number, number]),
    )
    .map(([a, b]) => (a <= b ? [a, b] : [b, a]));
  return fc.record({ text: fc.constant(text), eol: fc.constant(eol), selection, code });
});

const isBlank = (line: string): boolean => line.trim() === '';
const lineBefore = (text: string, offset: number): string =>
  text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
const lineAfter = (text: string, offset: number): string => {
  const next = text.indexOf('\n', offset);
  return (next < 0 ? text.slice(offset) : text.slice(offset, next)).replace(/\r$/, '');
};

describe('placeCode: where code from the model goes, and its newlines', () => {
  it('a line-wise Replace (Shift+Down ×4) keeps the blank line after the selection', () => {
    const text = 'a1\nb2\nc3\nd4\n\ne5\n';
    const end = text.indexOf('\n\n') + 1;
    const change = placeCode(text, 0, end, 'A1\nB2', '\n');
    assert.deepEqual(change, { offset: 0, length: end, text: 'A1\nB2\n' });
    assert.equal(applied(text, change), 'A1\nB2\n\ne5\n');
  });

  it('Generate Code at the end of a file keeps its blank lines and its final newline', () => {
    const oneBlank = 'const one = 1;\n\n';
    assert.equal(
      applied(oneBlank, placeCode(oneBlank, oneBlank.length, oneBlank.length, 'f();', '\n')),
      'const one = 1;\n\nf();\n',
    );
    const plain = 'const one = 1;\n';
    assert.equal(
      applied(plain, placeCode(plain, plain.length, plain.length, 'f();', '\n')),
      'const one = 1;\nf();\n',
    );
  });

  it('at the end of a file without a final newline, the code gets a line of its own and no final newline', () => {
    const text = 'const one = 1;';
    assert.equal(
      applied(text, placeCode(text, text.length, text.length, 'f();', '\n')),
      'const one = 1;\nf();',
    );
    assert.equal(
      applied(text, placeCode(text, text.length, text.length, '\nf();', '\n')),
      'const one = 1;\nf();',
    );
    assert.equal(applied('', placeCode('', 0, 0, 'f();', '\n')), 'f();');
  });

  it('gives a CRLF document CRLF line breaks only', () => {
    const text = 'a\r\nb\r\n\r\nc\r\n';
    const change = placeCode(text, 0, 6, 'x\ny', '\r\n');
    assert.equal(applied(text, change), 'x\r\ny\r\n\r\nc\r\n');
    assert.equal(applied(text, placeCode(text, text.length, text.length, 'z\r\n', '\r\n')), `${text}z\r\n`);
  });

  it('inserts in the middle of a line, and at the start of a line before its text, as typing would', () => {
    assert.equal(applied('f(x);\n', placeCode('f(x);\n', 2, 2, 'y, ', '\n')), 'f(y, x);\n');
    assert.equal(applied('a\nb\n', placeCode('a\nb\n', 2, 2, 'new', '\n')), 'a\nnew\nb\n');
    assert.equal(applied('a\n\nb\n', placeCode('a\n\nb\n', 2, 2, 'new', '\n')), 'a\nnew\nb\n');
    assert.equal(applied('a\nb', placeCode('a\nb', 0, 1, 'x', '\n')), 'x\nb');
  });

  it('adds nothing where the code already ends or starts with the line break', () => {
    assert.equal(placeCode('a\nb\n', 0, 2, 'x\n', '\n').text, 'x\n');
    assert.equal(placeCode('a\n', 2, 2, 'x\n', '\n').text, 'x\n');
    assert.equal(placeCode('a\n', 2, 2, 'x\n\n', '\n').text, 'x\n\n', "the model's own blank line stays");
  });

  describe('properties over selections at line boundaries and the end of the file', () => {
    it('changes only the selection, and puts in exactly the code plus at most one line break', () => {
      fc.assert(
        fc.property(cases, ({ text, eol, selection: [start, end], code }) => {
          const change = placeCode(text, start, end, code, eol);
          assert.equal(change.offset, start);
          assert.equal(change.length, end - start);
          const result = applied(text, change);
          assert.equal(result.slice(0, start), text.slice(0, start), 'the text before is unchanged');
          assert.equal(
            result.slice(start + change.text.length),
            text.slice(end),
            'the text after is unchanged',
          );
          const body = withEol(code, eol);
          assert.ok(
            [body, body + eol, eol + body].includes(change.text),
            `${JSON.stringify(change.text)} is the code ${JSON.stringify(body)} with at most one line break`,
          );
        }),
        { numRuns: 2000 },
      );
    });

    it('uses only the line ending of the document', () => {
      fc.assert(
        fc.property(cases, ({ text, eol, selection: [start, end], code }) => {
          const inserted = placeCode(text, start, end, code, eol).text;
          const breaks = inserted.match(/\r?\n/g) ?? [];
          assert.ok(
            breaks.every((b) => b === eol),
            JSON.stringify(inserted),
          );
        }),
        { numRuns: 1000 },
      );
    });

    it('keeps the line break a selection ended on, so the lines after it stay lines of their own', () => {
      fc.assert(
        fc.property(cases, ({ text, eol, selection: [start, end], code }) => {
          const change = placeCode(text, start, end, code, eol);
          const result = applied(text, change);
          const suffixAt = start + change.text.length;
          const endedOnBreak = start < end && text[end - 1] === '\n';
          const beforeText =
            start === end && (start === 0 || text[start - 1] === '\n') && !isBlank(lineAfter(text, start));
          if (endedOnBreak || beforeText) assert.equal(result[suffixAt - 1], '\n', JSON.stringify(result));
        }),
        { numRuns: 2000 },
      );
    });

    it('keeps the final newline, and adds none to a file that had none', () => {
      fc.assert(
        fc.property(cases, ({ text, eol, selection: [start, end], code }) => {
          if (end !== text.length || text === '') return;
          const result = applied(text, placeCode(text, start, end, code, eol));
          const body = withEol(code, eol);
          if (text.endsWith('\n')) assert.ok(result.endsWith(eol), JSON.stringify(result));
          else assert.equal(result.endsWith('\n'), body.endsWith('\n'), JSON.stringify(result));
        }),
        { numRuns: 2000 },
      );
    });

    it('adds a line break only where the separator rule asks for one', () => {
      fc.assert(
        fc.property(cases, ({ text, eol, selection: [start, end], code }) => {
          const change = placeCode(text, start, end, code, eol);
          const body = withEol(code, eol);
          if (change.text === body) return;
          const atLineStart = start === 0 || text[start - 1] === '\n';
          if (change.text === eol + body) {
            assert.ok(start === end && end === text.length && !isBlank(lineBefore(text, start)));
            return;
          }
          assert.equal(change.text, body + eol);
          const keepsBreak = start < end && text[end - 1] === '\n';
          const beforeText = start === end && atLineStart && !isBlank(lineAfter(text, start));
          const keepsFinal = start === end && start === text.length && text.endsWith('\n');
          assert.ok(keepsBreak || beforeText || keepsFinal, JSON.stringify({ text, start, end, code }));
        }),
        { numRuns: 2000 },
      );
    });
  });
});
