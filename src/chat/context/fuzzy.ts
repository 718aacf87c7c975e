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

/**
 * Both the base name and the whole path are searched. A path whose base name matches matches in its
 * whole path too, and fuzzysort scores a match in several keys above a match in one, so base-name
 * matches rank above folder-only ones without a weight of our own.
 */
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
 * `prepareIndex` in slices of `chunkSize` paths with `pause()` awaited between them, so preparing a
 * large workspace (about 2 µs a path) never holds the thread for long. The default pause is a
 * zero-delay timer, which lets pending messages and input be handled.
 */
export async function prepareIndexInChunks(
  paths: readonly string[],
  chunkSize = 2000,
  pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
): Promise<PathIndex> {
  const entries: IndexEntry[] = [];
  const size = Math.max(1, Math.floor(chunkSize));
  for (let start = 0; start < paths.length; start += size) {
    if (start > 0) await pause();
    entries.push(...prepareIndex(paths.slice(start, start + size)).entries);
  }
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
  let results: ReadonlyArray<{ score: number; obj: IndexEntry }> | undefined;
  if (!/[\s/]/.test(search)) {
    // One word without a folder: the base names alone usually fill the list, and they are short and one key,
    // so this costs about half of searching both keys (a short query matches most of 50,000 paths). The list
    // is then the base-name matches by their own score, which the two-key search also puts above folder-only
    // ones; with fewer than `limit` of them, both keys are searched so that folder matches fill the rest.
    const byName = fuzzysort.go(search, index.entries, { key: 'base', limit: max });
    if (byName.length >= max) results = byName;
  }
  results ??= fuzzysort.go(search, index.entries, { keys: KEYS, limit: max });
  return [...results]
    .sort((a, b) => b.score - a.score || a.obj.path.length - b.obj.path.length)
    .map((r) => r.obj.path);
}

/** `rankPrepared` over a list searched only once (prepare an index for a list searched repeatedly). */
export function rankPaths(query: string, paths: readonly string[], limit: number): string[] {
  return rankPrepared(query, prepareIndex(paths), limit);
}
