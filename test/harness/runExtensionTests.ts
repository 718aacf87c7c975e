// Runs the integration suite (test/integration) inside the extension host of a real VS Code (code-server),
// loaded through the smoke-test driver's development payload. CLI: node out/test/harness/runExtensionTests.js
//   [--emulator-url=URL] [--grep=TEXT] [--files=a.test,b.test] [--suite=reliability] [--timeout=ms] [--verbose]
//   [--locale=zh-cn]  (VS Code's display language, through the test language pack: see languagePack.ts)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestResults } from '../integration/index';
import { startEditorStack } from '../support/editorStack';
import { flag } from '../support/args';
import { openWorkbench } from './browser';
import { remoteUri } from './codeServer';
import { integrationEntry, repoRoot, resultsDir, toolFixtureExtension } from './paths';
import { packLanguagePack, parseTestLocale, type TestLocale } from './languagePack';
import { Cleanups, withTimeout } from './proc';
import { packageToolFixture } from './toolFixture';

/** Options of {@link runExtensionTests}. */
export interface ExtensionTestOptions {
  /** Use this gateway instead of starting the emulator in-process. */
  emulatorUrl?: string;
  /** Only tests whose full title contains this text. */
  grep?: string;
  /** Only test files whose path contains one of these names. */
  files?: string[];
  /** Folder under out/test holding the suite (default: integration). */
  suite?: string;
  /** Bound on the whole run (default 10 min). */
  timeoutMs?: number;
  /** Print every log line of the workbench, not only the test lines. */
  verbose?: boolean;
  /** VS Code's display language; English when omitted. */
  locale?: TestLocale;
}

interface LogFile {
  relativePath: string;
  contents: string;
}

const say = (message: string): void => console.log(`[integration] ${message}`);

/** Prints one line per test and the failures' details; returns the number of failures. */
export function printSummary(results: TestResults): number {
  for (const test of results.tests) {
    const mark = test.state === 'passed' ? '  ✓' : test.state === 'failed' ? '  ✗' : '  -';
    console.log(`${mark} ${test.fullTitle} (${test.durationMs} ms)`);
  }
  const failed = results.tests.filter((t) => t.state === 'failed');
  failed.forEach((test, i) => {
    console.log(`\n${i + 1}) ${test.fullTitle}  [${test.file}]`);
    console.log(`   ${test.error?.stack ?? test.error?.message ?? 'unknown error'}`);
    if (test.error?.expected !== undefined)
      console.log(`   expected: ${test.error.expected}\n   actual:   ${test.error.actual}`);
  });
  const { passes, failures, pending } = results.stats;
  console.log(
    `\n${passes} passing, ${failures} failing, ${pending} pending (${results.durationMs} ms in the extension host, Node ${results.host.node})`,
  );
  return failures;
}

/** Runs the suite and resolves with the process exit code (0 = all passed). */
export async function runExtensionTests(options: ExtensionTestOptions = {}): Promise<number> {
  const started = Date.now();
  const required = [
    join(repoRoot, 'dist', 'extension.js'),
    integrationEntry,
    join(toolFixtureExtension, 'extension.js'),
    join(toolFixtureExtension, 'package.json'),
  ];
  for (const file of required) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build the extension and the tests first`);
  }
  const resultsFile = join(resultsDir('integration'), 'results.json');
  rmSync(resultsFile, { force: true });
  const cleanups = new Cleanups();
  const removeSignalHandlers = cleanups.onSignals();
  try {
    // The extension whose language model tool the tests call (only an extension that declares a tool may
    // register it), installed next to Model Gateway under development.
    const fixtureDir = mkdtempSync(join(tmpdir(), 'mg-tool-fixture-'));
    cleanups.add(() => rmSync(fixtureDir, { recursive: true, force: true }));
    const toolFixture = await packageToolFixture(fixtureDir);
    const languagePack = options.locale ? [await packLanguagePack(options.locale)] : [];
    const { gateway, workspace, server, browser } = await startEditorStack(cleanups, {
      emulatorUrl: options.emulatorUrl,
      vsix: [toolFixture, ...languagePack],
      ...(options.locale ? { locale: options.locale } : {}),
      logName: 'integration-code-server',
    });
    say(
      `gateway ${gateway.url}${gateway.external ? ' (external)' : ' (emulator)'}, code-server ${server.url}`,
    );

    const environment: Record<string, string> = {
      MODEL_GATEWAY_TEST_RESULTS: resultsFile,
      MODEL_GATEWAY_EMULATOR_URL: gateway.url,
      ...(process.env.MODEL_GATEWAY_API_KEY
        ? { MODEL_GATEWAY_API_KEY: process.env.MODEL_GATEWAY_API_KEY }
        : {}),
      // The soak suite's length (short in npm test, long in npm run soak).
      ...(process.env.MODEL_GATEWAY_SOAK ? { MODEL_GATEWAY_SOAK: process.env.MODEL_GATEWAY_SOAK } : {}),
      ...(options.grep ? { MODEL_GATEWAY_TEST_GREP: options.grep } : {}),
      ...(options.files?.length ? { MODEL_GATEWAY_TEST_FILES: options.files.join(',') } : {}),
      ...(options.suite ? { MODEL_GATEWAY_TEST_SUITE: join(repoRoot, 'out', 'test', options.suite) } : {}),
    };
    const payload: [string, string][] = [
      ['extensionDevelopmentPath', remoteUri(server.url, repoRoot)],
      ['extensionTestsPath', remoteUri(server.url, integrationEntry)],
      ['extensionEnvironment', JSON.stringify(environment)],
    ];

    const { page } = browser;
    let resolveExit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (resolveExit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: number, logs?: LogFile[]) => {
      saveLogs(logs);
      resolveExit(code);
    });
    await page.exposeFunction('codeAutomationLog', (level: string, args: unknown) => {
      const line = Array.isArray(args) ? args.map(String).join(' ') : String(args);
      if (options.verbose || line.includes('[integration]'))
        console.log(options.verbose ? `[${level}] ${line}` : line);
    });
    page.on('pageerror', (error) => options.verbose && console.log(`[page error] ${error.message}`));

    await openWorkbench(page, server.url, workspace.folder, payload);
    say(`workbench open after ${Date.now() - started} ms; running the suite…`);
    const timeoutMs = options.timeoutMs ?? 600_000;
    const code = await withTimeout(exited, timeoutMs, 'the extension tests did not finish').catch(
      async (error: unknown) => {
        await page
          .screenshot({ path: join(resultsDir('integration'), 'timeout.png') })
          .catch(() => undefined);
        console.error(`[integration] ${error instanceof Error ? error.message : String(error)}`);
        return 1;
      },
    );

    if (!existsSync(resultsFile)) {
      console.error(
        `[integration] no results file (${resultsFile}); the test entry did not run or crashed. Exit code ${code}.`,
      );
      return code === 0 ? 1 : code;
    }
    const failures = printSummary(JSON.parse(readFileSync(resultsFile, 'utf8')) as TestResults);
    say(`exit code ${code}, total ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return code !== 0 || failures > 0 ? 1 : 0;
  } finally {
    await cleanups.run();
    removeSignalHandlers();
  }
}

/** Keeps the workbench's log files (sent with codeAutomationExit) under test-results/integration/vscode-logs. */
function saveLogs(logs: LogFile[] | undefined): void {
  if (!Array.isArray(logs)) return;
  const dir = resultsDir(join('integration', 'vscode-logs'));
  for (const log of logs) {
    const target = join(dir, log.relativePath.replace(/\.\.+/g, '_'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, log.contents);
  }
}

if (require.main === module) {
  const timeout = flag('timeout');
  runExtensionTests({
    emulatorUrl: flag('emulator-url') ?? process.env.MODEL_GATEWAY_EMULATOR_URL,
    grep: flag('grep'),
    files: flag('files')?.split(','),
    suite: flag('suite'),
    timeoutMs: timeout ? Number(timeout) : undefined,
    verbose: process.argv.includes('--verbose'),
    locale: parseTestLocale(flag('locale')),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(
        `[integration] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}
