// Mocha hooks that give a webview test file its harness and pages, so no suite writes its own.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startHarness, type Harness, type HarnessPage, type PageOptions } from './harness';

/** A file's harness as its tests use it: pages open on it, and a page closes with its errors checked. */
export interface FileHarness {
  /** The harness server's origin (known once the file's tests run). */
  readonly origin: string;
  open(options?: PageOptions): Promise<HarnessPage>;
  /** Closes the page; unless told otherwise, an uncaught error or console error on it fails the test. */
  close(hp: HarnessPage | undefined, options?: { allowErrors?: boolean }): Promise<void>;
}

/**
 * Registers one harness (server and Chromium) for the calling test file, started before its tests and closed
 * after them, for files whose tests open their own pages (`open` in the test, `close` in `afterEach`).
 */
export function useHarness(): FileHarness {
  let harness: Harness | undefined;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => {
    await harness?.close();
  });
  return {
    get origin(): string {
      if (!harness) throw new Error('the harness did not start');
      return harness.origin;
    },
    open: (options) => {
      if (!harness) throw new Error('the harness did not start');
      return harness.open(options);
    },
    close: async (hp, options = {}) => {
      try {
        if (!options.allowErrors) assert.deepEqual(hp?.errors ?? [], [], 'errors on the page');
      } finally {
        await hp?.close();
      }
    },
  };
}

/**
 * Registers {@link useHarness} and a fresh page (of `options.page`) for each test: opened in `beforeEach` and
 * handed to `receive` (which keeps it, and may prepare it), closed after the test with its errors checked
 * unless `allowErrors`.
 */
export function usePagePerTest(
  receive: (hp: HarnessPage) => unknown,
  options: { allowErrors?: boolean; page?: PageOptions } = {},
): FileHarness {
  const harness = useHarness();
  let hp: HarnessPage | undefined;
  beforeEach(async () => {
    hp = await harness.open(options.page);
    await receive(hp);
  });
  afterEach(async () => {
    await harness.close(hp, options);
    hp = undefined;
  });
  return harness;
}

/** Registers one page shared by the file's tests: opened in `before`, closed in `after`. */
export function useSharedPage(options: PageOptions = {}): { readonly hp: HarnessPage } {
  let harness: Harness | undefined;
  let hp: HarnessPage | undefined;
  before(async () => {
    harness = await startHarness();
    hp = await harness.open(options);
  });
  after(async () => {
    await hp?.close();
    await harness?.close();
  });
  return {
    get hp(): HarnessPage {
      if (!hp) throw new Error('the shared page did not open');
      return hp;
    },
  };
}

/** {@link useSharedPage} for the `render` bundle (the stream renderer alone), as its suites use it. */
export function useRenderPage(): { readonly page: Page } {
  const shared = useSharedPage({ bundle: 'render' });
  return {
    get page(): Page {
      return shared.hp.page;
    },
  };
}
