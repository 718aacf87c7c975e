import * as assert from 'node:assert/strict';
import {
  type RunReview,
  decideAll,
  decideFile,
  decideHunks,
  decisionOfHunks,
  noteChange,
  parseReviews,
  reviewSummary,
  serializeReviews,
} from '../../../src/agent/changedFiles';
import type { HunkState } from '../../../src/review/model';

const empty: RunReview = { turnId: 't1', files: [] };
const edit = (path: string, added: number, removed: number) => ({
  path,
  created: false,
  deleted: false,
  added,
  removed,
});

describe('changed files of a run', () => {
  it('lists each file once, with its latest figures, pending again after a new change', () => {
    let review = noteChange(empty, edit('a.ts', 3, 1));
    review = noteChange(review, { ...edit('b.ts', 10, 0), created: true });
    review = decideFile(review, 'a.ts', 'kept');
    review = noteChange(review, edit('a.ts', 5, 2));
    assert.deepEqual(
      review.files.map((f) => [f.path, f.added, f.removed, f.decision]),
      [
        ['a.ts', 5, 2, 'pending'],
        ['b.ts', 10, 0, 'pending'],
      ],
    );
    assert.deepEqual(reviewSummary(review), { files: 2, added: 15, removed: 2, pending: 2 });
    assert.deepEqual(empty.files, [], 'updates never change the state in place');
  });

  it('drops a file the run put back as it was, or created and then deleted', () => {
    let review = noteChange(empty, edit('a.ts', 1, 1));
    review = noteChange(review, { ...edit('tmp.ts', 4, 0), created: true });
    review = noteChange(review, edit('a.ts', 0, 0));
    review = noteChange(review, { ...edit('tmp.ts', 0, 4), created: true, deleted: true });
    assert.deepEqual(review.files, []);
  });

  it('Keep All and Undo All decide only the pending files', () => {
    let review = noteChange(noteChange(noteChange(empty, edit('a', 1, 0)), edit('b', 1, 0)), edit('c', 1, 0));
    review = decideFile(review, 'b', 'undone');
    review = decideAll(review, 'kept');
    assert.deepEqual(
      review.files.map((f) => f.decision),
      ['kept', 'undone', 'kept'],
    );
    assert.equal(reviewSummary(review).pending, 0);
  });

  it('survives a reload: round-trips through JSON and refuses a malformed record', () => {
    const review = decideFile(
      noteChange(noteChange(empty, { ...edit('a.ts', 2, 1), inBuffer: true }), edit('b.ts', 1, 0)),
      'b.ts',
      'undone',
    );
    const text = serializeReviews([review, { turnId: 't2', files: [] }]);
    const parsed = parseReviews(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, [review, { turnId: 't2', files: [] }]);
    const bad = JSON.parse(text);
    bad.reviews[0].files[0].decision = 'maybe';
    const refused = parseReviews(JSON.stringify(bad));
    assert.ok(!refused.ok);
    assert.match(refused.reason, /reviews\.0\.files\.0\.decision/);
    bad.reviews[0].files[0].decision = 'kept';
    bad.reviews[0].files[0].added = -1;
    assert.ok(!parseReviews(JSON.stringify(bad)).ok);
  });

  it('a file decided hunk by hunk: Kept, Undone or partly kept once no hunk waits', () => {
    const hunk = (state: HunkState, newText = 'new\n') => ({ state, oldText: 'old\n', newText });
    assert.equal(decisionOfHunks([hunk('accepted'), hunk('pending')]), undefined);
    assert.equal(decisionOfHunks([hunk('accepted'), hunk('accepted')]), 'kept');
    assert.equal(
      decisionOfHunks([hunk('accepted'), hunk('user', 'mine\n')]),
      'kept',
      'a rewrite keeps the file',
    );
    assert.equal(decisionOfHunks([hunk('rejected'), hunk('rejected')]), 'undone');
    assert.equal(decisionOfHunks([hunk('rejected'), hunk('accepted')]), 'partial');
    assert.equal(
      decisionOfHunks([hunk('user', 'old\n'), hunk('accepted')]),
      'partial',
      'typed back is put back',
    );
    assert.equal(decisionOfHunks([hunk('user', 'old\n'), hunk('rejected')]), 'undone');
  });

  it('records a file decided hunk by hunk with its lines now, and Keep All leaves it alone', () => {
    let review = noteChange(noteChange(empty, edit('a.ts', 4, 2)), edit('b.ts', 1, 0));
    review = decideHunks(review, 'a.ts', 'partial', { added: 1, removed: 1 });
    assert.deepEqual(
      review.files.map((f) => [f.path, f.added, f.removed, f.decision]),
      [
        ['a.ts', 1, 1, 'partial'],
        ['b.ts', 1, 0, 'pending'],
      ],
    );
    review = decideAll(review, 'undone');
    assert.deepEqual(
      review.files.map((f) => f.decision),
      ['partial', 'undone'],
    );
    const parsed = parseReviews(serializeReviews([review]));
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, [review], 'a partly kept file survives a reload');
  });
});
