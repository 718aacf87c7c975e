import * as assert from 'node:assert/strict';
import { quickInput, runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';

describe('e2e smoke: the workbench with Model Gateway', () => {
  it('renders the workbench with the workspace open', async () => {
    const { page } = e2e();
    await page.locator('.monaco-workbench .part.editor').waitFor({ state: 'visible', timeout: 30_000 });
    await runCommand(page, 'View: Show Explorer');
    const readme = page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: 'README.md' });
    await readme.waitFor({ state: 'visible', timeout: 30_000 });
    const file = await screenshot(page, 'e2e-workbench');
    assert.ok(file.endsWith('e2e-workbench.png'));
  });

  it('lists the extension commands in the command palette', async () => {
    const { page } = e2e();
    await page.keyboard.press('F1');
    const input = quickInput(page);
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill('>Model Gateway');
    const rows = page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: 'Model Gateway' });
    await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'e2e-command-palette');
    assert.ok((await rows.count()) > 0);
    await page.keyboard.press('Escape');
  });

  it('runs palette commands and opens a terminal (native node-pty works)', async () => {
    const { page } = e2e();
    await runCommand(page, 'Terminal: Create New Terminal');
    await page.locator('.terminal-wrapper .xterm').first().waitFor({ state: 'visible', timeout: 20_000 });
    // The shell's name only shows in the panel once the pty process really started.
    const tab = page
      .locator('.part.panel .single-terminal-tab')
      .filter({ hasText: /\b(bash|sh|dash|zsh)\b/ });
    await tab.first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'e2e-terminal');
    await runCommand(page, 'Terminal: Kill All Terminals');
  });
});
