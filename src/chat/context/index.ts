/** The pure core of chat context: formatting, safety checks, truncation, fitting and path ranking. */
export * from './types';
export * from './format';
export * from './safety';
export * from './truncate';
export * from './fit';
export * from './fuzzy';
export * from './unchangedRead';
export * from './rankedPaths';
