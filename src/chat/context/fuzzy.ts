/**
 * Fuzzy ranking of workspace paths for the context picker. Each path is matched on its base name and
 * on the whole path, and a match in the base name ranks above one found only in the folders, as in
 * VS Code's Quick Open. The index is prepared once per file list, so each keystroke only searches.
 */
import fuzzysort from 'fuzzysort';

interface IndexEntry {
  path: string;
  base: Fuzzysort.Prepared;
  full: Fuzzysort.Prepared;
}

/** Paths prepared for repeated searches with `rankPrepared`. */
export interface PathIndex {
  readonly paths: readonly string[];
  readonly entries: readonly IndexEntry[];
}

/** How much a path whose base name does not match at all is worth beside one whose base name does. */
const FOLDER_ONLY_WEIGHT = 0.5;

const KEYS = ['base', 'full'] as const;

/** Prepares `paths` (relative, '/'-separated) for `rankPrepared`; their order is the empty query's order. */
export function prepareIndex(paths: readonly string[]): PathIndex {
  const entries = paths.map((path) => ({
    path,
    base: fuzzysort.prepare(path.slice(path.lastIndexOf('/') + 1)),
    full: fuzzysort.prepare(path),
  }));
  return { paths, entries };
}

/**
 * The best `limit` paths of `index` for `query`, best first (ties: shorter path first). An empty
 * query gives the first `limit` paths in the order they were given. Words separated by spaces may
 * match in any order and in either the base name or the folders.
 */
export function rankPrepared(query: string, index: PathIndex, limit: number): string[] {
  const max = Math.max(0, Math.floor(limit));
  if (max === 0) return [];
  const search = query.trim().replace(/\\/g, '/');
  if (!search) return index.paths.slice(0, max);
  const results = fuzzysort.go(search, index.entries, {
    keys: KEYS,
    limit: max,
    scoreFn: (r) => (r[0].score > 0 ? r.score : r.score * FOLDER_ONLY_WEIGHT),
  });
  return [...results]
    .sort((a, b) => b.score - a.score || a.obj.path.length - b.obj.path.length)
    .map((r) => r.obj.path);
}

/** `rankPrepared` over a list searched only once (prepare an index for a list searched repeatedly). */
export function rankPaths(query: string, paths: readonly string[], limit: number): string[] {
  return rankPrepared(query, prepareIndex(paths), limit);
}
