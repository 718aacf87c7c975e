// `npm start`: builds the extension and the harness, then runs test/harness/start.ts
// (gateway emulator + VS Code or code-server with the extension loaded). Ctrl-C stops everything.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const started = Date.now();
console.log('[start] building the extension and the harness (a few seconds)…');
const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('[start] building the extension failed');
  process.exit(1);
}

// One bundle of the harness, the emulator and the src/ modules the emulator imports, so a clean clone (no out/)
// needs nothing compiled elsewhere; npm packages stay external and load from node_modules.
await esbuild.build({
  entryPoints: [join(root, 'test', 'harness', 'start.ts')],
  outfile: join(root, 'out', 'start', 'start.js'),
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
});
console.log(`[start]   done in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const require = createRequire(import.meta.url);
const { start } = require(join(root, 'out', 'start', 'start.js'));
process.exit(await start());
