// Proves the README's first command on a clean tree: `npm start` (after `npm ci`) with no out/ and no .cache/.
// It waits for the printed workbench address, opens it in Chromium, finds the extension's chat view, asks the
// emulator one question, then stops `npm start` with SIGINT as Ctrl-C would and checks that nothing is left.
// Plain JavaScript on purpose: it must run before anything is compiled.
//
//   node scripts/check-start.mjs            in this checkout, which must have no out/ and no .cache/ (CI)
//   node scripts/check-start.mjs --copy     in a fresh `git clone` of HEAD in a temporary folder (npm ci there)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { clearTimeout, setTimeout } from 'node:timers';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (message) => console.log(`[check-start] ${message}`);
const fail = (message) => {
  throw new Error(message);
};

/** Resolves with the first match of `pattern` in the child's output, or rejects after `ms` or on exit. */
function waitForOutput(child, output, pattern, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`no ${pattern} in npm start's output within ${ms / 1000} s`)),
      ms,
    );
    const check = () => {
      const match = pattern.exec(output.text);
      if (match) done(undefined, match);
    };
    const exited = (code) => done(new Error(`npm start exited (${code}) before printing ${pattern}`));
    function done(error, match) {
      clearTimeout(timer);
      output.listeners.delete(check);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve(match);
    }
    output.listeners.add(check);
    child.once('exit', exited);
    check();
  });
}

/** This process and the ones that started it (the CI script runs in the same folder; it is not npm start's). */
function ancestors() {
  const pids = new Set();
  let pid = process.pid;
  while (pid > 1 && !pids.has(pid)) {
    pids.add(pid);
    try {
      // Field 4 of /proc/PID/stat is the parent; the name (field 2) is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return pids;
}

/** Pids of processes whose command line or working folder lies under `root`, other than this one and its parents. */
function processesUnder(root) {
  const found = [];
  const mine = ancestors();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || mine.has(pid)) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cmdline.includes(root) || cwd === root || cwd.startsWith(`${root}/`))
        found.push(`${pid} (${cmdline.trim().slice(0, 120)})`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Polls `probe` every 200 ms until it returns true, at most `ms`. */
async function until(probe, ms, what) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  fail(`timed out after ${ms / 1000} s waiting for ${what}`);
}

/** Opens the workbench, finds the chat view and asks one question; throws when any of it is missing. */
async function driveWorkbench(url, chromiumModule) {
  const { chromium } = chromiumModule;
  const profile = mkdtempSync(join(tmpdir(), 'mg-check-start-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url, { timeout: 60_000 });
    await page.locator('.monaco-workbench .part.editor').waitFor({ state: 'visible', timeout: 60_000 });
    const status = page.locator('.statusbar-item').filter({ hasText: '(emulator)' });
    await status.first().waitFor({ state: 'visible', timeout: 60_000 });
    say('the workbench is up and the status bar says "(emulator)"');
    const message = 'textarea[aria-label="Message"]';
    const frames = () => page.locator('iframe.webview.ready');
    let chat;
    await until(
      async () => {
        if (!chat) {
          await page.keyboard.press('F1');
          const input = page.locator('.quick-input-widget input');
          await input.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
          await input.fill('>Model Gateway: Open Chat').catch(() => undefined);
          const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Open Chat' });
          await row
            .first()
            .click({ timeout: 10_000 })
            .catch(() => page.keyboard.press('Escape'));
        }
        const count = await frames().count();
        for (let i = 0; i < count; i++) {
          const frame = frames().nth(i).contentFrame().frameLocator('#active-frame');
          if (
            await frame
              .locator(message)
              .isVisible()
              .catch(() => false)
          )
            chat = frame;
        }
        return chat !== undefined;
      },
      90_000,
      "the extension's chat view",
    );
    say('the chat view is shown');
    const box = chat.locator(message);
    await box.fill('Say hello from the start check');
    await box.press('Enter');
    const answer = chat.getByRole('article', { name: /^Assistant / }).last();
    // The emulator's answer, finished: its footer counts the tokens.
    await until(
      async () => /total \d+ tokens/.test(await answer.innerText().catch(() => '')),
      60_000,
      'an answer from the emulator',
    );
    say('the emulator answered in the chat view');
    if (process.env.CHECK_START_SCREENSHOT)
      await page.screenshot({ path: process.env.CHECK_START_SCREENSHOT });
  } finally {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  let root = here;
  let scratch;
  if (process.argv.includes('--copy')) {
    scratch = mkdtempSync(join(tmpdir(), 'mg-clean-clone-'));
    root = join(scratch, 'model-gateway');
    say(`cloning HEAD into ${root}`);
    if (spawnSync('git', ['clone', '--quiet', here, root], { stdio: 'inherit' }).status !== 0)
      fail('git clone failed');
    say('npm ci in the clone');
    if (spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' }).status !== 0)
      fail('npm ci failed');
  }
  for (const leftover of ['out', '.cache'])
    if (existsSync(join(root, leftover)))
      fail(`${join(root, leftover)} exists: this check needs a clean tree`);
  const chromiumModule = await import(join(root, 'node_modules', 'playwright-core', 'index.mjs'));

  say('npm start (the first run installs code-server into .cache/, about 3 minutes)');
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: { ...process.env, MODEL_GATEWAY_EDITOR: 'code-server' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { text: '', listeners: new Set() };
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk) => {
      process.stdout.write(chunk);
      output.text += chunk.toString();
      for (const listener of output.listeners) listener();
    });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let ok = false;
  try {
    const [url] = await waitForOutput(child, output, /http:\/\/127\.0\.0\.1:\d+\/\?\S+/, 15 * 60_000);
    say(`workbench address: ${url.slice(0, 60)}…`);
    await driveWorkbench(url, chromiumModule);
    ok = true;
  } finally {
    say('SIGINT to npm start (Ctrl-C)');
    try {
      process.kill(-child.pid, 'SIGINT');
    } catch {
      // Already gone.
    }
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 40_000);
    const { code, signal } = await exited;
    clearTimeout(timer);
    // npm itself dies of the SIGINT that Ctrl-C sends to the whole group (as in a terminal); the harness under it
    // must end cleanly: it says "stopped" and leaves no process behind.
    if (ok && !(code === 0 || code === 130 || signal === 'SIGINT'))
      fail(`npm start ended with ${code ?? signal} after SIGINT`);
    if (ok && /\[start\] .*(error|failed|too long)/i.test(output.text.split('SIGINT: stopping')[1] ?? ''))
      fail('npm start reported a problem while stopping');
    if (ok && !/\[start\] stopped/.test(output.text)) fail('npm start did not say "stopped"');
    await until(
      async () => processesUnder(root).length === 0,
      20_000,
      'every process of npm start to end',
    ).catch((error) => {
      if (ok) throw new Error(`${error.message}; still running: ${processesUnder(root).join(', ')}`);
    });
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  say('passed: npm start works from a clean tree and stops cleanly on SIGINT');
}

main().catch((error) => {
  console.error(`[check-start] FAILED: ${error.stack ?? error.message}`);
  process.exit(1);
});
