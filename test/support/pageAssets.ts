// What the test pages (the webview harness and the bench page) serve besides the real bundle.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { repoRoot } from '../harness/paths';

/** Bundles a test entry (path below the repository root) for the browser as one IIFE script. */
export function browserBundle(entry: string, options: { minify?: boolean } = {}): string {
  const result = buildSync({
    entryPoints: [join(repoRoot, entry)],
    bundle: true,
    minify: options.minify ?? false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** A codicon file (`codicon.css`, `codicon.ttf`): the copy in dist/ when built, else the package's. */
export function codiconFile(name: string): Buffer {
  const built = join(repoRoot, 'dist', 'codicons', name);
  return readFileSync(
    existsSync(built) ? built : join(repoRoot, 'node_modules', '@vscode', 'codicons', 'dist', name),
  );
}
