import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { runCommand, screenshot, webviewWith } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { retrying } from '../support/retry';
import { articles, until } from './chatHelpers';
import { openFile } from './editorHelpers';

/** Right-clicks the active editor's text and waits for its context menu. */
async function openEditorMenu(page: Page): Promise<void> {
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click({ button: 'right' });
  await page.getByRole('menu').first().waitFor({ state: 'visible', timeout: 10_000 });
}

describe('The editor context menu', function () {
  this.timeout(120_000);

  it('groups our commands in a "Model Gateway" submenu, beside none of them unprefixed', async () => {
    const { page } = e2e();
    await runCommand(page, 'View: Close All Editors');
    await openFile(page, 'sample.ts');
    await page.keyboard.press('Control+A');
    await retrying(
      3,
      async () => {
        await openEditorMenu(page);
        const top = page.getByRole('menu').first();
        // Nothing of ours sits loose in the editor's own menu.
        for (const name of ['Explain Selection', 'Generate Code', 'Generate Image'])
          assert.equal(await top.getByRole('menuitem', { name, exact: true }).count(), 0, name);
        await top.getByRole('menuitem', { name: 'Model Gateway' }).hover({ timeout: 10_000 });
        const submenu = page.getByRole('menu').nth(1);
        await submenu.waitFor({ state: 'visible', timeout: 10_000 });
        const labels = await submenu.getByRole('menuitem').allInnerTexts();
        for (const name of [
          'Explain Selection',
          'Add Selection to Model Gateway Chat',
          'Generate Code',
          'Generate Image',
        ])
          assert.ok(
            labels.some((label) => label.includes(name)),
            `${name} in ${labels.join(' | ')}`,
          );
        await screenshot(page, 'e2e-editor-menu');
        await submenu.getByRole('menuitem', { name: 'Explain Selection' }).hover({ timeout: 10_000 });
        await page.keyboard.press('Enter');
      },
      () => page.keyboard.press('Escape'),
    );
    // The submenu's item runs the command: the explanation of the selection reaches the chat.
    const frame = await webviewWith(page, 'textarea[aria-label="Message"]', 30_000);
    const you = articles(frame, 'You').last();
    // The turn says what was asked (issue 25, finding 10), with the code as a chip.
    await until(
      async () => /^Explain\b.*sample\.ts:\d+-\d+/m.test(await you.innerText().catch(() => '')),
      20_000,
      'the explanation request in the chat',
    );
  });
});
