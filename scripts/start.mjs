// `npm start`: builds the extension and the harness, then runs test/harness/start.ts
// (gateway emulator + VS Code or code-server with the extension loaded). Ctrl-C stops everything.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Lists the .ts files of one folder (not recursive). */
function tsIn(dir) {
  return readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(root, dir, name));
}

const started = Date.now();
console.log('[start] building the extension and the harness (a few seconds)…');
const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('[start] building the extension failed');
  process.exit(1);
}

await esbuild.build({
  entryPoints: [...tsIn('test/harness'), ...tsIn('test/gateway-emulator')],
  outdir: join(root, 'out'),
  outbase: root,
  bundle: false,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
});
console.log(`[start]   done in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const require = createRequire(import.meta.url);
const { start } = require(join(root, 'out', 'test', 'harness', 'start.js'));
process.exit(await start());
