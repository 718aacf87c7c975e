// Builds the extension bundle (Node, CJS, `vscode` external), the webview bundle (browser),
// and, with --tests, every test and source file unbundled into out/ for mocha and the extension host.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Lists .ts files below a folder, recursively. */
function tsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * undici ships its HTTP parser twice as base64 WebAssembly inside JavaScript: a SIMD build and a fallback
 * for CPUs without WebAssembly SIMD (72 KB each). The fallback is written next to the bundle as a binary
 * `llhttp.wasm` and read from disk only on the rare machine that needs it, so the bundle carries one copy.
 */
const llhttpFallbackFromDisk = {
  name: 'llhttp-fallback-from-disk',
  setup(build) {
    build.onResolve({ filter: /llhttp-wasm\.js$/ }, () => ({ path: 'llhttp-wasm', namespace: 'llhttp' }));
    build.onLoad({ filter: /.*/, namespace: 'llhttp' }, () => {
      const outdir = dirname(build.initialOptions.outfile);
      mkdirSync(outdir, { recursive: true });
      writeFileSync(
        join(outdir, 'llhttp.wasm'),
        createRequire(import.meta.url)('undici/lib/llhttp/llhttp-wasm.js'),
      );
      return {
        loader: 'js',
        contents:
          "module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, 'llhttp.wasm'));",
      };
    });
  },
};

/** A Node bundle of `entry`, as the extension is shipped. */
function nodeBundle(entry, outfile) {
  return {
    ...common,
    entryPoints: [entry],
    outfile,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [llhttpFallbackFromDisk],
  };
}

const builds = [
  nodeBundle('src/extension.ts', 'dist/extension.js'),
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

if (tests) {
  builds.push({
    entryPoints: [...tsFiles('src'), ...tsFiles('test')],
    outdir: 'out',
    outbase: '.',
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  // The gateway client bundled as in the extension, for the test of undici's parser fallback.
  builds.push(nodeBundle('src/gateway/index.ts', 'out/bundled/gateway.js'));
  // The test-only tool extension loads from out/ (its compiled main next to its manifest).
  mkdirSync('out/test/fixtures/tool-extension', { recursive: true });
  cpSync('test/fixtures/tool-extension/package.json', 'out/test/fixtures/tool-extension/package.json');
}

/** Copies the codicon font and stylesheet next to the bundles so the webview can load them. */
function copyCodicons() {
  mkdirSync('dist/codicons', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    cpSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/codicons/${file}`);
  }
}

copyCodicons();
if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
