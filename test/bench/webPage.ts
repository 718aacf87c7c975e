/**
 * Headless Chromium for cases 2 and 3: a loopback server for the production webview bundle (under the
 * host's CSP, with a stand-in for acquireVsCodeApi) and for the renderer bench bundle, and CDP metrics.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { launchChromium } from '../support/chromium';
import type { Stage } from './stage';
import { browserBundle, codiconFile } from '../support/pageAssets';

const NONCE = 'benchNonce0123456789abcdef';

/** Records what the webview posts and keeps its state, as VS Code's preload does. */
const STUB = `(() => {
  let saved;
  window.__posted = [];
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.__posted.push(m),
    getState: () => saved,
    setState: (s) => (saved = s),
  });
})();`;

/** The page and its DevTools session. */
export interface BenchPage {
  page: Page;
  cdp: CDPSession;
  /** A CDP Performance metric (TaskDuration, ScriptDuration in s; JSHeapUsedSize in bytes). */
  metric(name: string): Promise<number>;
  close(): Promise<void>;
}

/** The server and browser of one run. */
export interface WebBench {
  /** `webview`: the production bundle in the chat page; `render`: the renderer bench bundle. */
  open(kind: 'webview' | 'render'): Promise<BenchPage>;
  close(): Promise<void>;
}

function html(kind: 'webview' | 'render'): string {
  const script = kind === 'webview' ? '/webview.js' : '/bench.js';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="/codicon.css"><link rel="stylesheet" href="/chat.css"></head>
<body><div id="app"></div>
<script nonce="${NONCE}" src="/stub.js"></script><script nonce="${NONCE}" src="${script}"></script></body></html>`;
}

/** Starts the server and Chromium; `extra` adds served files (case 10's images). */
export async function startWebBench(
  stage: Stage,
  extra: Record<string, { body: string | Buffer; type: string }> = {},
): Promise<WebBench> {
  const files: Record<string, { body: string | Buffer; type: string }> = {
    ...extra,
    '/webview.js': { body: readFileSync(stage.webviewJs), type: 'text/javascript' },
    // StreamRenderer from src/webview (the same code path), minified like production.
    '/bench.js': {
      body: browserBundle('test/bench/page/benchEntry.ts', { minify: true }),
      type: 'text/javascript',
    },
    '/stub.js': { body: STUB, type: 'text/javascript' },
    '/chat.css': { body: readFileSync(join(repoRoot, 'media', 'chat.css')), type: 'text/css' },
    '/codicon.css': { body: codiconFile('codicon.css'), type: 'text/css' },
    '/codicon.ttf': { body: codiconFile('codicon.ttf'), type: 'font/ttf' },
  };
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/' || path === '/render') {
      const kind = path === '/' ? 'webview' : 'render';
      const csp = `default-src 'none'; script-src 'nonce-${NONCE}'; style-src 'self'; font-src 'self'; img-src 'self' data:;`;
      response
        .writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp })
        .end(html(kind));
      return;
    }
    const file = files[path];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser: Browser = await launchChromium(['--js-flags=--expose-gc']);

  async function open(kind: 'webview' | 'render'): Promise<BenchPage> {
    const context = await browser.newContext({ viewport: { width: 420, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    await page.goto(`${origin}${kind === 'webview' ? '/' : '/render'}`);
    if (kind === 'webview') await page.waitForSelector('.composer textarea', { timeout: 30_000 });
    else await page.waitForFunction(() => window.__bench !== undefined, undefined, { timeout: 30_000 });
    if (errors.length) throw new Error(`the ${kind} page failed: ${errors.join('; ')}`);
    return {
      page,
      cdp,
      async metric(name) {
        const { metrics } = await cdp.send('Performance.getMetrics');
        return metrics.find((m) => m.name === name)?.value ?? Number.NaN;
      },
      close: () => context.close(),
    };
  }

  return {
    open,
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
