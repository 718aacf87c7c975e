// Extension-host test entry: runs mocha over out/test/integration/**/*.test.js inside the real editor
// and writes a JSON results file (MODEL_GATEWAY_TEST_RESULTS) that the harness reads back.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import Mocha from 'mocha';
import { filesEndingWith } from '../support/testFiles';

/** One test (or failed hook) as written to the results file. */
export interface TestRecord {
  title: string;
  fullTitle: string;
  file: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: { message: string; stack?: string; expected?: string; actual?: string };
}

/** Shape of the JSON results file. */
export interface TestResults {
  runner: 'mocha';
  startedAt: string;
  durationMs: number;
  host: { node: string; pid: number };
  stats: { tests: number; passes: number; failures: number; pending: number };
  tests: TestRecord[];
}

function describeError(error: unknown): TestRecord['error'] {
  if (!(error instanceof Error)) return { message: String(error) };
  const detail = error as Error & { expected?: unknown; actual?: unknown };
  return {
    message: error.message,
    stack: error.stack,
    ...(detail.expected !== undefined ? { expected: JSON.stringify(detail.expected) } : {}),
    ...(detail.actual !== undefined ? { actual: JSON.stringify(detail.actual) } : {}),
  };
}

/** Runs the integration suite; resolves when all pass, rejects otherwise (the editor then exits with 1). */
export function run(): Promise<void> {
  // Another suite (e.g. test/reliability) can run through this same entry.
  const root = process.env.MODEL_GATEWAY_TEST_SUITE ?? __dirname;
  const grep = process.env.MODEL_GATEWAY_TEST_GREP;
  const only = process.env.MODEL_GATEWAY_TEST_FILES?.split(',').filter(Boolean);
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 30_000,
    color: false,
    reporter: 'base',
    ...(grep ? { grep } : {}),
  });
  const files = filesEndingWith(root, '.test.js').filter(
    (file) => !only || only.some((name) => file.includes(name)),
  );
  for (const file of files) mocha.addFile(file);

  const startedAt = new Date();
  const records: TestRecord[] = [];
  const record = (test: Mocha.Runnable, state: TestRecord['state'], error?: unknown): void => {
    const entry: TestRecord = {
      title: test.title,
      fullTitle: test.fullTitle(),
      file: test.file ? relative(root, test.file) : '',
      state,
      durationMs: test.duration ?? 0,
      ...(error !== undefined ? { error: describeError(error) } : {}),
    };
    records.push(entry);
    // Plain strings: the browser's log bridge does not fill printf-style placeholders.
    const mark = state === 'passed' ? 'ok  ' : state === 'failed' ? 'FAIL' : 'skip';
    console.log(
      `[integration] ${mark} ${entry.fullTitle} (${entry.durationMs} ms)${error !== undefined ? `: ${entry.error?.message}` : ''}`,
    );
  };

  return new Promise((resolve, reject) => {
    console.log(`[integration] ${files.length} test file(s) on Node ${process.version}`);
    const runner = mocha.run((failures) => {
      const results: TestResults = {
        runner: 'mocha',
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        host: { node: process.version, pid: process.pid },
        stats: {
          tests: records.length,
          passes: records.filter((r) => r.state === 'passed').length,
          failures: records.filter((r) => r.state === 'failed').length,
          pending: records.filter((r) => r.state === 'pending').length,
        },
        tests: records,
      };
      const out = process.env.MODEL_GATEWAY_TEST_RESULTS;
      if (out) {
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, JSON.stringify(results, null, 2));
      }
      if (failures > 0 || files.length === 0)
        reject(new Error(files.length ? `${failures} test(s) failed` : 'no test files found'));
      else resolve();
    });
    runner.on('pass', (test) => record(test, 'passed'));
    runner.on('fail', (test, error) => record(test, 'failed', error));
    runner.on('pending', (test) => record(test, 'pending'));
  });
}
