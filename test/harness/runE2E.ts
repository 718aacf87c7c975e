// Runs the UI tests (out/test/e2e/**/*.e2e.test.js) in Node with mocha; they drive a real workbench in
// Chromium. The extension is loaded from the repository (extensionDevelopmentPath), or installed from
// the VSIX named by MODEL_GATEWAY_VSIX. CLI: node out/test/harness/runE2E.js [--grep=TEXT] [--timeout=ms]
// [--suite=e2e-zh --locale=zh-cn] (VS Code's display language, through the test language pack: languagePack.ts)
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Mocha from 'mocha';
import type { Page } from 'playwright-core';
import { startEditorStack } from '../support/editorStack';
import { runCommand, screenshot } from './browser';
import { remoteUri } from './codeServer';
import { openWithExtension, reloader, setE2EFixture } from './e2eFixture';
import { packLanguagePack, parseTestLocale, type TestLocale } from './languagePack';
import { repoRoot } from './paths';
import { Cleanups, withTimeout } from './proc';
import { emulatorKey } from './workspace';
import { extensionHostLogTail } from './extensionHostLogs';
import { flag } from '../support/args';
import { filesEndingWith } from '../support/testFiles';

/** Options of {@link runE2E}. */
export interface E2EOptions {
  /** A VSIX to install instead of loading the repository as the development extension. */
  vsix?: string;
  emulatorUrl?: string;
  /** Folder under out/test holding the UI suite (default: e2e). */
  suite?: string;
  grep?: string;
  /** Bound on the whole run (default 15 min). */
  timeoutMs?: number;
  /** VS Code's display language; English when omitted. */
  locale?: TestLocale;
}

const say = (message: string): void => console.log(`[e2e] ${message}`);

/** Closes a modal dialog (choosing Discard, else Cancel) and rejects any edit still under review. */
async function leaveNoModal(page: Page): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const dialog = page.locator('.monaco-dialog-box');
    if (!(await dialog.isVisible().catch(() => false))) break;
    const discard = dialog.getByRole('button', { name: /^(Discard|Cancel)$/ }).first();
    await discard.click({ timeout: 2000 }).catch(() => page.keyboard.press('Escape'));
  }
  await page.keyboard.press('Escape').catch(() => undefined);
  await runCommand(page, 'Model Gateway: Reject Edit', 5000).catch(() => undefined);
}

/** Sets up the fixture, runs mocha over the e2e files and resolves with the exit code. */
export async function runE2E(options: E2EOptions = {}): Promise<number> {
  const started = Date.now();
  const suite = options.suite ?? 'e2e';
  const files = filesEndingWith(join(repoRoot, 'out', 'test', suite), '.e2e.test.js');
  if (files.length === 0) throw new Error(`no compiled e2e tests in out/test/${suite}`);
  const vsix = options.vsix ? resolve(options.vsix) : undefined;
  if (vsix && !existsSync(vsix)) throw new Error(`VSIX not found: ${vsix}`);
  if (!vsix && !existsSync(join(repoRoot, 'dist', 'extension.js')))
    throw new Error('dist/extension.js is missing: run `node esbuild.mjs`');

  const cleanups = new Cleanups();
  const removeSignalHandlers = cleanups.onSignals();
  try {
    const languagePack = options.locale ? [await packLanguagePack(options.locale)] : [];
    const { gateway, workspace, server, browser } = await startEditorStack(cleanups, {
      emulatorUrl: options.emulatorUrl,
      // The extension host inherits code-server's environment.
      env: (url) => ({
        MODEL_GATEWAY_API_KEY: process.env.MODEL_GATEWAY_API_KEY ?? emulatorKey,
        MODEL_GATEWAY_EMULATOR_URL: url,
      }),
      vsix: [...(vsix ? [vsix] : []), ...languagePack],
      ...(options.locale ? { locale: options.locale } : {}),
      logName: 'e2e-code-server',
    });
    const payload: [string, string][] | undefined = vsix
      ? undefined
      : [['extensionDevelopmentPath', remoteUri(server.url, repoRoot)]];
    say(
      `extension ${vsix ? `installed from ${vsix}` : 'loaded from the repository'}; gateway ${gateway.url}; code-server ${server.url}`,
    );

    await openWithExtension(browser.page, server, workspace.folder, payload);
    say(`workbench open with the extension registered after ${Date.now() - started} ms`);
    setE2EFixture({
      mode: vsix ? 'vsix' : 'development',
      gateway,
      server,
      browser,
      page: browser.page,
      folder: workspace.folder,
      payload,
      reload: reloader(server, workspace.folder, payload, browser.page),
    });
    cleanups.add(() => setE2EFixture(undefined));

    const mocha = new Mocha({
      ui: 'bdd',
      timeout: 60_000,
      color: !!process.stdout.isTTY,
      reporter: 'spec',
      ...(options.grep ? { grep: options.grep } : {}),
    });
    mocha.rootHooks({
      async afterEach(this: Mocha.Context) {
        const test = this.currentTest;
        if (test?.state === 'failed') {
          const file = await screenshot(browser.page, `e2e-failed-${test.fullTitle()}`).catch(
            () => undefined,
          );
          if (file) console.log(`      screenshot: ${file}`);
          const logs = extensionHostLogTail(server.userDataDir);
          if (logs) console.log(`      the extension host's logs end with:\n${logs}`);
          // A failed test can leave an edit under review, or a modal dialog open (closing a file under review
          // asks whether to keep it), and a modal blocks every later test: discard both, so one failure stays
          // one failure.
          await leaveNoModal(browser.page);
        }
      },
    });
    for (const file of files) mocha.addFile(file);
    let runner: Mocha.Runner | undefined;
    const finished = new Promise<number>((done) => (runner = mocha.run(done)));
    const failures = await withTimeout(
      finished,
      options.timeoutMs ?? 900_000,
      'the e2e suite did not finish',
    ).catch((error: unknown) => {
      runner?.abort();
      console.error(`[e2e] ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    });
    say(`${failures} failure(s), total ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return failures > 0 ? 1 : 0;
  } finally {
    await cleanups.run();
    removeSignalHandlers();
  }
}

if (require.main === module) {
  const timeout = flag('timeout');
  runE2E({
    vsix: flag('vsix') ?? process.env.MODEL_GATEWAY_VSIX,
    suite: flag('suite'),
    emulatorUrl: flag('emulator-url'),
    grep: flag('grep'),
    timeoutMs: timeout ? Number(timeout) : undefined,
    locale: parseTestLocale(flag('locale')),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`[e2e] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
