/**
 * Writes the latest benchmark table into docs/performance.md between the bench markers, so the published
 * table is always what a full `npm run bench` printed, never a hand copy.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import type { BenchSettings } from './settings';

export const BENCH_START = '<!-- bench:start -->';
export const BENCH_END = '<!-- bench:end -->';

/** The document the table goes into. */
export const performanceDoc = join(repoRoot, 'docs', 'performance.md');

/**
 * Only a full run of every case may replace the published table: `--quick`, `--only` and `--send-path` runs are
 * partial, and a `--cpu-prof` run measures a development build under the profiler.
 */
export function publishesTable(
  settings: Pick<BenchSettings, 'quick' | 'only'> & {
    context?: Pick<BenchSettings['context'], 'sendPathOnly' | 'cpuProfile'>;
  },
): boolean {
  const partial = settings.context?.sendPathOnly === true || settings.context?.cpuProfile === true;
  return !settings.quick && settings.only.length === 0 && !partial;
}

/** Returns `doc` with the text between the markers replaced by `table`; throws when the markers are not there once each, in order. */
export function replaceBenchTable(doc: string, table: string): string {
  const start = doc.indexOf(BENCH_START);
  const end = doc.indexOf(BENCH_END);
  if (start < 0 || end < 0 || end < start || doc.indexOf(BENCH_START, start + 1) >= 0)
    throw new Error(`expected one ${BENCH_START} … ${BENCH_END} pair in the document`);
  return `${doc.slice(0, start + BENCH_START.length)}\n${table.trim()}\n${doc.slice(end)}`;
}

/** Replaces the table in docs/performance.md (atomically) and returns the file's path. */
export function updatePerformanceDoc(table: string, file = performanceDoc): string {
  const updated = replaceBenchTable(readFileSync(file, 'utf8'), table);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, updated);
  renameSync(temp, file);
  return file;
}
