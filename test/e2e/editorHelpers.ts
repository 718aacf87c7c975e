import type { FrameLocator, Locator, Page } from 'playwright-core';
import { quickInput, runCommand } from '../harness/browser';
import { until } from '../support/poll';
import { retrying } from '../support/retry';

/** Whether the workbench shows a dark theme. */
export async function isDarkTheme(page: Page): Promise<boolean> {
  return (await page.locator('.monaco-workbench.vs-dark').count()) > 0;
}

/**
 * Toggles between the light and the dark theme, as a user would, and waits until the workbench shows the other
 * one, and `frame` (a webview), when given, has been told: a screenshot then shows one theme, not half of each.
 * Resolves true when the theme is now dark.
 */
export async function toggleTheme(page: Page, frame?: FrameLocator): Promise<boolean> {
  const wasDark = await isDarkTheme(page);
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await until(async () => (await isDarkTheme(page)) !== wasDark, 10_000, 'the other theme');
  const webviewClass = wasDark ? 'vscode-light' : 'vscode-dark';
  await frame?.locator(`body.${webviewClass}`).waitFor({ state: 'attached', timeout: 10_000 });
  return !wasDark;
}

/**
 * Opens a workspace file through Quick Open, as a user would, and puts the caret in it. Focus may be in the chat
 * webview (a chip was just clicked), where keys can be lost: the workbench's title bar is clicked first (as
 * runCommand does), the file's row is clicked rather than Enter pressed (Enter can meet a list still filling), and
 * the whole step is tried up to three times, until the file's tab is the active one.
 */
export async function openFile(page: Page, name: string): Promise<void> {
  const base = name.split('/').pop() ?? name;
  const input = quickInput(page);
  await retrying(
    3,
    async () => {
      await page
        .locator('.monaco-workbench')
        .click({ position: { x: 5, y: 5 } })
        .catch(() => undefined);
      await page.keyboard.press('Control+P');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(name);
      // A row shows the base name, with the folder as its description.
      const row = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: base }).first();
      await row.waitFor({ timeout: 10_000 });
      await row.click({ timeout: 5_000 });
      await page.locator('.tab.active').filter({ hasText: base }).first().waitFor({ timeout: 10_000 });
    },
    () => page.keyboard.press('Escape'),
  );
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
}

/** The text of the active editor, read from its rendered lines. */
export async function editorText(page: Page): Promise<string> {
  return (await page.locator('.editor-instance .monaco-editor .view-lines').first().innerText()).replace(
    /\u00a0/g,
    ' ',
  );
}

/** The code lens action whose title starts with `title` (Accept All, Reject, …) in the review. */
export function codeLens(page: Page, title: string): Locator {
  return page.locator('.codelens-decoration a').filter({ hasText: new RegExp(`^\\s*${title}`) });
}
