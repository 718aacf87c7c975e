/** The pure core of chat context: formatting, safety checks, truncation and fitting (path ranking: fuzzy.ts, rankedPaths.ts). */
export * from './types';
export * from './format';
export * from './safety';
export * from './truncate';
export * from './fit';
export * from './unchangedRead';
// Not here: './fuzzy' and './rankedPaths' (fuzzysort), which only the file index's ranking imports, so that the
// extension's bundle, importing this barrel, does not carry fuzzysort (it ranks in dist/fileIndexWorker.js).
