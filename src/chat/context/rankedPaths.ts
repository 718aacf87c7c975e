import { type PathIndex, prepareIndex, rankPrepared } from './fuzzy';

type Entry = PathIndex['entries'][number];

/**
 * A changing set of relative paths, each prepared once for fuzzy ranking as it arrives; searched by
 * `rankPrepared` in the order the paths were first added (the empty query's order).
 */
export class RankedPaths {
  private readonly entries = new Map<string, Entry>();
  /** The index over `entries`, rebuilt (without preparing again) after the set changed. */
  private index: PathIndex | undefined;

  /** Number of paths held. */
  get size(): number {
    return this.entries.size;
  }

  /** Adds the paths not held yet. */
  add(paths: readonly string[]): void {
    for (const path of paths) {
      if (this.entries.has(path)) continue;
      this.entries.set(path, prepareIndex([path]).entries[0]);
      this.index = undefined;
    }
  }

  /** Removes these paths (those not held are ignored). */
  remove(paths: readonly string[]): void {
    for (const path of paths) if (this.entries.delete(path)) this.index = undefined;
  }

  /** Removes every path. */
  clear(): void {
    this.entries.clear();
    this.index = undefined;
  }

  /** The best `limit` paths for `query`, best first. */
  search(query: string, limit: number): string[] {
    if (!this.index) {
      const entries = [...this.entries.values()];
      this.index = { paths: entries.map((e) => e.path), entries };
    }
    return rankPrepared(query, this.index, limit);
  }
}
