import { diffLineArrays, splitLines, type Segment } from './diff';

/** Original lines looked at beyond twice the unsettled proposed lines: room for the proposal to drop lines. */
const WINDOW_SLACK = 40;
/** How many characters at the end of the settled text are compared with each new proposal. */
const TAIL_CHECK = 256;
/** Past this many line edits in the unsettled part, the preview stops looking for matches and shows additions. */
const MAX_EDIT_LENGTH = 400;
/** How many unsettled proposed lines are diffed at a time before the rest (see `settleAhead`). */
const PIECE_LINES = 64;

/**
 * The diff of a proposal that is still streaming against the original. Once a run of shared lines is
 * confirmed by a complete line after it, everything before it is settled and never diffed again, so each
 * update costs about the same however far the stream has got.
 */
export class StreamingDiff {
  private readonly oldLines: string[];
  private settledOld = 0;
  /** Length of the settled part of the proposal, and its last characters to notice a proposal that changed. */
  private settledLength = 0;
  private settledTail = '';
  private settled: Segment[] = [];
  /** The last `finish`, which the caller may ask for twice (to check the merge, then to review it). */
  private finished: { proposed: string; segments: Segment[] } | undefined;

  constructor(original: string) {
    this.oldLines = splitLines(original);
  }

  /** The settled segments, from the start of the proposal; read after `update`. Not a copy: do not change it. */
  get settledSegments(): readonly Segment[] {
    return this.settled;
  }

  /**
   * The segments after the settled ones of the proposal streamed so far. Original lines the stream has not
   * reached yet are left out, not shown as removed. Only the end of the settled part is compared, so a
   * proposal that keeps growing costs the same per update however long it is.
   */
  update(proposed: string): Segment[] {
    this.checkPrefix(proposed);
    const newLines = this.settleAhead(proposed) ?? [];
    const window = this.oldLines.slice(this.settledOld, this.settledOld + newLines.length * 2 + WINDOW_SLACK);
    const segments = diffLineArrays(window, newLines, MAX_EDIT_LENGTH) ?? [
      { kind: 'change', oldText: '', newText: newLines.join('') },
    ];
    const open = segments.slice(this.settle(segments));
    const last = open[open.length - 1];
    if (last?.kind === 'change') {
      // The stream has not reached these original lines yet.
      if (last.newText) open[open.length - 1] = { ...last, oldText: '' };
      else open.pop();
    }
    return open;
  }

  /**
   * Settles the whole proposal ahead in slices of about `sliceMs`, waiting for `pause` between them, so
   * that `finish` of the same proposal, called next, has little left to diff and blocks for little time.
   */
  async prepare(proposed: string, pause: () => Promise<void>, sliceMs = 8): Promise<void> {
    if (this.finished?.proposed === proposed) return;
    this.checkPrefix(proposed);
    while (this.settleAhead(proposed, performance.now() + sliceMs) === undefined) await pause();
  }

  /** Segments of the whole change once the stream has ended: every original line is accounted for. */
  finish(proposed: string): Segment[] {
    if (this.finished?.proposed === proposed) return this.finished.segments;
    if (!proposed.startsWith(this.settled.map(newText).join(''))) this.reset();
    // Settling ahead first keeps the one full diff below small: a full diff of a long scattered rewrite
    // blocks the extension host for hundreds of milliseconds.
    const newLines = this.settleAhead(proposed) ?? [];
    const rest = diffLineArrays(this.oldLines.slice(this.settledOld), newLines);
    const segments = [...this.settled, ...rest];
    this.finished = { proposed, segments };
    return segments;
  }

  /**
   * Settles the unsettled proposed lines a piece at a time, each piece diffed against a window of the
   * original, so one call costs about the same however much arrived since the last; returns the lines
   * left unsettled (at most one piece, or more when no piece finds shared lines), or undefined when
   * `deadline` (a performance.now() time) passed first. A piece that settles nothing is doubled, so a
   * long insertion or deletion is still found.
   */
  private settleAhead(proposed: string, deadline = Infinity): string[] | undefined {
    const newLines = splitLines(proposed.slice(this.settledLength));
    let at = 0;
    let size = PIECE_LINES;
    // While streaming, the last line may be incomplete: it stays in the final, unsettled piece.
    while (newLines.length - at > size) {
      const piece = newLines.slice(at, at + size);
      const window = this.oldLines.slice(this.settledOld, this.settledOld + size * 2 + WINDOW_SLACK);
      const segments = diffLineArrays(window, piece, MAX_EDIT_LENGTH);
      const settledBefore = this.settled.length;
      const count = segments ? this.settle(segments) : 0;
      if (count === 0) {
        size *= 2;
        continue;
      }
      // Settled segments are whole lines of the piece.
      for (const segment of this.settled.slice(settledBefore)) at += splitLines(newText(segment)).length;
      size = PIECE_LINES;
      // Checked only after progress, so every call settles something.
      if (newLines.length - at > size && performance.now() > deadline) return undefined;
    }
    return newLines.slice(at);
  }

  /** Settles the segments up to the last shared run that a complete line after it confirms; returns how many. */
  private settle(segments: Segment[]): number {
    let cut = -1;
    let confirmed = false;
    for (let i = segments.length - 1; i >= 0 && cut < 0; i--) {
      const segment = segments[i];
      if (segment.kind === 'same' && confirmed) cut = i;
      const after = segment.kind === 'same' ? segment.text : segment.newText;
      if (after.includes('\n')) confirmed = true;
    }
    for (const segment of segments.slice(0, cut + 1)) {
      this.settled.push(segment);
      const oldText = segment.kind === 'same' ? segment.text : segment.oldText;
      this.settledOld += splitLines(oldText).length;
      this.settledLength += newText(segment).length;
    }
    const last = segments[cut];
    if (last) this.settledTail = newText(last).slice(-TAIL_CHECK);
    return cut + 1;
  }

  private reset(): void {
    this.settledOld = 0;
    this.settledLength = 0;
    this.settledTail = '';
    this.settled = [];
  }

  /** Starts over when the proposal no longer begins with the settled text (the stream was rewritten). */
  private checkPrefix(proposed: string): void {
    const from = this.settledLength - this.settledTail.length;
    if (proposed.length < this.settledLength || !proposed.startsWith(this.settledTail, from)) this.reset();
  }
}

function newText(segment: Segment): string {
  return segment.kind === 'same' ? segment.text : segment.newText;
}
