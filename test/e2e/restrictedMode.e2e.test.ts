import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { runCommand, screenshot, webviewWith } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { emulatorKey } from '../harness/workspace';
import { articles, openChat, send, until } from './chatHelpers';
import { editorText, openFile } from './editorHelpers';
import { startOwnEditor, waitForActivation, type OwnEditor } from './ownEditor';

/** The modal dialog the extension shows when an action needs trust. */
function trustDialog(page: Page, action: string) {
  return page
    .locator('.monaco-dialog-box')
    .filter({ hasText: `${action} changes files in this workspace, so it needs a trusted workspace.` });
}

/** How many image requests the fixture's emulator has received so far. */
function imageRequests(): number {
  return e2e().gateway.emulator?.requests.filter((r) => r.path.includes('/images/')).length ?? 0;
}

describe('Restricted Mode (issue 20), in an editor with Workspace Trust on and an untrusted folder', function () {
  this.timeout(240_000);
  let editor: OwnEditor;

  before(async function () {
    this.timeout(180_000);
    editor = await startOwnEditor({ workspaceTrust: true, env: { MODEL_GATEWAY_API_KEY: emulatorKey } });
    await editor.open();
    await waitForActivation(editor.page);
  });
  after(async () => {
    await editor?.close();
  });

  it('opens the folder in Restricted Mode with the extension active', async () => {
    const { page } = editor;
    await page
      .locator('.statusbar-item')
      .filter({ hasText: 'Restricted Mode' })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
  });

  it('chat and Explain Selection still work', async () => {
    const { page } = editor;
    await openFile(page, 'sample.ts');
    await page.keyboard.press('Control+A');
    await runCommand(page, 'Model Gateway: Explain Selection');
    const frame = await webviewWith(page, 'textarea[aria-label="Message"]', 30_000);
    const answer = articles(frame, /^Assistant /).last();
    await answer.waitFor({ timeout: 20_000 });
    await until(async () => (await answer.innerText()).length > 20, 20_000, 'the explanation');
    const before = await articles(frame, /^Assistant /).count();
    await send(frame, 'Hello from Restricted Mode');
    await until(
      async () => (await articles(frame, /^Assistant /).count()) > before,
      20_000,
      'the chat answer',
    );
    await screenshot(page, 'restricted-chat');
  });

  it('runs no command: Agent cannot be chosen, and a command script in the chat runs nothing', async () => {
    const { page } = editor;
    const frame = await openChat(page);
    const mode = frame.getByRole('combobox', { name: 'Mode', exact: true });
    assert.equal(await mode.locator('option[value="agent"]').isDisabled(), true);
    const before = await articles(frame, /^Assistant /).count();
    await send(frame, 'Run it [[agent:command-print]]');
    const answer = articles(frame, /^Assistant /).nth(before);
    await until(
      async () => (await answer.innerText()).includes('No tools were offered, so I can only answer.'),
      20_000,
      'the answer without tools',
    );
    assert.equal(await frame.getByRole('button', { name: 'Run', exact: true }).count(), 0);
    assert.equal(
      await page
        .locator('.terminal-tabs-entry, .single-terminal-tab')
        .filter({ hasText: 'Model Gateway Agent' })
        .count(),
      0,
    );
  });

  it('Generate Image asks for trust and, refused, requests and writes nothing', async () => {
    const { page, workspace } = editor;
    const requests = imageRequests();
    await runCommand(page, 'Model Gateway: Generate Image');
    const dialog = trustDialog(page, 'Generate Image');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'restricted-image-asks-trust');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForTimeout(1000);
    assert.equal(imageRequests(), requests, 'an image was requested without trust');
    const generated = join(workspace.folder, 'assets', 'generated');
    assert.deepEqual(existsSync(generated) ? readdirSync(generated) : [], []);
  });

  it('Generate Code asks for trust and, refused, leaves the file alone', async () => {
    const { page, workspace } = editor;
    await openFile(page, 'sample.ts');
    const shown = await editorText(page);
    const onDisk = readFileSync(join(workspace.folder, 'src', 'sample.ts'), 'utf8');
    await runCommand(page, 'Model Gateway: Generate Code');
    const dialog = trustDialog(page, 'Generate Code');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // No instruction box follows: the command stopped at the refusal.
    await page.waitForTimeout(1000);
    assert.equal(await page.locator('.quick-input-widget').isVisible(), false);
    assert.equal(await editorText(page), shown);
    assert.equal(readFileSync(join(workspace.folder, 'src', 'sample.ts'), 'utf8'), onDisk);
  });

  it('"Manage Workspace Trust" opens the Workspace Trust editor', async () => {
    const { page } = editor;
    await runCommand(page, 'Model Gateway: Generate Image');
    const dialog = trustDialog(page, 'Generate Image');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Manage Workspace Trust' }).click();
    await page.locator('.workspace-trust-editor').waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'restricted-manage-trust');
  });
});
