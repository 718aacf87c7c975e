// The Debian packages `npm start` needs, installed as .ci/run does: only the missing ones, asking before sudo.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { step } from './progress';

/** Fonts for the emulator's emoji and Chinese text; without them answers show empty boxes. */
export const fontPackages = ['fonts-noto-color-emoji', 'fonts-wqy-zenhei'];
/** Kerberos headers for code-server's native build (only needed while code-server is being installed). */
export const codeServerBuildPackages = ['libkrb5-dev'];

/** What to do about the missing packages. */
export type AptPlan =
  | { action: 'none' }
  | { action: 'install'; sudo: boolean; ask: boolean }
  | { action: 'advise'; reason: string };

/** Decides how to install `missing`: as root directly; otherwise with sudo after asking, or just advise. */
export function planApt(
  missing: readonly string[],
  env: { root: boolean; hasApt: boolean; hasSudo: boolean; interactive: boolean; skip: boolean },
): AptPlan {
  if (missing.length === 0) return { action: 'none' };
  if (env.skip) return { action: 'advise', reason: 'MODEL_GATEWAY_SKIP_APT is set' };
  if (!env.hasApt) return { action: 'advise', reason: 'apt-get was not found (not Debian or Ubuntu?)' };
  if (env.root) return { action: 'install', sudo: false, ask: false };
  if (!env.hasSudo) return { action: 'advise', reason: 'not root and sudo was not found' };
  if (!env.interactive)
    return { action: 'advise', reason: 'not root and no terminal to ask before using sudo' };
  return { action: 'install', sudo: true, ask: true };
}

/** The packages of `wanted` that dpkg does not report as installed. */
export function missingPackages(wanted: readonly string[]): string[] {
  return wanted.filter(
    (name) =>
      !/^Status: install ok installed/m.test(
        spawnSync('dpkg', ['-s', name], { encoding: 'utf8' }).stdout ?? '',
      ),
  );
}

function onPath(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Runs apt-get (through sudo when asked), output to `log`; rejects with the exit code. */
function aptGet(args: string[], sudo: boolean, log: NodeJS.WritableStream): Promise<void> {
  // sudo resets the environment, so the frontend setting goes through env(1).
  const command = sudo ? 'sudo' : 'apt-get';
  const argv = sudo ? ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${argv.join(' ')} exited with ${code}`)),
    );
  });
}

/** Installs whichever of `wanted` is missing; never throws: a failure is reported and start-up goes on. */
export async function ensureDebianPackages(
  wanted: readonly string[],
  logFile: string,
  say: (message: string) => void,
): Promise<void> {
  if (!onPath('dpkg')) return;
  const missing = missingPackages(wanted);
  const plan = planApt(missing, {
    root: process.getuid?.() === 0,
    hasApt: onPath('apt-get'),
    hasSudo: onPath('sudo'),
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    skip: Boolean(process.env.MODEL_GATEWAY_SKIP_APT),
  });
  if (plan.action === 'none') return;
  const line = `sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (plan.action === 'advise') {
    say(`Debian packages missing: ${missing.join(' ')} (${plan.reason}). Install them with:\n  ${line}`);
    return;
  }
  if (plan.ask) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question(`[start] install ${missing.join(' ')} with sudo apt-get? [Y/n] `);
    rl.close();
    if (/^n/i.test(answer.trim())) {
      say(`skipped; to install them later:\n  ${line}`);
      return;
    }
  }
  // sudo asks for its password before the progress line starts, not in the middle of it.
  if (plan.sudo && spawnSync('sudo', ['-v'], { stdio: 'inherit' }).status !== 0) {
    say(`sudo failed; to install them later:\n  ${line}`);
    return;
  }
  const log = createWriteStream(logFile);
  try {
    await step('[start]', `installing ${missing.join(', ')} with apt-get`, 'about a minute', async () => {
      await aptGet(['update'], plan.sudo, log);
      await aptGet(['install', '-y', '--no-install-recommends', ...missing], plan.sudo, log);
    });
  } catch (error) {
    say(`${error instanceof Error ? error.message : String(error)}; full log: ${logFile}`);
    say(`going on without them; to try again:\n  ${line}`);
  } finally {
    log.end();
  }
}
