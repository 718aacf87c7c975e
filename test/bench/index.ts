/**
 * `npm run bench [-- --quick] [-- --only=1,3]`: runs every benchmark case, prints the table and writes
 * test-results/bench.json and test-results/bench.md; a full run of every case also replaces the table in
 * docs/performance.md (a `--quick` run, as `npm test` makes, leaves the docs alone). Timings never fail the
 * run (these machines are noisy); the exit code is non-zero only when a case crashed. The same file is the entry of the helper processes.
 */
import { emulatorChild } from './children';
import { imageChild } from './imageChild';
import {
  type BenchRun,
  type Row,
  errorRow,
  machineInfo,
  markdownTable,
  textTable,
  writeResults,
} from './report';
import { publishesTable, updatePerformanceDoc } from './performanceDoc';
import { repoRoot, resultsDir } from '../harness/paths';
import { caseRunners } from './cases';
import { settingsFrom, selected } from './settings';
import { flag } from '../support/args';

async function main(argv: readonly string[]): Promise<number> {
  const settings = settingsFrom(argv);
  const started = Date.now();
  const rows: Row[] = [];
  console.log(`[bench] ${settings.quick ? 'quick' : 'full'} run in ${repoRoot}`);
  for (const { n, name, run } of caseRunners) {
    if (!selected(settings, n)) continue;
    const caseStarted = Date.now();
    console.log(`[bench] ${name}…`);
    try {
      const produced = await run(settings);
      rows.push(...produced);
      for (const row of produced)
        console.log(`[bench]   ${row.figure}: ${row.ours} vs ${row.baseline} → ${row.status}`);
    } catch (error) {
      console.error(
        `[bench]   failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      rows.push(errorRow(name, error));
    }
    console.log(`[bench]   (${((Date.now() - caseStarted) / 1000).toFixed(1)} s)`);
  }
  const run: BenchRun = {
    mode: settings.quick ? 'quick' : 'full',
    startedAt: new Date(started).toISOString(),
    durationS: (Date.now() - started) / 1000,
    command: `npm run bench${settings.quick ? ' -- --quick' : ''}`,
    machine: machineInfo(),
    rows,
  };
  console.log(`\n${textTable(rows)}\n`);
  const files = writeResults(resultsDir(), run);
  console.log(`[bench] wrote ${files.json} and ${files.md} (${run.durationS.toFixed(0)} s)`);
  if (publishesTable(settings)) console.log(`[bench] updated ${updatePerformanceDoc(markdownTable(run))}`);
  else console.log('[bench] docs/performance.md left as it is: only a full run of every case updates it');
  return rows.some((row) => row.status === 'error') ? 1 : 0;
}

const child = flag('child');
const task =
  child === 'emulator'
    ? emulatorChild(process.argv)
    : child === 'image'
      ? imageChild(process.argv)
      : undefined;
if (task) {
  task.catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
} else {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
