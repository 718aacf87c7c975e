// Builds the extension bundle (Node, CJS, `vscode` external), the webview bundle (browser),
// and, with --tests, every test and source file unbundled into out/ for mocha and the extension host.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
 * for CPUs without WebAssembly SIMD (72 KB of JavaScript each, 54 KB as binary). Both are written next to the
 * bundle as binary `.wasm` files and read from disk when the first connection needs a parser (undici loads it
 * lazily), so the bundle carries neither: the JavaScript that activation parses is 144 KB smaller, and only the
 * parser the machine uses is ever read.
 */
const LLHTTP_FILES = { 'llhttp-wasm': 'llhttp.wasm', 'llhttp_simd-wasm': 'llhttp_simd.wasm' };
const llhttpFromDisk = {
  name: 'llhttp-from-disk',
  setup(build) {
    build.onResolve({ filter: /llhttp(_simd)?-wasm\.js$/ }, (args) => ({
      path: /llhttp(_simd)?-wasm/.exec(args.path)[0],
      namespace: 'llhttp',
    }));
    build.onLoad({ filter: /.*/, namespace: 'llhttp' }, (args) => {
      const file = LLHTTP_FILES[args.path];
      const outdir = dirname(build.initialOptions.outfile);
      mkdirSync(outdir, { recursive: true });
      writeFileSync(join(outdir, file), createRequire(import.meta.url)(`undici/lib/llhttp/${args.path}.js`));
      return {
        loader: 'js',
        contents: `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(file)}));`,
      };
    });
  },
};

/**
 * undici modules the client never reaches, left out of the bundle: the HTTP/2 client (the connector offers only
 * http/1.1 over ALPN unless `allowH2` is set, which the client never does) and the FormData and web-stream
 * request bodies (lazily required for those bodies alone; the client sends JSON strings), with the WHATWG fetch
 * helpers they pull in. If one is ever reached, it throws an error that names what is missing. 49 KB.
 */
const UNDICI_UNUSED = {
  'dispatcher/client-h2.js': 'HTTP/2 (allowH2)',
  'web/fetch/body.js': 'FormData and web stream request bodies',
};
const undiciUnusedLeftOut = {
  name: 'undici-unused-left-out',
  setup(build) {
    build.onResolve({ filter: /(client-h2|fetch\/body)\.js$/ }, (args) => {
      const key = Object.keys(UNDICI_UNUSED).find((k) => join(args.resolveDir, args.path).endsWith(k));
      return key && args.resolveDir.includes('undici')
        ? { path: key, namespace: 'undici-unused' }
        : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'undici-unused' }, (args) => {
      const message = `Model Gateway's bundle leaves out undici's ${UNDICI_UNUSED[args.path]}`;
      const fail = `function () { throw new Error(${JSON.stringify(message)}); }`;
      return {
        loader: 'js',
        contents: args.path.endsWith('body.js')
          ? `exports.extractBody = ${fail};`
          : `module.exports = ${fail};`,
      };
    });
  },
};

/**
 * Run-times required on first use, each a bundle of its own next to the extension's, so activation never parses
 * them: the agent's (the loop, the protocols, the tools: `src/host/agent/agentRuntime.ts`, dist/agent.js, which
 * `chatAgent.ts` requires on the first run; about 70 KB) and the edit review's (Generate Code, Apply, the
 * streaming preview and the per-hunk review: `src/host/editor/reviewRuntime.ts`, dist/review.js, which
 * `editReviewHost.ts` requires on the first Generate Code, Apply or agent file review). In the extension's
 * bundle `require('./agentRuntime')` becomes `require('./agent.js')`, and `require('./reviewRuntime')`
 * `require('./review.js')`.
 */
const RUNTIMES_APART = {
  agentRuntime: './agent.js',
  reviewRuntime: './review.js',
  fileIndexRuntime: './fileIndex.js',
  // The file index's ranking, when its worker cannot start and it ranks in the extension host (pathRanker.ts).
  fileIndexWorker: './fileIndexWorker.js',
};
const runtimesApart = {
  name: 'runtimes-apart',
  setup(build) {
    build.onResolve(
      { filter: /^\.\/(agentRuntime|reviewRuntime|fileIndexRuntime|fileIndexWorker)$/ },
      (args) => ({
        path: RUNTIMES_APART[args.path.slice(2)],
        external: true,
      }),
    );
  },
};

/** A Node bundle of `entry`, as the extension is shipped. */
function nodeBundle(entry, outfile, extraPlugins = []) {
  return {
    ...common,
    entryPoints: [entry],
    outfile,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // jsonc-parser's `main` is a UMD build whose inner requires esbuild cannot follow (they would run against
    // dist/ at run time and fail); its ES module build bundles whole.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    plugins: [llhttpFromDisk, undiciUnusedLeftOut, ...extraPlugins],
  };
}

const builds = [
  nodeBundle('src/extension.ts', 'dist/extension.js', [runtimesApart]),
  nodeBundle('src/host/agent/agentRuntime.ts', 'dist/agent.js'),
  nodeBundle('src/host/editor/reviewRuntime.ts', 'dist/review.js'),
  // The # picker's file index (listing, watcher, ranking), required on the first file search (lazyFileIndex.ts).
  nodeBundle('src/host/context/fileIndexRuntime.ts', 'dist/fileIndex.js', [runtimesApart]),
  // The MCP SDK's client, a bundle of its own that the extension requires on the first run with an MCP server,
  // so that activation never parses it (src/host/agent/mcp/sdkClient.ts).
  nodeBundle('src/host/agent/mcp/sdkClient.ts', 'dist/mcp.js'),
  // The file index ranks its paths in a worker thread (src/host/context/pathRanker.ts), which loads this file.
  nodeBundle('src/host/context/fileIndexWorker.ts', 'dist/fileIndexWorker.js'),
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
  // A fresh tree each time: the compiled copy of a deleted or renamed test would otherwise still run.
  for (const dir of ['out/src', 'out/test']) rmSync(dir, { recursive: true, force: true });
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
