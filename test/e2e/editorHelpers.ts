import type { Page } from 'playwright-core';
import { quickInput } from '../harness/browser';

/** Opens a workspace file through Quick Open, as a user would. */
export async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = quickInput(page);
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .view-lines').first().waitFor();
  await page.locator('.monaco-editor .view-lines').first().click();
}

/** The text of the active editor, read from its rendered lines. */
export async function editorText(page: Page): Promise<string> {
  return (await page.locator('.editor-instance .monaco-editor .view-lines').first().innerText()).replace(
    /\u00a0/g,
    ' ',
  );
}
