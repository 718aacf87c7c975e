import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { acceptInputBox, runCommand, screenshot, waitForCommand, webviewWith } from '../harness/browser';
import { extensionCategory } from '../harness/e2eFixture';
import { emulatorKey } from '../harness/workspace';
import { startOwnEditor, waitForActivation, type OwnEditor } from './ownEditor';

const TITLE = 'Get Started with Model Gateway';
const STEPS = [
  'Set your API key',
  'Point to your gateway',
  'Test Connection',
  'Ask in the chat',
  'Explain a selection',
  'Generate code and review it',
  'Generate an image',
];

/** The walkthrough page of the Welcome editor, once it shows our walkthrough. */
function walkthrough(page: Page) {
  return page.locator('.gettingStartedContainer').filter({ hasText: TITLE });
}

/** The button a step's description shows for its command (only while the step is expanded). */
function stepButton(page: Page, id: string, name: string) {
  return page
    .locator(`.step-description-container[x-step-description-for$="#${id}"]`)
    .getByRole('button', { name });
}

/** The step button of a step id (`data-step-id` ends with it). */
function step(page: Page, id: string) {
  return page.locator(`button.getting-started-step[data-step-id$="#${id}"]`);
}

describe('Getting Started walkthrough (issue 20), in a fresh editor without a key', function () {
  this.timeout(240_000);
  let editor: OwnEditor;

  before(async function () {
    this.timeout(180_000);
    // VS Code opens a newly installed extension's walkthrough itself; off, so only the extension can open it.
    editor = await startOwnEditor({
      // VS Code's own openers stay off (on install, and the startup editor, which reopens the last walkthrough
      // after a reload), so what the test sees is the extension's doing.
      settings: {
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
        'workbench.startupEditor': 'none',
      },
    });
    await editor.open();
  });
  after(async () => {
    await editor?.close();
  });

  it('opens by itself on the first activation, with the seven steps', async () => {
    const { page } = editor;
    await walkthrough(page).waitFor({ state: 'visible', timeout: 60_000 });
    for (const title of STEPS)
      await page
        .locator('button.getting-started-step')
        .filter({ hasText: title })
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await page.locator('button.getting-started-step').count(), STEPS.length);
    assert.equal(await step(page, 'setApiKey').getAttribute('aria-checked'), 'false');
    await screenshot(page, 'walkthrough-open');
  });

  it('does not open again after it was closed, across a reload', async () => {
    const { page } = editor;
    await runCommand(page, 'View: Close All Editors');
    await walkthrough(page).waitFor({ state: 'hidden', timeout: 10_000 });
    // VS Code's own Reload Window: it saves the workbench state (which editors are open) before reloading. A bare
    // page load does not wait for that save, and in CI VS Code's editor restore then brought the closed walkthrough
    // back itself, which is not the extension's doing.
    await Promise.all([
      page.waitForEvent('load', { timeout: 60_000 }),
      runCommand(page, 'Developer: Reload Window'),
    ]);
    await waitForCommand(page, extensionCategory, 60_000);
    await waitForActivation(page);
    // The first time it opened within moments of activation; give it well over that before concluding.
    await page.waitForTimeout(5000);
    await screenshot(page, 'walkthrough-not-reopened');
    assert.equal(await walkthrough(page).count(), 0, 'the walkthrough opened a second time');
  });

  it('checks "Set your API key" only once a key is stored, and Test Connection once the connection worked', async () => {
    const { page } = editor;
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: TITLE }).first().click();
    await walkthrough(page).waitFor({ state: 'visible', timeout: 20_000 });
    await step(page, 'setApiKey').click();
    await stepButton(page, 'setApiKey', 'Set API Key').click();
    await page.locator('.quick-input-widget input[type="password"]').waitFor({ state: 'visible' });
    await screenshot(page, 'walkthrough-set-key');
    // Dismissing the box stores nothing: the step stays unchecked although its command ran.
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1500);
    assert.equal(await step(page, 'setApiKey').getAttribute('aria-checked'), 'false');
    await stepButton(page, 'setApiKey', 'Set API Key').click();
    await acceptInputBox(page, emulatorKey, { password: true });
    await page.locator(`${stepSelector('setApiKey')}[aria-checked="true"]`).waitFor({ timeout: 15_000 });

    // Not asserted unchecked here: a key that works checks the connection step by itself (issue 25, finding 8: the
    // steps follow the real state), and the model listing that a new key starts may already have succeeded.
    await step(page, 'testConnection').click();
    await stepButton(page, 'testConnection', 'Test Connection').click();
    await page.locator(`${stepSelector('testConnection')}[aria-checked="true"]`).waitFor({ timeout: 15_000 });
    await screenshot(page, 'walkthrough-steps-checked');
  });

  it("shows a step's Markdown and its screenshot beside the steps when the editor is wide", async () => {
    const { page } = editor;
    // Under 950 px the Welcome editor hides the media column; without the side bar it is wider than that.
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
    await step(page, 'generateCode').click();
    const frame = await webviewWith(page, 'img[alt="The review of generated code"]', 20_000);
    const img = frame.locator('img[alt="The review of generated code"]');
    await frame.locator('h1', { hasText: 'Generate code and review it' }).waitFor({ timeout: 10_000 });
    const width = await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth);
    assert.equal(width, 480, 'the step image did not load');
    await screenshot(page, 'walkthrough-media');
  });
});

function stepSelector(id: string): string {
  return `button.getting-started-step[data-step-id$="#${id}"]`;
}
