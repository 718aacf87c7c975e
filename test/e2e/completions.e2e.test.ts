import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { expectedCompletion } from '../gateway-emulator/completionAnswers';
import { emulator, until } from './chatHelpers';
import { editorText, openFile } from './editorHelpers';
import { chatRequestsOf } from '../support/emulatorRequests';

const chatCount = (): number => chatRequestsOf(emulator()).length;

/** The status bar toggle, found by its accessible name as a screen reader user would. */
function toggle(page: Page, state: 'on' | 'off') {
  return page.locator(`[aria-label="Model Gateway completions ${state}. Toggle completions."]`).first();
}

describe('Inline completions in the real editor', function () {
  this.timeout(120_000);

  it('the status bar turns them on; ghost text appears after a pause and Tab inserts it', async () => {
    const { page } = e2e();
    await runCommand(page, 'View: Close All Editors');
    await toggle(page, 'off').click();
    await toggle(page, 'on').waitFor({ timeout: 10_000 });
    // Opening the file after the click puts the keyboard focus back in the editor.
    await openFile(page, 'sample.ts');
    const before = chatCount();
    try {
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await until(() => chatCount() > before, 15_000, 'a completion request after the pause');
      const ghost = page.locator('.monaco-editor .ghost-text-decoration, .monaco-editor .ghost-text').first();
      await ghost.waitFor({ timeout: 15_000 });
      await screenshot(page, 'e2e-inline-completion-ghost');
      await page.keyboard.press('Tab');
      const block = expectedCompletion({ language: 'typescript', before: '\n', after: '' });
      await until(
        async () => (await editorText(page)).includes('const doubled = value * 2;'),
        10_000,
        'the insert',
      );
      const text = await editorText(page);
      for (const line of block.split('\n'))
        assert.ok(text.includes(line.trim()), `the editor holds "${line}"`);
      await screenshot(page, 'e2e-inline-completion-accepted');
    } finally {
      await runCommand(page, 'File: Revert File');
      // Leaves completions off for the other tests, whatever state a failure left them in.
      if (await toggle(page, 'on').isVisible()) await toggle(page, 'on').click();
    }
    await toggle(page, 'off').waitFor({ timeout: 10_000 });
  });
});
