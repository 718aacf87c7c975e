// Issue 16 "The first ten minutes", in the real editor: readable model names (6), History rows (8), visible
// confirmations (9), the connection-refused card (10) and Thinking kept open across a reload (11). Item 5
// (a wrong sk- key gets 401) is in apiKey.e2e.test.ts. Each step leaves a screenshot to look at.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { readableModelName } from '../../src/gateway/modelNames';
import { answerHeadline } from '../gateway-emulator';
import { quickInput, runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { articles, openChat, send, until, openNewChat } from './chatHelpers';

const THINKING = 'alpha-sonnet-4-5-20250929-thinking';

/** A local port with nothing listening on it (connections are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('The first ten minutes (issue 16), in the real editor', function () {
  this.timeout(180_000);

  it('the Model select shows "Sonnet 4.5 · thinking", uncut, with the id in its tooltip', async () => {
    const { page } = e2e();
    const frame = await openNewChat(page);
    const select = frame.getByRole('combobox', { name: 'Model', exact: true });
    await select.selectOption(THINKING);
    const label = await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent ?? '');
    assert.equal(label, 'Sonnet 4.5 · thinking');
    assert.equal(await select.getAttribute('title'), `Model: ${THINKING}`);
    assert.ok(await select.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), 'the name is not cut off');
    await screenshot(page, 'e2e-first-model-select');
  });

  it('an opened Thinking section stays open across a window reload, its duration as "Ns"', async () => {
    const { page } = e2e();
    let frame = await openChat(page);
    await send(frame, 'Explain closures');
    const answer = articles(frame, `Assistant ${readableModelName(THINKING)}`).last();
    await until(
      async () => (await answer.innerText()).includes(answerHeadline('Explain closures')),
      20_000,
      'the answer',
    );
    const summary = answer.locator('details.thinking > summary');
    assert.match((await summary.innerText()).trim(), /^Thinking \((\d+m )?\d+s\)$/);
    await summary.click();
    await until(async () => (await answer.locator('details.thinking[open]').count()) === 1, 5000, 'open');
    // VS Code stores webview state asynchronously: a reload right after the click can predate it.
    await page.waitForTimeout(3000);
    await e2e().reload(page);
    frame = await openChat(page);
    const restored = articles(frame, `Assistant ${readableModelName(THINKING)}`).last();
    await restored.waitFor({ timeout: 20_000 });
    await until(
      async () => (await restored.locator('details.thinking[open]').count()) === 1,
      10_000,
      'the section to be open again after the reload',
    );
    await screenshot(page, 'e2e-first-thinking-after-reload');
    await frame
      .getByRole('combobox', { name: 'Model', exact: true })
      .selectOption('alpha-sonnet-4-5-20250929');
  });

  it('History rows show title, model, time and count; Export is confirmed in the status bar', async () => {
    const { page, folder } = e2e();
    const frame = await openChat(page);
    await frame.getByRole('button', { name: 'History', exact: true }).click();
    const row = frame.locator('.history-row').first();
    await row.waitFor();
    assert.match(await row.locator('.history-meta').innerText(), /^.+ · .+ · \d+ messages?$/);
    assert.ok(await row.locator('.history-meta').evaluate((el) => el.scrollWidth <= el.clientWidth + 1));
    assert.equal(await frame.locator('.jump-to-latest').isVisible(), false);
    assert.doesNotMatch(await row.locator('.history-title').innerText(), /…$/);
    await screenshot(page, 'e2e-first-history');
    await row.getByRole('button', { name: 'Export', exact: true }).click();
    const input = quickInput(page);
    await input.waitFor({ state: 'visible' });
    const target = join(folder, 'first-ten-minutes.md');
    await until(async () => (await input.inputValue()).endsWith('.md'), 10_000, 'the default path');
    await input.fill(target);
    await until(async () => (await input.inputValue()) === target, 5_000, 'the typed path');
    await page.keyboard.press('Enter');
    const confirmation = page
      .locator('.statusbar-item')
      .filter({ hasText: /Exported first-ten-minutes\.md/ });
    await confirmation.first().waitFor({ timeout: 15_000 });
    await screenshot(page, 'e2e-first-export-confirmed');
    assert.ok(existsSync(target));
    await confirmation.first().click();
    await page
      .locator('.tab')
      .filter({ hasText: 'first-ten-minutes.md' })
      .first()
      .waitFor({ timeout: 10_000 });
    await runCommand(page, 'View: Close All Editors');
  });

  it('a refused connection offers Retry, Open Settings (on modelGateway.baseUrl) and Show Log', async () => {
    const { page, folder } = e2e();
    const settingsFile = join(folder, '.vscode', 'settings.json');
    mkdirSync(dirname(settingsFile), { recursive: true });
    writeFileSync(
      settingsFile,
      JSON.stringify({ 'modelGateway.baseUrl': `http://127.0.0.1:${await closedPort()}` }),
    );
    try {
      // The status bar drops "(emulator)" once the extension uses the new base URL.
      await until(
        async () => (await page.locator('.statusbar-item').filter({ hasText: '(emulator)' }).count()) === 0,
        15_000,
        'the new base URL to apply',
      );
      const frame = await openNewChat(page);
      await send(frame, 'Hello nobody');
      const card = articles(frame, /^Assistant /)
        .last()
        .locator('.error-box');
      await card.waitFor({ timeout: 30_000 });
      const buttons = (await card.getByRole('button').allInnerTexts()).map((t) => t.trim());
      assert.deepEqual(buttons, ['Retry', 'Open Settings', 'Show Log']);
      await screenshot(page, 'e2e-first-connection-refused');
      await card.getByRole('button', { name: 'Open Settings', exact: true }).click();
      // The Settings editor opens searched to the one setting (its search box is an editor, not an input).
      const settings = page.locator('.settings-editor');
      await settings.getByText('1 Setting Found').waitFor({ timeout: 15_000 });
      await settings.locator('.setting-item-label').filter({ hasText: 'Base Url' }).first().waitFor();
      await screenshot(page, 'e2e-first-open-settings');
      await runCommand(page, 'View: Close All Editors');
      await openChat(page);
      await card.getByRole('button', { name: 'Show Log', exact: true }).click();
      // The Output panel opens on the extension's log (the channel picker's chosen option).
      await page
        .locator('.part.panel option:checked')
        .filter({ hasText: /^Model Gateway$/ })
        .first()
        .waitFor({ state: 'attached', timeout: 15_000 });
    } finally {
      rmSync(dirname(settingsFile), { recursive: true, force: true });
    }
    await until(
      async () => (await page.locator('.statusbar-item').filter({ hasText: '(emulator)' }).count()) > 0,
      15_000,
      'the fixture gateway again',
    );
  });
});
