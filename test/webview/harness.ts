// Serves the real webview bundle under the host's CSP on 127.0.0.1 and drives it in headless Chromium.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chatContentSecurityPolicy } from '../../src/host/chat/chatCsp';
import { escapeAttribute, L10N_ATTRIBUTE, l10nAttributeValue } from '../../src/l10nContents';
import type { HostToWebview, WebviewToHost } from '../../src/protocol';
import { launchChromium } from '../support/chromium';
import { until } from '../support/poll';
import { THEME_CSS, type ThemeKind } from './themes';
import { browserBundle, codiconFile } from '../support/pageAssets';
import { repoRoot } from '../harness/paths';

/** The repository root. */
export const ROOT = repoRoot;
const NONCE = 'harnessNonce0123456789';

function newestMtime(dir: string): number {
  return Math.max(
    ...readdirSync(dir).map((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    }),
  );
}

/** dist/webview.js as esbuild.mjs built it; refuses to test a bundle older than its sources. */
function webviewBundle(): Buffer {
  const path = join(ROOT, 'dist/webview.js');
  if (!existsSync(path)) throw new Error('dist/webview.js is missing: run `node esbuild.mjs` first');
  const sources = Math.max(
    newestMtime(join(ROOT, 'src/webview')),
    statSync(join(ROOT, 'src/protocol.ts')).mtimeMs,
  );
  if (statSync(path).mtimeMs < sources)
    throw new Error('dist/webview.js is older than src/webview: run `node esbuild.mjs`');
  return readFileSync(path);
}

// Stands in for VS Code's preload: acquireVsCodeApi records what the webview posts. It also installs the
// XSS tripwire and collects CSP violations before the bundle runs.
const STUB = `(() => {
  let saved;
  let acquired = false;
  window.__posted = [];
  window.__xssCount = 0;
  window.__xss = () => { window.__xssCount++; };
  window.__violations = [];
  window.__uiState = () => saved;
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may only be called once');
    acquired = true;
    return {
      postMessage: (message) => window.__posted.push(JSON.parse(JSON.stringify(message))),
      getState: () => saved,
      setState: (state) => (saved = state),
    };
  };
})();`;

function page(origin: string, theme: ThemeKind, bundle: string, l10nAttribute = ''): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="${origin}/harness/theme.css">
<link rel="stylesheet" href="${origin}/dist/codicons/codicon.css">
<link rel="stylesheet" href="${origin}/media/chat.css">
</head><body class="${theme}" data-vscode-theme-kind="${theme}"><div id="app"${l10nAttribute}></div>
<script nonce="${NONCE}" src="${origin}/harness/stub.js"></script>
<script nonce="${NONCE}" src="${origin}/${bundle}"></script>
</body></html>`;
}

export interface PageOptions {
  theme?: ThemeKind;
  /** 'webview' is the real bundle; 'render' the renderer-only test bundle. */
  bundle?: 'webview' | 'render';
  width?: number;
  height?: number;
  /**
   * The l10n bundle the host puts on #app, as the host does (buildChatHtml); a string is put there as it is
   * (escaped), for malformed bundles. None: English, as VS Code in English.
   */
  l10n?: Record<string, string> | string;
}

/** A page running the bundle, with everything the tests observe. */
export interface HarnessPage {
  page: Page;
  /** Every URL the page requested. */
  requests: string[];
  /** Uncaught exceptions and console errors. */
  errors: string[];
  /** Delivers a host message as VS Code does (a window message event). */
  send(message: HostToWebview): Promise<void>;
  /** Messages the webview posted to the host so far. */
  posted(): Promise<WebviewToHost[]>;
  close(): Promise<void>;
}

/** The web server and browser shared by one test file. */
export interface Harness {
  origin: string;
  open(options?: PageOptions): Promise<HarnessPage>;
  close(): Promise<void>;
}

/** Starts the server and Chromium. */
export async function startHarness(): Promise<Harness> {
  // Read up front, so a stale or missing bundle fails the run at once with a clear message.
  const webview = webviewBundle();
  const render = browserBundle('test/webview/page/renderEntry.ts'); // exposes the stream renderer alone
  const files: Record<string, () => { body: string | Buffer; type: string }> = {
    '/dist/webview.js': () => ({ body: webview, type: 'text/javascript' }),
    '/test/render.js': () => ({ body: render, type: 'text/javascript' }),
    '/media/chat.css': () => ({ body: readFileSync(join(ROOT, 'media/chat.css')), type: 'text/css' }),
    '/dist/codicons/codicon.css': () => ({ body: codiconFile('codicon.css'), type: 'text/css' }),
    '/dist/codicons/codicon.ttf': () => ({ body: codiconFile('codicon.ttf'), type: 'font/ttf' }),
    '/harness/stub.js': () => ({ body: STUB, type: 'text/javascript' }),
    '/harness/theme.css': () => ({ body: THEME_CSS, type: 'text/css' }),
  };
  let origin = '';
  /** The #app attribute of each page opened with a bundle, by the id in its URL. */
  const l10nAttributes = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/') {
      const theme = (url.searchParams.get('theme') ?? 'vscode-dark') as ThemeKind;
      const bundle = url.searchParams.get('bundle') === 'render' ? 'test/render.js' : 'dist/webview.js';
      const l10nAttribute = l10nAttributes.get(url.searchParams.get('l10n') ?? '') ?? '';
      // The host's own CSP, with the harness origin standing in for webview.cspSource.
      const csp = chatContentSecurityPolicy(origin, NONCE);
      response.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp });
      response.end(page(origin, theme, bundle, l10nAttribute));
      return;
    }
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const file = files[url.pathname];
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    const { body, type } = file();
    response.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const browser: Browser = await launchChromium([]);

  async function open(options: PageOptions = {}): Promise<HarnessPage> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 420, height: options.height ?? 800 },
      colorScheme: options.theme === 'vscode-light' ? 'light' : 'dark',
    });
    const page = await context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    const bundle = options.bundle ?? 'webview';
    let l10nQuery = '';
    if (options.l10n !== undefined) {
      const id = String(l10nAttributes.size + 1);
      const value =
        typeof options.l10n === 'string' ? escapeAttribute(options.l10n) : l10nAttributeValue(options.l10n);
      l10nAttributes.set(id, ` ${L10N_ATTRIBUTE}="${value}"`);
      l10nQuery = `&l10n=${id}`;
    }
    await page.goto(`${origin}/?theme=${options.theme ?? 'vscode-dark'}&bundle=${bundle}${l10nQuery}`);
    if (bundle === 'webview') await page.waitForSelector('.composer');
    else await page.waitForFunction(() => window.__md !== undefined);
    return {
      page,
      requests,
      errors,
      send: (message) => page.evaluate((data) => window.postMessage(data, '*'), message),
      posted: () => page.evaluate(() => window.__posted),
      close: () => context.close(),
    };
  }

  return {
    origin,
    open,
    close: async () => {
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves after the page has rendered the given number of animation frames. */
export function frames(page: Page, count = 2): Promise<void> {
  return page.evaluate(
    (n) =>
      new Promise<void>((resolve) => {
        const step = (left: number): void => {
          if (left === 0) resolve();
          else requestAnimationFrame(() => step(left - 1));
        };
        step(n);
      }),
    count,
  );
}

/** Scrolls the transcript to its top until `count` turns are rendered (older turns load on demand). */
export async function scrollUntilTurns(page: Page, count: number, timeoutMs = 10_000): Promise<void> {
  await until(
    async () => {
      if ((await page.locator('article').count()) >= count) return true;
      await page.evaluate(() => document.querySelector('.transcript')?.scrollTo(0, 0));
      await frames(page, 2);
      return false;
    },
    timeoutMs,
    `${count} turns rendered`,
  );
}
