// The shared end-to-end fixture (emulator + code-server + Chromium page), set up once by runE2E.ts.
// Tests import `e2e()` from here; the runner fills it before mocha loads the test files.
import type { Page } from 'playwright-core';
import type { Browser } from './browser';
import { openWorkbench, waitForCommand } from './browser';
import type { CodeServer } from './codeServer';
import type { Gateway } from './workspace';

/** Everything an end-to-end test needs to drive the editor. */
export interface E2EFixture {
  /** How the extension is loaded: from the repository, or installed from a VSIX. */
  mode: 'development' | 'vsix';
  gateway: Gateway;
  server: CodeServer;
  browser: Browser;
  /** The page showing the workbench (already loaded). */
  page: Page;
  /** The opened workspace folder (a temp copy of test/fixtures/workspace). */
  folder: string;
  /** Development payload passed with the workbench URL (undefined in VSIX mode). */
  payload: [string, string][] | undefined;
  /** Reloads the workbench (a fresh extension host) in `page` (default: the shared page) and waits for the extension. */
  reload(page?: Page): Promise<Page>;
}

let current: E2EFixture | undefined;

/** Installs the fixture (runner only). */
export function setE2EFixture(fixture: E2EFixture | undefined): void {
  current = fixture;
}

/** The shared fixture; throws when the file runs outside runE2E. */
export function e2e(): E2EFixture {
  if (!current) throw new Error('no e2e fixture: run end-to-end tests through out/test/harness/runE2E.js');
  return current;
}

/** Text every command of the extension carries in the palette (its category). */
export const extensionCategory = 'Model Gateway';

/** Opens the workbench and waits until the extension's contributions are registered (bounded). */
export async function openWithExtension(
  page: Page,
  server: CodeServer,
  folder: string,
  payload: [string, string][] | undefined,
): Promise<void> {
  await openWorkbench(page, server.url, folder, payload);
  await waitForCommand(page, extensionCategory, 60_000);
}

/** Builds the reload function of a fixture. */
export function reloader(
  server: CodeServer,
  folder: string,
  payload: [string, string][] | undefined,
  fallback: Page,
): (page?: Page) => Promise<Page> {
  return async (page = fallback) => {
    await openWithExtension(page, server, folder, payload);
    return page;
  };
}
