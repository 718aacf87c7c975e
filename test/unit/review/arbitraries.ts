import fc from 'fast-check';

/** Characters that stress byte-exact text handling: tabs, spaces, accents and astral (surrogate pair) code points. */
const char = fc.constantFrom('a', 'b', 'x', ' ', '\t', 'é', '😀', '𝔘', '{', '}');
const line = fc.string({ unit: char, maxLength: 6 });

type Op =
  { kind: 'keep' } | { kind: 'drop' } | { kind: 'insert'; line: string } | { kind: 'replace'; line: string };
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.constant<Op>({ kind: 'keep' }), weight: 4 },
  fc.constant<Op>({ kind: 'drop' }),
  line.map<Op>((l) => ({ kind: 'insert', line: l })),
  line.map<Op>((l) => ({ kind: 'replace', line: l })),
);

/** An original text and a proposed edit of it: shared lines, LF or CRLF, with or without a final newline. */
export const documentPair = fc
  .record({
    lines: fc.array(line, { maxLength: 12 }),
    ops: fc.array(op, { maxLength: 14 }),
    crlf: fc.boolean(),
    oldFinalNewline: fc.boolean(),
    newFinalNewline: fc.boolean(),
  })
  .map(({ lines, ops, crlf, oldFinalNewline, newFinalNewline }) => {
    const proposedLines: string[] = [];
    lines.forEach((l, i) => {
      const o = ops[i] ?? { kind: 'keep' };
      if (o.kind === 'keep') proposedLines.push(l);
      else if (o.kind === 'insert') proposedLines.push(o.line, l);
      else if (o.kind === 'replace') proposedLines.push(o.line);
    });
    const eol = crlf ? '\r\n' : '\n';
    const join = (ls: string[], final: boolean): string =>
      ls.length ? ls.join(eol) + (final ? eol : '') : '';
    return { original: join(lines, oldFinalNewline), proposed: join(proposedLines, newFinalNewline) };
  });

/** Every subset of `count` hunks when there are few, else 64 subsets picked from `seed`. */
export function subsetsOf(count: number, seed: number): boolean[][] {
  if (count <= 6) {
    return Array.from({ length: 2 ** count }, (_, mask) =>
      Array.from({ length: count }, (_, i) => !!(mask & (1 << i))),
    );
  }
  return fc.sample(fc.array(fc.boolean(), { minLength: count, maxLength: count }), { numRuns: 64, seed });
}
