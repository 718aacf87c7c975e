/**
 * A production build of the extension in a staging folder (out/bench/stage): the project's own
 * esbuild.mjs run with --production against the real sources, so the measured bundles and VSIX are what
 * would ship, without touching the dist/ other tools use.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { run } from '../harness/proc';

/** Where the staged extension lives. */
export const stageDir = join(repoRoot, 'out', 'bench', 'stage');

/** The staged files the benchmarks use. */
export interface Stage {
  dir: string;
  extensionJs: string;
  webviewJs: string;
}

let built: Stage | undefined;

/** Builds the staged production extension once per run; later calls reuse it. */
export async function productionStage(): Promise<Stage> {
  if (built) return built;
  rmSync(stageDir, { recursive: true, force: true });
  mkdirSync(stageDir, { recursive: true });
  for (const name of ['src', 'node_modules']) symlinkSync(join(repoRoot, name), join(stageDir, name), 'dir');
  // package.nls*.json: the manifest's titles are `%key%`s (localisation); without them the palette lists no
  // "Model Gateway" command and the send-path case waited for one in vain.
  for (const name of [
    'esbuild.mjs',
    'package.json',
    ...readdirSync(repoRoot).filter((name) => /^package\.nls(\.[\w-]+)?\.json$/.test(name)),
    'LICENSE',
    'README.md',
    '.vscodeignore',
    'media',
    'docs',
    'l10n',
  ]) {
    const from = join(repoRoot, name);
    if (existsSync(from)) cpSync(from, join(stageDir, name), { recursive: statSync(from).isDirectory() });
  }
  const result = await run(process.execPath, ['esbuild.mjs', '--production'], {
    cwd: stageDir,
    timeoutMs: 180_000,
  });
  if (result.code !== 0)
    throw new Error(`production build failed (exit ${result.code}):\n${result.output.slice(-2000)}`);
  built = {
    dir: stageDir,
    extensionJs: join(stageDir, 'dist', 'extension.js'),
    webviewJs: join(stageDir, 'dist', 'webview.js'),
  };
  return built;
}

/** Packages the staged extension with vsce; resolves with the VSIX path. */
export async function packageVsix(stage: Stage): Promise<string> {
  const vsix = join(stage.dir, 'model-gateway-bench.vsix');
  rmSync(vsix, { force: true });
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  // The same flags as `npm run package`: the bundles carry the dependencies, and the README's screenshots
  // are packaged (.vscodeignore), so its relative links stay as they are.
  const args = [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', vsix];
  const result = await run(process.execPath, args, { cwd: stage.dir, timeoutMs: 180_000 });
  if (result.code !== 0 || !existsSync(vsix)) {
    throw new Error(`vsce package failed (exit ${result.code}):\n${result.output.slice(-2000)}`);
  }
  return vsix;
}
