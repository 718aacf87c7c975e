// `npm start`: the gateway emulator (unless MODEL_GATEWAY_BASE_URL is set) plus VS Code with the extension
// loaded from the repository: desktop `code` when on PATH, otherwise code-server opened in a browser.
// Environment: MODEL_GATEWAY_BASE_URL, MODEL_GATEWAY_API_KEY, EMULATOR_PORT (default 8787),
// MODEL_GATEWAY_EDITOR=code|code-server, MODEL_GATEWAY_EDITOR_PORT, MODEL_GATEWAY_WORKSPACE (folder to open;
// default .cache/demo, a copy of the demo project test/fixtures/demo), MODEL_GATEWAY_SKIP_APT (do not install Debian packages).
import { spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { remoteUri, startCodeServer, workbenchUrl } from './codeServer';
import { codeServerBuildPackages, ensureDebianPackages, fontPackages } from './debianPackages';
import { ensureEditor } from './install';
import { cacheDir, codeServerEntry, repoRoot } from './paths';
import { groupAlive, killGroup, withTimeout } from './proc';
import { emulatorKey, startGateway, type Gateway } from './workspace';

const say = (message: string): void => console.log(`[start] ${message}`);

/** Finds an executable on PATH. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The demo project `npm start` opens (a small real-looking project; the tests' fixture stays as it is). */
export const demoProject = join(repoRoot, 'test', 'fixtures', 'demo');

/**
 * The folder to open: $MODEL_GATEWAY_WORKSPACE, or a persistent copy of the demo project made once in `cache`
 * (so what the user changes there survives restarts, and the repository's copy stays clean).
 */
export function playground(env: NodeJS.ProcessEnv = process.env, cache = cacheDir): string {
  if (env.MODEL_GATEWAY_WORKSPACE) return resolve(env.MODEL_GATEWAY_WORKSPACE);
  const folder = join(cache, 'demo');
  if (!existsSync(folder)) cpSync(demoProject, folder, { recursive: true });
  return folder;
}

/** The emulator's port: the README's 8787 (or EMULATOR_PORT), else a free one when that is taken. */
export const defaultEmulatorPort = 8787;

/** Starts the emulator on `port`; when the port is taken, on a free port instead, saying so. */
export async function startEmulatorOn(port: number, say: (message: string) => void): Promise<Gateway> {
  try {
    return await startGateway(undefined, port, { agentDemo: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const gateway = await startGateway(undefined, 0, { agentDemo: true });
    say(`port ${port} is in use, so the emulator took the free port ${new URL(gateway.url).port} instead`);
    return gateway;
  }
}

/** Resolves on the first SIGINT/SIGTERM/SIGHUP. */
function interrupted(): Promise<string> {
  return new Promise((done) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => done(signal));
  });
}

/** Runs desktop VS Code with the extension under development until it closes or we are interrupted. */
async function runDesktop(
  code: string,
  folder: string,
  settings: Record<string, unknown>,
  env: Record<string, string>,
): Promise<() => Promise<void>> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'mg-code-'));
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ 'workbench.startupEditor': 'none', ...settings }, null, 2),
  );
  const args = [
    '--new-window',
    '--wait',
    `--extensionDevelopmentPath=${repoRoot}`,
    '--user-data-dir',
    userDataDir,
    folder,
  ];
  say(`${code} ${args.join(' ')}`);
  const child = spawn(code, args, { env: { ...process.env, ...env }, detached: true, stdio: 'inherit' });
  const closed = new Promise<void>((done) => child.once('exit', () => done()));
  void closed.then(() => process.emit('SIGTERM'));
  return async () => {
    if (child.pid && groupAlive(child.pid)) await killGroup(child.pid, 5000);
    rmSync(userDataDir, { recursive: true, force: true });
  };
}

/** Starts everything and waits for Ctrl-C; returns the exit code. */
export async function start(): Promise<number> {
  const external = process.env.MODEL_GATEWAY_BASE_URL;
  const choice = process.env.MODEL_GATEWAY_EDITOR;
  const code = choice === 'code-server' ? undefined : onPath('code');
  if (choice === 'code' && !code) throw new Error('MODEL_GATEWAY_EDITOR=code but `code` is not on PATH');
  mkdirSync(cacheDir, { recursive: true });
  // Fonts for the emulator's emoji and Chinese text; the Kerberos headers only while code-server gets built.
  await ensureDebianPackages(
    [...fontPackages, ...(!code && !existsSync(codeServerEntry) ? codeServerBuildPackages : [])],
    join(cacheDir, 'apt-install.log'),
    say,
  );
  const emulatorPort = Number(process.env.EMULATOR_PORT ?? defaultEmulatorPort);
  if (!Number.isInteger(emulatorPort) || emulatorPort < 0 || emulatorPort > 65535)
    throw new Error(`invalid EMULATOR_PORT: ${process.env.EMULATOR_PORT}`);
  const gateway: Gateway = external ? await startGateway(external) : await startEmulatorOn(emulatorPort, say);
  const key = process.env.MODEL_GATEWAY_API_KEY ?? (external ? undefined : emulatorKey);
  say(
    external
      ? `using the gateway at ${gateway.url}`
      : `gateway emulator listening on ${gateway.url} (port ${new URL(gateway.url).port}, key ${emulatorKey})`,
  );
  // Passed to the editor's environment, which the extension host inherits.
  const env: Record<string, string> = {};
  if (!external) env.MODEL_GATEWAY_EMULATOR_URL = gateway.url;
  if (key) env.MODEL_GATEWAY_API_KEY = key;
  const settings = { 'modelGateway.baseUrl': gateway.url };
  const folder = playground();
  const stopSignal = interrupted();

  let stopEditor: () => Promise<void>;
  if (code) {
    stopEditor = await runDesktop(code, folder, settings, env);
  } else {
    await ensureEditor();
    const port = process.env.MODEL_GATEWAY_EDITOR_PORT
      ? Number(process.env.MODEL_GATEWAY_EDITOR_PORT)
      : undefined;
    const server = await startCodeServer({
      folder,
      settings,
      env,
      ...(port ? { port } : {}),
      logFile: join(cacheDir, 'start-code-server.log'),
    });
    void server.exited.then(() => process.emit('SIGTERM'));
    stopEditor = () => server.stop();
    const url = workbenchUrl(server.url, folder, [
      ['extensionDevelopmentPath', remoteUri(server.url, repoRoot)],
    ]);
    say(`code-server is running (log: ${server.logFile}). Open this URL in a browser:\n\n  ${url}\n`);
  }
  say('press Ctrl-C to stop');
  const signal = await stopSignal;
  say(`${signal}: stopping…`);
  await withTimeout(
    Promise.allSettled([stopEditor(), gateway.close()]),
    20_000,
    'shutdown took too long',
  ).catch((error: unknown) => console.error(`[start] ${String(error)}`));
  say('stopped');
  return 0;
}

if (require.main === module) {
  start().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`[start] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  );
}
