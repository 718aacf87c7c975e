import { diffSegments, type Segment } from './diff';

/** Where a hunk stands: undecided, kept, dropped, or rewritten by the user's own typing. */
export type HunkState = 'pending' | 'accepted' | 'rejected' | 'user';

/** One change of a review: the original's text and the proposed text that replaces it. */
export interface Hunk {
  readonly id: number;
  readonly oldText: string;
  newText: string;
  state: HunkState;
}

/** A replacement of `length` characters at `offset` of the document by `text`. */
export interface TextChange {
  offset: number;
  length: number;
  text: string;
}

/** Where a hunk's shown text sits in the document. */
export interface HunkSpan {
  hunk: Hunk;
  offset: number;
  length: number;
}

type Part = { kind: 'same'; text: string } | { kind: 'hunk'; hunk: Hunk };

/**
 * The review of a proposed change to a region of a document. The document shows the proposed text of
 * every hunk not rejected; the model follows the document's changes, ours and the user's, by offset.
 */
export class ReviewModel {
  private parts: Part[];
  private readonly expected: Array<{ change: TextChange; id: number }> = [];
  private nextId = 1;

  constructor(
    segments: Segment[],
    /** Offset of the region in the document. */
    public start = 0,
  ) {
    this.parts = segments.map((s) =>
      s.kind === 'same'
        ? { kind: 'same', text: s.text }
        : {
            kind: 'hunk',
            hunk: { id: this.nextId++, oldText: s.oldText, newText: s.newText, state: 'pending' },
          },
    );
  }

  /** A review of `proposed` in place of `original`, the region starting at `start`. */
  static fromTexts(original: string, proposed: string, start = 0): ReviewModel {
    return new ReviewModel(diffSegments(original, proposed), start);
  }

  /** Every hunk, in document order. */
  get hunks(): Hunk[] {
    return this.parts.flatMap((p) => (p.kind === 'hunk' ? [p.hunk] : []));
  }

  /** The hunks still waiting for a decision. */
  get pending(): Hunk[] {
    return this.hunks.filter((h) => h.state === 'pending');
  }

  /** True once every hunk is decided. */
  get done(): boolean {
    return this.pending.length === 0;
  }

  /** The text the document shows for a hunk. */
  static shown(hunk: Hunk): string {
    return hunk.state === 'rejected' ? hunk.oldText : hunk.newText;
  }

  /** The region's text as the document holds it; once every hunk is decided, the result. */
  text(): string {
    return this.parts.map((p) => (p.kind === 'same' ? p.text : ReviewModel.shown(p.hunk))).join('');
  }

  /** Offset just past the region. */
  get end(): number {
    return this.start + this.parts.reduce((n, p) => n + partText(p).length, 0);
  }

  /** Each hunk with the document offset and length of its shown text. */
  spans(): HunkSpan[] {
    const spans: HunkSpan[] = [];
    let offset = this.start;
    for (const part of this.parts) {
      const length = partText(part).length;
      if (part.kind === 'hunk') spans.push({ hunk: part.hunk, offset, length });
      offset += length;
    }
    return spans;
  }

  /** The hunk with this id. */
  find(id: number): Hunk | undefined {
    return this.hunks.find((h) => h.id === id);
  }

  /** Keeps a pending hunk; the document already shows it. */
  accept(id: number): boolean {
    const hunk = this.find(id);
    if (hunk?.state !== 'pending') return false;
    hunk.state = 'accepted';
    return true;
  }

  /** Keeps every pending hunk. */
  acceptAll(): void {
    for (const hunk of this.pending) hunk.state = 'accepted';
  }

  /**
   * The document change that rejects a pending hunk. The hunk counts as rejected when that change is seen
   * in `applyDocumentChange`; if the edit fails, `forget` it.
   */
  rejectChange(id: number): TextChange | undefined {
    const span = this.spans().find((s) => s.hunk.id === id);
    if (span?.hunk.state !== 'pending') return undefined;
    const change = { offset: span.offset, length: span.length, text: span.hunk.oldText };
    this.expected.push({ change, id });
    return change;
  }

  /** The changes, all against the current document, that reject every pending hunk. */
  rejectAllChanges(): TextChange[] {
    return this.pending.flatMap((h) => this.rejectChange(h.id) ?? []);
  }

  /** Drops the expectation of a change that did not land. */
  forget(change: TextChange): void {
    const index = this.expected.findIndex((e) => e.change === change);
    if (index >= 0) this.expected.splice(index, 1);
  }

  /**
   * Follows one change of the document. A change this model asked for rejects its hunk; a change before the
   * region moves it; one after it is ignored; one inside a hunk resolves that hunk as the user's text.
   * Changes of one event must be given from the last to the first, so each offset is still valid.
   */
  applyDocumentChange(change: TextChange): void {
    const mine = this.expected.findIndex(
      (e) =>
        e.change.offset === change.offset &&
        e.change.length === change.length &&
        e.change.text === change.text,
    );
    if (mine >= 0) {
      const [{ id }] = this.expected.splice(mine, 1);
      const hunk = this.find(id);
      if (hunk) hunk.state = 'rejected';
      return;
    }
    const from = change.offset;
    const to = change.offset + change.length;
    const end = this.end;
    const delta = change.text.length - change.length;
    if (to < this.start || (to === this.start && (change.length > 0 || this.start < end))) {
      this.start += delta;
    } else if (from > end || (from === end && this.start < end)) {
      return;
    } else {
      // A change that reaches outside the region takes the region up to its own start.
      const regionFrom = Math.max(from, this.start) - this.start;
      const regionTo = Math.min(to, end) - this.start;
      this.editInside(regionFrom, regionTo, change.text);
      this.start = Math.min(this.start, from);
    }
  }

  /** Applies a user edit of region offsets [from, to) to the parts it touches. */
  private editInside(from: number, to: number, text: string): void {
    const bounds: Array<[number, number]> = [];
    let offset = 0;
    for (const part of this.parts) {
      const length = partText(part).length;
      bounds.push([offset, offset + length]);
      offset += length;
    }
    let touched = bounds
      .map(([s, e], i) => ({ s, e, i }))
      .filter(({ s, e }) => (s < to && e > from) || (s === e && from < s && s < to));
    if (touched.length === 0) {
      // An insertion at a boundary belongs to the line it starts, that is to the part beginning there;
      // at the very end of the region, to the last part.
      const at = bounds.map(([s, e], i) => ({ s, e, i }));
      const starting = at.find(({ s, e }) => s === from && e > s);
      const ending = at.filter(({ e }) => e === from).pop();
      touched = [starting ?? ending].filter((t) => t !== undefined);
    }
    if (touched.length === 0) {
      this.parts.push({ kind: 'same', text });
      return;
    }
    const first = touched[0];
    const last = touched[touched.length - 1];
    const shown = this.parts
      .slice(first.i, last.i + 1)
      .map(partText)
      .join('');
    const edited = shown.slice(0, from - first.s) + text + shown.slice(to - first.s);
    const group = this.parts.slice(first.i, last.i + 1);
    const hunks = group.flatMap((p) => (p.kind === 'hunk' ? [p.hunk] : []));
    let replacement: Part;
    if (hunks.length === 0) {
      replacement = { kind: 'same', text: edited };
    } else {
      const oldText = group.map((p) => (p.kind === 'same' ? p.text : p.hunk.oldText)).join('');
      replacement = { kind: 'hunk', hunk: { id: hunks[0].id, oldText, newText: edited, state: 'user' } };
    }
    this.parts.splice(first.i, last.i - first.i + 1, replacement);
  }
}

function partText(part: Part): string {
  return part.kind === 'same' ? part.text : ReviewModel.shown(part.hunk);
}
