// Starts an isolated code-server (real VS Code workbench + Node extension host) on a free loopback port.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { registerLanguagePacks } from './languagePack';
import { codeServerEntry, node24Bin, resultsDir } from './paths';
import { freePort, groupAlive, httpStatus, killGroup, run, sleep } from './proc';

/** Options of {@link startCodeServer}. */
export interface CodeServerOptions {
  /** Folder opened by default (also usable through `?folder=`). */
  folder?: string;
  /** Extensions folder; a fresh one inside the temp root when omitted. */
  extensionsDir?: string;
  /** User settings written to `<userDataDir>/User/settings.json` on top of the quiet defaults. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server; the extension host inherits it. */
  env?: Record<string, string>;
  /** Sets `workbench.colorTheme`. */
  colorTheme?: string;
  /** VSIX files installed into the extensions folder before start. */
  vsix?: string[];
  /** Port to bind; a free one when omitted. */
  port?: number;
  /** Log file for code-server's output; test-results/logs/code-server-<port>.log by default. */
  logFile?: string;
  /** Bound on the wait for `/healthz`; default 60 s. */
  readyTimeoutMs?: number;
  /**
   * Keeps Workspace Trust on (default off: `--disable-workspace-trust`), so a folder can open in Restricted
   * Mode. The start-up trust prompt is off too: the folder opens untrusted until the test trusts it.
   */
  workspaceTrust?: boolean;
  /**
   * VS Code's display language (`--locale`). Other than English it needs a language pack for it among `vsix`
   * (see languagePack.ts), or code-server falls back to English.
   */
  locale?: string;
}

/** A running code-server. */
export interface CodeServer {
  url: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  logFile: string;
  /** Process-group id (the leader's pid). */
  pgid: number;
  /** Settles when the code-server process exits (for whatever reason). */
  exited: Promise<void>;
  /** Stops the whole process group (bounded) and removes the temp folders. */
  stop(): Promise<void>;
}

/** Settings that keep first-run noise and network look-ups out of test runs. */
const quietSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // No fading widgets in screenshots.
  'workbench.reduceMotion': 'on',
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'window.restoreWindows': 'none',
  'update.mode': 'none',
  'git.autoRepositoryDetection': false,
  'git.openRepositoryInParentFolders': 'never',
  // The DOM renderer: a terminal's text is in the page, so a test can wait for the shell's prompt.
  'terminal.integrated.gpuAcceleration': 'off',
};

/** The isolated environment (HOME, XDG_*, TMPDIR) every code-server process of one instance shares. */
function isolatedEnv(root: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const dirs = {
    HOME: 'home',
    XDG_CONFIG_HOME: 'config',
    XDG_DATA_HOME: 'data',
    XDG_CACHE_HOME: 'cache',
    XDG_RUNTIME_DIR: 'run',
    TMPDIR: 'tmp',
  };
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, sub] of Object.entries(dirs)) {
    const dir = join(root, sub);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    env[name] = dir;
  }
  // Keep VS Code's own development variables of the calling shell out of the test instance.
  for (const name of Object.keys(env)) if (name.startsWith('VSCODE_')) delete env[name];
  env.PATH = `${dirname(node24Bin)}:${process.env.PATH ?? ''}`;
  return { ...env, ...extra };
}

/** Installs VSIX files into `extensionsDir` with the code-server CLI (same isolation as the server). */
export async function installVsix(
  vsix: string[],
  extensionsDir: string,
  userDataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  for (const file of vsix) {
    const args = [
      codeServerEntry,
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--install-extension',
      file,
      '--force',
    ];
    const result = await run(node24Bin, args, { env, timeoutMs: 120_000 });
    if (result.code !== 0)
      throw new Error(`installing ${file} failed (exit ${result.code}):\n${result.output}`);
  }
}

/** Starts code-server isolated in a temp root and resolves once `/healthz` answers. */
export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const root = mkdtempSync(join(tmpdir(), 'mg-cs-'));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = options.extensionsDir ?? join(root, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settings = {
    ...quietSettings,
    ...(options.colorTheme ? { 'workbench.colorTheme': options.colorTheme } : {}),
    ...(options.workspaceTrust
      ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' }
      : {}),
    ...options.settings,
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const env = isolatedEnv(root, options.env ?? {});
  const cleanup = (): void => rmSync(root, { recursive: true, force: true, maxRetries: 3 });

  try {
    if (options.vsix?.length) await installVsix(options.vsix, extensionsDir, userDataDir, env);
    if (options.locale) registerLanguagePacks(userDataDir, extensionsDir);
  } catch (error) {
    cleanup();
    throw error;
  }

  const port = options.port ?? (await freePort());
  const logFile = options.logFile ?? join(resultsDir('logs'), `code-server-${port}.log`);
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const args = [
    codeServerEntry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(options.locale ? ['--locale', options.locale] : []),
    '--vscode-option',
    'enable-smoke-test-driver',
    ...(options.folder ? [options.folder] : []),
  ];
  // detached: the child calls setsid(), so it leads a new process group that we stop as a whole.
  const child = spawn(node24Bin, args, { env, cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let exited: string | undefined;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = `code-server exited early (code ${code}, signal ${signal}); see ${logFile}`;
      resolve();
    }),
  );
  const pgid = child.pid ?? 0;

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (pgid && groupAlive(pgid)) await killGroup(pgid, 5000);
    log.end();
    cleanup();
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(exited);
    }
    if ((await httpStatus(`${url}/healthz`, 1000)) === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${url}/healthz in time; see ${logFile}`);
    }
    await sleep(200);
  }
  return { url, port, userDataDir, extensionsDir, logFile, pgid, exited: exitedPromise, stop };
}

/** Builds the workbench URL for a folder and an optional development payload. */
export function workbenchUrl(baseUrl: string, folder: string, payload?: [string, string][]): string {
  const query = [`folder=${encodeURIComponent(folder)}`];
  if (payload) query.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${baseUrl}/?${query.join('&')}`;
}

/** The `vscode-remote://` form of a local path as the workbench served from `baseUrl` sees it. */
export function remoteUri(baseUrl: string, absPath: string): string {
  return `vscode-remote://${new URL(baseUrl).host}${absPath}`;
}
