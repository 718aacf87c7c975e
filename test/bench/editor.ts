/**
 * The real editor (code-server's workbench and Node extension host, via test/harness): activation time as
 * the extension logs it, over several window loads, and case 5 run inside the extension host.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { launchBrowser, openWorkbench } from '../harness/browser';
import { remoteUri, startCodeServer } from '../harness/codeServer';
import { codeServerEntry, node24Bin, repoRoot, resultsDir } from '../harness/paths';
import { withTimeout } from '../harness/proc';
import { makeWorkspace } from '../harness/workspace';
import type { ExtHostJob, ExtHostResults } from './exthost';
import { waitFor } from '../support/poll';

const ACTIVATED = /Model Gateway (\S+) activated in ([\d.]+) ms\./g;

/** Undefined when the editor harness (Node 24 + code-server in .cache/) is installed, else why it is not. */
export function editorUnavailable(): string | undefined {
  if (existsSync(node24Bin) && existsSync(codeServerEntry)) return undefined;
  return 'skipped: harness unavailable (code-server is not installed; run `node out/test/harness/install.js`)';
}

/** Every "activated in N ms" line in the log files below `dir`, keyed by file and position. */
export function activationLines(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.log')) {
        let i = 0;
        for (const match of readFileSync(path, 'utf8').matchAll(ACTIVATED))
          found.set(`${path}#${i++}`, Number(match[2]));
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

/** Installs the VSIX in a fresh code-server and loads the workbench `starts` times; returns the logged figures. */
export async function measureActivation(vsix: string, starts: number, gatewayUrl: string): Promise<number[]> {
  const workspace = makeWorkspace();
  const server = await startCodeServer({
    folder: workspace.folder,
    vsix: [vsix],
    settings: { 'modelGateway.baseUrl': gatewayUrl },
    logFile: join(resultsDir('logs'), 'bench-code-server.log'),
  });
  const browser = await launchBrowser();
  try {
    const times: number[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < starts; i++) {
      if (i === 0) await openWorkbench(browser.page, server.url, workspace.folder);
      else {
        await browser.page.reload({ waitUntil: 'domcontentloaded' });
        await browser.page.locator('.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
      }
      const fresh = await waitFor(
        () => {
          const lines = [...activationLines(server.userDataDir)].filter(([key]) => !seen.has(key));
          return lines.length ? lines : undefined;
        },
        `an activation line in the extension's log after load ${i + 1}`,
        60_000,
      );
      for (const [key] of fresh) seen.add(key);
      times.push(fresh[fresh.length - 1][1]);
    }
    return times;
  } finally {
    await browser.close();
    await server.stop();
    workspace.dispose();
  }
}

/** Builds an extension-host entry (test/bench/<name>.ts) into one file the extension host can load. */
async function buildExtHostEntry(name: string): Promise<string> {
  const outfile = join(repoRoot, 'out', 'bench', `${name}.js`);
  await build({
    // The file index's worker (src/host/context/pathRanker.ts) is loaded from next to the bundle that uses it.
    entryPoints: {
      [name]: join(repoRoot, 'test', 'bench', `${name}.ts`),
      fileIndexWorker: join(repoRoot, 'src', 'host', 'context', 'fileIndexWorker.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outdir: join(repoRoot, 'out', 'bench'),
    logLevel: 'warning',
  });
  return outfile;
}

/** Another extension-host entry than case 5's: its file, its results' name, its workspace and settings. */
export interface ExtHostEntry {
  /** test/bench/<name>.ts, with a `run()` that writes JSON to MODEL_GATEWAY_BENCH_RESULTS. */
  name: string;
  /** Fills the workspace folder before the window opens. */
  prepare?(folder: string): void;
  settings?: Record<string, unknown>;
}

const IMAGES_ENTRY: ExtHostEntry = {
  name: 'exthost',
  settings: { 'modelGateway.images.folder': 'bench-images' },
};

/**
 * Runs an entry (case 5's by default) inside the extension host of a real editor, with the staged extension
 * under development; resolves with the JSON the entry wrote.
 */
export async function runInExtensionHost<Job extends object = ExtHostJob, Results = ExtHostResults>(
  stageDir: string,
  job: Job,
  timeoutMs: number,
  variant: ExtHostEntry = IMAGES_ENTRY,
): Promise<Results> {
  const entry = await buildExtHostEntry(variant.name);
  const resultsFile = join(resultsDir('bench'), `${variant.name}-results.json`);
  rmSync(resultsFile, { force: true });
  const url = (job as { url?: unknown }).url;
  const workspace = makeWorkspace();
  variant.prepare?.(workspace.folder);
  const server = await startCodeServer({
    folder: workspace.folder,
    // A job without a URL belongs to an entry that starts its own emulator in the extension host.
    settings: { ...(url ? { 'modelGateway.baseUrl': url } : {}), ...variant.settings },
    logFile: join(resultsDir('logs'), 'bench-exthost-code-server.log'),
  });
  const browser = await launchBrowser();
  try {
    let exit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await browser.page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    await browser.page.exposeFunction('codeAutomationLog', () => undefined);
    const environment = {
      MODEL_GATEWAY_BENCH_RESULTS: resultsFile,
      MODEL_GATEWAY_BENCH_JOB: JSON.stringify(job),
    };
    await openWorkbench(browser.page, server.url, workspace.folder, [
      ['extensionDevelopmentPath', remoteUri(server.url, stageDir)],
      ['extensionTestsPath', remoteUri(server.url, entry)],
      ['extensionEnvironment', JSON.stringify(environment)],
    ]);
    await withTimeout(exited, timeoutMs, 'the extension-host benchmark did not finish');
    if (!existsSync(resultsFile)) throw new Error('the extension-host benchmark wrote no results');
    const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results & { error?: string };
    if (results.error) throw new Error(`in the extension host: ${results.error}`);
    return results;
  } finally {
    await browser.close();
    await server.stop();
    workspace.dispose();
  }
}
