import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { diffSegments, type Segment } from '../../../src/review/diff';
import { ReviewModel, type TextChange } from '../../../src/review/model';
import { documentPair, subsetsOf } from './arbitraries';

/** The original with the chosen changes applied, computed from the diff alone, without the model. */
function expectedResult(segments: Segment[], keep: boolean[]): string {
  let index = 0;
  return segments.map((s) => (s.kind === 'same' ? s.text : keep[index++] ? s.newText : s.oldText)).join('');
}

/** A document string and a review of a region of it, changed together as the editor would. */
class Doc {
  constructor(
    public text: string,
    readonly model: ReviewModel,
  ) {}
  apply(change: TextChange): void {
    this.text =
      this.text.slice(0, change.offset) + change.text + this.text.slice(change.offset + change.length);
    this.model.applyDocumentChange(change);
  }
  region(): string {
    return this.text.slice(this.model.start, this.model.end);
  }
}

describe('review hunk model', () => {
  it('the diff rebuilds both texts byte for byte', () => {
    fc.assert(
      fc.property(documentPair, ({ original, proposed }) => {
        const segments = diffSegments(original, proposed);
        assert.equal(segments.map((s) => (s.kind === 'same' ? s.text : s.oldText)).join(''), original);
        assert.equal(segments.map((s) => (s.kind === 'same' ? s.text : s.newText)).join(''), proposed);
      }),
      { numRuns: 300 },
    );
  });

  it('accepting and rejecting every subset of hunks, in any order, gives the byte-exact result', () => {
    fc.assert(
      fc.property(
        documentPair,
        fc.string({ maxLength: 8 }),
        fc.string({ maxLength: 8 }),
        fc.integer(),
        ({ original, proposed }, prefix, suffix, seed) => {
          const segments = diffSegments(original, proposed);
          const count = segments.filter((s) => s.kind === 'change').length;
          for (const keep of subsetsOf(count, seed)) {
            const doc = new Doc(
              prefix + proposed + suffix,
              ReviewModel.fromTexts(original, proposed, prefix.length),
            );
            const ids = doc.model.hunks.map((h) => h.id);
            // Decide from the last hunk to the first on odd seeds, so both orders are covered.
            const order = seed % 2 ? [...ids.keys()].reverse() : [...ids.keys()];
            for (const i of order) {
              if (keep[i]) assert.ok(doc.model.accept(ids[i]));
              else doc.apply(doc.model.rejectChange(ids[i])!);
              assert.equal(doc.region(), doc.model.text());
            }
            assert.ok(doc.model.done);
            assert.equal(doc.text, prefix + expectedResult(segments, keep) + suffix);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reject all, as one multi-change edit, gives the original back byte for byte', () => {
    fc.assert(
      fc.property(documentPair, fc.string({ maxLength: 5 }), ({ original, proposed }, prefix) => {
        const doc = new Doc(
          prefix + proposed + '\n',
          ReviewModel.fromTexts(original, proposed, prefix.length),
        );
        // The editor reports the changes of one edit against the text before it; follow them from the last.
        const changes = doc.model.rejectAllChanges().sort((a, b) => b.offset - a.offset);
        for (const change of changes) doc.apply(change);
        assert.ok(doc.model.done);
        assert.equal(doc.text, prefix + original + '\n');
      }),
      { numRuns: 300 },
    );
  });

  it('follows edits elsewhere in the document, and typing inside a hunk makes it the user’s text', () => {
    const edit = fc.record({ at: fc.nat(), length: fc.nat({ max: 4 }), text: fc.string({ maxLength: 4 }) });
    fc.assert(
      fc.property(documentPair, fc.array(edit, { maxLength: 8 }), ({ original, proposed }, edits) => {
        const doc = new Doc('head\n' + proposed + 'tail\n', ReviewModel.fromTexts(original, proposed, 5));
        for (const { at, length, text } of edits) {
          const offset = at % (doc.text.length + 1);
          doc.apply({ offset, length: Math.min(length, doc.text.length - offset), text });
          assert.equal(doc.region(), doc.model.text());
        }
        // Whatever the user typed, rejecting what is left still lands exactly on the tracked region.
        for (const hunk of doc.model.pending) doc.apply(doc.model.rejectChange(hunk.id)!);
        assert.ok(doc.model.done);
        assert.equal(doc.region(), doc.model.text());
      }),
      { numRuns: 400 },
    );
  });

  it('typing inside a hunk resolves it as the user’s text; typing before the region moves it', () => {
    const doc = new Doc(
      '// top\nnew one\nsame\n',
      ReviewModel.fromTexts('old one\nsame\n', 'new one\nsame\n', 7),
    );
    const [hunk] = doc.model.hunks;
    doc.apply({ offset: 0, length: 0, text: 'xy' });
    assert.equal(doc.model.start, 9);
    doc.apply({ offset: 9 + 3, length: 0, text: '!' });
    assert.equal(hunk.state, 'pending', 'the old hunk object is replaced');
    const [resolved] = doc.model.hunks;
    assert.equal(resolved.state, 'user');
    assert.equal(resolved.newText, 'new! one\n');
    assert.ok(doc.model.done);
    assert.equal(doc.text, 'xy// top\nnew! one\nsame\n');
  });

  it('shows whitespace-only, line-ending and final-newline changes as hunks', () => {
    const cases: Array<[string, string]> = [
      ['a\n\tb\n', 'a\n    b\n'],
      ['a \n', 'a\n'],
      ['a\r\nb\r\n', 'a\r\nb\n'],
      ['a\nb', 'a\nb\n'],
      ['𝒳 = 1;\n', '𝒳 = 2;\n'],
    ];
    for (const [original, proposed] of cases) {
      const model = ReviewModel.fromTexts(original, proposed);
      assert.equal(model.hunks.length, 1, JSON.stringify([original, proposed]));
      const doc = new Doc(proposed, model);
      doc.apply(model.rejectChange(model.hunks[0].id)!);
      assert.equal(doc.text, original);
    }
  });

  it('keeps CRLF, tabs, astral characters and a missing final newline byte for byte', () => {
    const original = 'const 😀 = 1;\r\n\tif (x) {\r\n\t\treturn "𝔘";\r\n\t}\r\nend';
    const proposed = 'const 😀 = 2;\r\n\tif (x) {\r\n\t\treturn "𝔘";\r\n\t}\r\nend\r\n';
    const model = ReviewModel.fromTexts(original, proposed);
    assert.equal(model.hunks.length, 2);
    const doc = new Doc(proposed, model);
    model.accept(model.hunks[0].id);
    doc.apply(model.rejectChange(model.hunks[1].id)!);
    assert.equal(doc.text, 'const 😀 = 2;\r\n\tif (x) {\r\n\t\treturn "𝔘";\r\n\t}\r\nend');
  });
});

describe('review hunk model: where typing lands', () => {
  it('typing at the start of a hunk’s first line belongs to that hunk; at the start of the next line, not', () => {
    const proposed = 'same\nnew\nafter\n';
    const doc = new Doc(proposed, ReviewModel.fromTexts('same\nold\nafter\n', proposed));
    doc.apply({ offset: 'same\nnew\n'.length, length: 0, text: '+' });
    assert.equal(doc.model.pending.length, 1, 'typing after the hunk leaves it pending');
    doc.apply({ offset: 'same\n'.length, length: 0, text: '!' });
    assert.deepEqual(
      doc.model.hunks.map((h) => [h.state, h.newText]),
      [['user', '!new\n']],
    );
    assert.equal(doc.text, 'same\n!new\n+after\n');
  });
});
