// Debian Chromium driven by playwright-core, plus helpers for VS Code's workbench.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { workbenchUrl } from './codeServer';
import { resultsDir } from './paths';
import { launchPersistentChromium } from '../support/chromium';
import { until, waitFor } from '../support/poll';
import { retrying } from '../support/retry';

/** A Chromium instance with a fresh profile. */
export interface Browser {
  context: BrowserContext;
  /** The first page of the context. */
  page: Page;
  /** Closes Chromium and removes its profile folder. */
  close(): Promise<void>;
}

/** Options of {@link launchBrowser}. */
export interface LaunchOptions {
  /** Show the window (needs a display); default headless. */
  headed?: boolean;
  width?: number;
  height?: number;
}

/** Launches the suites' Chromium (see test/support/chromium.ts) with a fresh user-data dir; the runners own shutdown. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'mg-chromium-'));
  const context = await launchPersistentChromium(profile, {
    headed: options.headed,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** Opens the workbench for `folder` (with an optional development payload) and waits until it renders. */
export async function openWorkbench(
  page: Page,
  baseUrl: string,
  folder: string,
  payload?: [string, string][],
  timeoutMs = 60_000,
): Promise<void> {
  await page.goto(workbenchUrl(baseUrl, folder, payload), {
    waitUntil: 'domcontentloaded',
    timeout: timeoutMs,
  });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: timeoutMs });
  // The status bar appears once the workbench has restored its parts.
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The command palette's input box. */
export function quickInput(page: Page): Locator {
  return page.locator('.quick-input-widget input');
}

/** Options of {@link acceptInputBox}. */
export interface InputBoxOptions {
  /** The box must be a password box (its input masks what is typed). */
  password?: boolean;
  timeoutMs?: number;
  /** Text of the step that follows in the same widget (a multi-step flow): it counts as closing the box. */
  nextStep?: string;
}

/**
 * Types `value` into the open single-step input box and accepts it with Enter, as a user would. A box the
 * extension has only just shown can still receive its first property update from the extension host, which
 * resets what was typed; so the value is read back before Enter, the box must close after it, and both are
 * retried (three attempts at most).
 */
export async function acceptInputBox(
  page: Page,
  value: string,
  options: InputBoxOptions = {},
): Promise<void> {
  const timeout = options.timeoutMs ?? 15_000;
  const widget = page.locator('.quick-input-widget');
  const input = options.password
    ? page.locator('.quick-input-widget input[type="password"]')
    : quickInput(page);
  for (let attempt = 1; ; attempt++) {
    await input.waitFor({ state: 'visible', timeout });
    await input.fill(value, { timeout });
    if ((await input.inputValue()) === value) {
      await page.keyboard.press('Enter');
      const next = options.nextStep ? widget.filter({ hasText: options.nextStep }) : undefined;
      const closed = await Promise.any([
        widget.waitFor({ state: 'hidden', timeout: 5000 }),
        ...(next ? [next.waitFor({ state: 'visible', timeout: 5000 })] : []),
      ]).then(
        () => true,
        () => false,
      );
      if (closed) return;
    }
    if (attempt >= 3)
      throw new Error(`the input box did not accept the typed value after ${attempt} attempts`);
    await page.waitForTimeout(500);
  }
}

/**
 * Runs a command by its palette title: F1, type the title, wait for a matching row, click it. A palette that
 * closes before the title is typed (a view taking focus as the window restores it, after a reload) is
 * opened again, up to three times.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 15_000): Promise<void> {
  const input = quickInput(page);
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: title }).first();
  // A view that takes the focus meanwhile (a command just run opens the chat, say) closes the palette under the
  // pointer: the whole step is tried again, up to three times.
  await retrying(
    3,
    async (attempt) => {
      const last = attempt >= 3;
      await page
        .locator('.monaco-workbench')
        .click({ position: { x: 5, y: 5 }, timeout: timeoutMs })
        .catch(() => undefined);
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: timeoutMs });
      await input.fill(`>${title}`, { timeout: last ? timeoutMs : 5_000 });
      await row.waitFor({ state: 'visible', timeout: timeoutMs });
      await row.click({ timeout: last ? timeoutMs : 5_000 });
    },
    () => page.keyboard.press('Escape'),
  );
}

/** Polls the command palette until a command whose label contains `title` is listed (bounded). */
export async function waitForCommand(page: Page, title: string, timeoutMs = 60_000): Promise<void> {
  const input = quickInput(page);
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: title }).first();
  const listed = async (): Promise<boolean> => {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    const found = await row.waitFor({ state: 'visible', timeout: 2000 }).then(
      () => true,
      () => false,
    );
    await page.keyboard.press('Escape');
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 5000 })
      .catch(() => undefined);
    return found;
  };
  await until(listed, timeoutMs, `command "${title}" to be listed`);
}

/**
 * Waits for a notification whose text matches and returns its list item (buttons included).
 * With the smoke-test driver on (needed for development payloads) the workbench shows no toasts, so this
 * opens the notification center and looks there; a visible toast is used when there is one.
 * Only new notifications count: with `cause`, every notification is cleared first and then `cause` runs
 * (the step expected to show it); without it, the caller's earlier `hideNotifications` cleared them.
 */
export async function waitForNotification(
  page: Page,
  text: RegExp,
  timeoutMs = 15_000,
  cause?: () => Promise<unknown>,
): Promise<Locator> {
  if (cause) {
    await clearNotifications(page);
    await cause();
  }
  const toast = page.locator('.notification-toast .notification-list-item').filter({ hasText: text }).first();
  const center = page.locator('.notifications-center');
  const inCenter = center.locator('.notification-list-item').filter({ hasText: text }).first();
  return waitFor(
    async () => {
      if (await toast.isVisible()) return toast;
      // The palette this goes through closes when something else takes focus (a file the extension opens,
      // say): then the next round opens it again.
      if (!(await center.isVisible()))
        await runCommand(page, 'Notifications: Show Notifications', 5000).catch(() => undefined);
      return (await inCenter.isVisible()) ? inCenter : undefined;
    },
    `a notification matching ${text}`,
    timeoutMs,
  );
}

/** Removes every notification (and closes the center), so an old one can never match a later wait. */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  // "Hide Notifications" is only listed while the center is open.
  if (await page.locator('.notifications-center').isVisible())
    await runCommand(page, 'Notifications: Hide Notifications');
}

/** Hides the notification center and toasts, clearing them: a notification dealt with cannot match again. */
export async function hideNotifications(page: Page): Promise<void> {
  await clearNotifications(page);
}

/** Clicks the button labelled `label` on a notification returned by {@link waitForNotification}. */
export async function clickNotificationButton(
  toast: Locator,
  label: string | RegExp,
  timeoutMs = 10_000,
): Promise<void> {
  await toast.locator('.monaco-button').filter({ hasText: label }).first().click({ timeout: timeoutMs });
}

const readyWebviews = 'iframe.webview.ready';

/** The content frame of the `index`-th ready webview (outer `iframe.webview.ready`, inner `#active-frame`). */
export function chatFrame(page: Page, index = 0): FrameLocator {
  return page.locator(readyWebviews).nth(index).contentFrame().frameLocator('#active-frame');
}

/**
 * The content frame of the first webview that shows `selector` (the outer iframes carry no title, so several
 * open webviews are told apart by their content; a hidden view's frame is skipped). Polls until `timeoutMs`.
 */
export function webviewWith(page: Page, selector: string, timeoutMs = 20_000): Promise<FrameLocator> {
  return waitFor(
    async () => {
      const count = await page.locator(readyWebviews).count();
      for (let i = 0; i < count; i++) {
        const frame = chatFrame(page, i);
        const shown = await frame
          .locator(selector)
          .first()
          .isVisible()
          .catch(() => false);
        if (shown) return frame;
      }
      return undefined;
    },
    `a webview that contains ${selector}`,
    timeoutMs,
  );
}

/** Saves a full-window screenshot to test-results/<name>.png and returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = join(resultsDir(), `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, timeout: 15_000 });
  return file;
}
