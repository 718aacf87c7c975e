/**
 * Suggestions already paid for. A suggestion stays valid while the user types what it says (typing
 * through it) and when the user comes back to the place it was made for; both are served without a
 * request. Texts are in the document's own form (its line breaks), and offsets are document offsets.
 */

/** Where a suggestion was asked for: a document, an offset in it and the text around the offset. */
export interface CacheKey {
  /** The document (its URI). */
  document: string;
  /** Document offset of the cursor. */
  offset: number;
  /** A tail of the text before the cursor (a fixed number of characters, or all of it). */
  before: string;
  /** A head of the text after the cursor. */
  after: string;
}

interface Entry extends CacheKey {
  text: string;
}

/** How many suggestions are kept; a few documents' worth of recent places. */
const MAX_ENTRIES = 50;

/** Recent suggestions, most recent last. */
export class SuggestionCache {
  private readonly entries: Entry[] = [];

  /** Records the suggestion shown at `key`. */
  put(key: CacheKey, text: string): void {
    const existing = this.entries.findIndex((e) => sameKey(e, key));
    if (existing >= 0) this.entries.splice(existing, 1);
    this.entries.push({ ...key, text });
    if (this.entries.length > MAX_ENTRIES) this.entries.shift();
  }

  /**
   * What is left of a cached suggestion at `key`: the whole of it at the same place, the rest of it
   * after the user typed its start. '' when the user typed all of it; undefined when none applies.
   */
  get(key: CacheKey): string | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const rest = remainder(this.entries[i], key);
      if (rest !== undefined) return rest;
    }
    return undefined;
  }

  /** Forgets everything (the model or the settings changed). */
  clear(): void {
    this.entries.length = 0;
  }

  get size(): number {
    return this.entries.length;
  }
}

function sameKey(a: CacheKey, b: CacheKey): boolean {
  return a.document === b.document && a.offset === b.offset && a.before === b.before && a.after === b.after;
}

/** The part of `entry` still to type at `key`, when `key` is `entry`'s place plus a start of its text. */
function remainder(entry: Entry, key: CacheKey): string | undefined {
  if (entry.document !== key.document) return undefined;
  const typed = key.offset - entry.offset;
  if (typed < 0 || typed > entry.text.length) return undefined;
  if (!sameHead(entry.after, key.after)) return undefined;
  const typedText = entry.text.slice(0, typed);
  if (!key.before.endsWith(typedText)) return undefined;
  // Both tails hold the same text up to where the user's typing starts (the windows have a fixed length).
  const earlier = key.before.slice(0, key.before.length - typed);
  if (!entry.before.endsWith(earlier)) return undefined;
  return entry.text.slice(typed);
}

/** The heads are cut to a fixed length, so only their common length can be compared. */
function sameHead(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  return a.slice(0, n) === b.slice(0, n);
}
