/**
 * The changed files of an agent run and the user's Keep/Undo decision on each ("3 files changed +40 −12").
 * The list is stored with the conversation's agent records so that, across a window reload or a crash, nothing
 * the run wrote goes unreviewed. Updates return a new state; nothing is changed in place.
 */
import * as v from 'valibot';
import type { Hunk } from '../review/model';
import { type ParseResult, parseVersioned, uniqueBy } from './stored';

/**
 * The user's decision on one file: none yet, keep the run's change, put the checkpoint's bytes back, or (hunk by
 * hunk in the editor's review) keep some of its hunks and put the others back.
 */
export type FileDecision = 'pending' | 'kept' | 'undone' | 'partial';

/** One file the run changed, measured against its checkpoint. */
export interface ChangedFile {
  path: string;
  /** The file did not exist before the run (Undo deletes it). */
  created: boolean;
  /** The run deleted it (Undo writes it back). */
  deleted: boolean;
  added: number;
  removed: number;
  decision: FileDecision;
  /** The file had unsaved changes, so the run's edit went into the editor's buffer, not to disk. */
  inBuffer?: boolean;
}

/** The changed files of one run (one user turn). */
export interface RunReview {
  turnId: string;
  files: ChangedFile[];
}

/** A change the run just made, measured against the checkpoint (not against the previous edit). */
export type FileChange = Omit<ChangedFile, 'decision'>;

/**
 * Records a change: the file's row is added or updated and waits for a decision again. A file back to its
 * checkpoint state (no line changed, or created then deleted) leaves the list.
 */
export function noteChange(review: RunReview, change: FileChange): RunReview {
  const unchanged =
    (change.created && change.deleted) ||
    (!change.created && !change.deleted && change.added + change.removed === 0);
  const others = review.files.filter((f) => f.path !== change.path);
  if (unchanged) return { ...review, files: others };
  const row: ChangedFile = { ...change, decision: 'pending' };
  const index = review.files.findIndex((f) => f.path === change.path);
  const files = index < 0 ? [...review.files, row] : review.files.map((f, i) => (i === index ? row : f));
  return { ...review, files };
}

/** Records the user's decision on one file (Keep or Undo). */
export function decideFile(
  review: RunReview,
  path: string,
  decision: Exclude<FileDecision, 'pending'>,
): RunReview {
  return { ...review, files: review.files.map((f) => (f.path === path ? { ...f, decision } : f)) };
}

/**
 * A file's decision once every hunk of its review is decided (undefined while one waits): every hunk put back is
 * Undone, none put back is Kept, else partly kept. A hunk the user rewrote counts by its text: back to the
 * original is put back, anything else keeps the file as it is now.
 */
export function decisionOfHunks(
  hunks: ReadonlyArray<Pick<Hunk, 'state' | 'oldText' | 'newText'>>,
): Exclude<FileDecision, 'pending'> | undefined {
  if (hunks.some((h) => h.state === 'pending')) return undefined;
  const putBack = (h: (typeof hunks)[number]): boolean =>
    h.state === 'rejected' || (h.state === 'user' && h.newText === h.oldText);
  const rejected = hunks.filter(putBack).length;
  if (rejected === 0) return 'kept';
  return rejected === hunks.length ? 'undone' : 'partial';
}

/** Records a file decided hunk by hunk, with its lines now measured against the checkpoint. */
export function decideHunks(
  review: RunReview,
  path: string,
  decision: Exclude<FileDecision, 'pending'>,
  lines: { added: number; removed: number },
): RunReview {
  return {
    ...review,
    files: review.files.map((f) => (f.path === path ? { ...f, ...lines, decision } : f)),
  };
}

/** Keep All or Undo All: decides every file still pending. */
export function decideAll(review: RunReview, decision: Exclude<FileDecision, 'pending'>): RunReview {
  return { ...review, files: review.files.map((f) => (f.decision === 'pending' ? { ...f, decision } : f)) };
}

/** The figures of the turn's summary row: files, lines added and removed, files still pending. */
export function reviewSummary(review: RunReview): {
  files: number;
  added: number;
  removed: number;
  pending: number;
} {
  let added = 0;
  let removed = 0;
  let pending = 0;
  for (const f of review.files) {
    added += f.added;
    removed += f.removed;
    if (f.decision === 'pending') pending++;
  }
  return { files: review.files.length, added, removed, pending };
}

const FORMAT_VERSION = 1;

/** The JSON text of a conversation's run reviews. */
export function serializeReviews(reviews: readonly RunReview[]): string {
  return JSON.stringify({ version: FORMAT_VERSION, reviews });
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const fileSchema = v.object({
  path: v.pipe(v.string(), v.nonEmpty()),
  created: v.boolean(),
  deleted: v.boolean(),
  added: count,
  removed: count,
  decision: v.picklist(['pending', 'kept', 'undone', 'partial']),
  inBuffer: v.optional(v.boolean()),
});
const rootSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  reviews: v.pipe(
    v.array(
      v.object({
        turnId: v.pipe(v.string(), v.nonEmpty()),
        files: v.pipe(
          v.array(fileSchema),
          v.check((files) => uniqueBy(files, (f) => f.path), 'a file is listed twice'),
        ),
      }),
    ),
    v.check((reviews) => uniqueBy(reviews, (r) => r.turnId), 'a turn is listed twice'),
  ),
});

/** Reads run reviews written by `serializeReviews`, refusing anything malformed with the reason. */
export function parseReviews(text: string): ParseResult<RunReview[]> {
  const parsed = parseVersioned(text, FORMAT_VERSION, rootSchema);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    value: parsed.value.reviews.map((r) => ({
      turnId: r.turnId,
      files: r.files.map(({ inBuffer, ...f }) => (inBuffer === undefined ? f : { ...f, inBuffer })),
    })),
  };
}
