// A proposal under review stays out of the file on disk until it is accepted: auto-save does not write it, and
// closing the file and pressing Cancel keeps the tab and its review (issue 25, finding 3).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { quickInput, runCommand } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { ADD_CHECKED_TS } from '../gateway-emulator/fixedAnswers';
import { eventually, settle } from '../support/poll';
import { codeLens, editorText, openFile } from './editorHelpers';

/** code-server's auto-save, with a delay short enough that a test sees several periods go by. */
const AUTO_SAVE_DELAY_MS = 300;
/** How long the disk is watched for a save that must not come: many auto-save periods. */
const WATCH_MS = 3_000;

const samplePath = (): string => join(e2e().folder, 'src', 'sample.ts');
const onDisk = (): string => readFileSync(samplePath(), 'utf8');

/** Selects `add` (lines 2–4) of sample.ts and generates the emulator's rewrite of it, up to the review. */
async function generateOverAdd(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  await openFile(page, 'sample.ts');
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
  await runCommand(page, 'Model Gateway: Generate Code');
  // The box offers earlier instructions: Enter waits until the typed one is the active row, or it takes the
  // first of those.
  const input = quickInput(page);
  await input.waitFor({ timeout: 15_000 });
  await input.fill('add a third operand and check the inputs [[answer:add-checked-ts]]');
  await page
    .locator('.quick-input-widget .monaco-list-row.focused')
    .filter({ hasText: 'add-checked-ts' })
    .waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await codeLens(page, 'Accept All').waitFor({ timeout: 20_000 });
  assert.ok((await editorText(page)).includes(ADD_CHECKED_TS.split('\n')[0]));
}

/** Fails as soon as the file on disk stops being `expected` within WATCH_MS. */
async function assertDiskStays(expected: string): Promise<void> {
  const seen = await settle(onDisk, (text) => text !== expected, WATCH_MS);
  assert.equal(seen, expected, 'the file on disk changed while the edit was under review');
}

/** The tab of sample.ts, the review's Accept All lens and its status bar item are all showing. */
async function assertReviewShown(page: Page): Promise<void> {
  await page.locator('.tab').filter({ hasText: 'sample.ts' }).first().waitFor({ timeout: 10_000 });
  await codeLens(page, 'Accept All').waitFor({ timeout: 10_000 });
  await codeLens(page, 'Accept$').first().waitFor({ timeout: 10_000 });
  await page
    .locator('.statusbar-item')
    .filter({ hasText: /hunks? left/ })
    .waitFor({ timeout: 10_000 });
  assert.ok((await editorText(page)).includes(ADD_CHECKED_TS.split('\n')[0]));
}

/** Presses Ctrl+W in the editor and answers Cancel to the dialog it brings up, which must say `question`. */
async function closeAndCancel(page: Page, question: RegExp): Promise<void> {
  await closeAndAnswer(page, question, 'Cancel');
}

/** Presses Ctrl+W in the editor and answers `button` to the dialog it brings up, which must say `question`. */
async function closeAndAnswer(page: Page, question: RegExp, button: string): Promise<void> {
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+W');
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10_000 });
  assert.match(await dialog.innerText(), question);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
}

describe('Edit review and the file on disk (real editor)', function () {
  this.timeout(120_000);
  let original = '';
  let settingsFile = '';
  let settingsBefore: string | undefined;

  before(async () => {
    const { page, folder } = e2e();
    original = onDisk();
    settingsFile = join(folder, '.vscode', 'settings.json');
    settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    mkdirSync(dirname(settingsFile), { recursive: true });
    writeFileSync(
      settingsFile,
      JSON.stringify({ 'files.autoSave': 'afterDelay', 'files.autoSaveDelay': AUTO_SAVE_DELAY_MS }),
    );
    // Auto-save with the short delay is in force for TypeScript files: typing in one reaches the disk.
    const scratch = join(folder, 'src', 'scratch.ts');
    writeFileSync(scratch, 'export const scratch = 1;\n');
    await runCommand(page, 'View: Close All Editors');
    await openFile(page, 'scratch.ts');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// typed\n');
    await eventually(() => assert.match(readFileSync(scratch, 'utf8'), /\/\/ typed/), 15_000);
    await runCommand(page, 'View: Close All Editors');
    rmSync(scratch);
  });

  after(async () => {
    const { page } = e2e();
    await runCommand(page, 'Model Gateway: Reject Edit', 5000).catch(() => undefined);
    await runCommand(page, 'View: Close All Editors').catch(() => undefined);
    if (settingsBefore === undefined) rmSync(settingsFile, { force: true });
    else writeFileSync(settingsFile, settingsBefore);
    writeFileSync(samplePath(), original);
  });

  it('auto-save never writes the proposal; once accepted, it reaches the disk', async () => {
    const { page } = e2e();
    await generateOverAdd(page);
    await assertDiskStays(original);
    await codeLens(page, 'Accept All').click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    // Auto-save is back for the file, and writes what was accepted.
    await eventually(() => assert.ok(onDisk().includes(ADD_CHECKED_TS), onDisk()), 10_000);
    writeFileSync(samplePath(), original);
    await runCommand(page, 'View: Close All Editors');
  });

  it('Ctrl+W then Cancel keeps the tab and its review, and the disk as it was', async () => {
    const { page } = e2e();
    await generateOverAdd(page);
    // The user looks at the proposal a while before closing the file.
    await assertDiskStays(original);
    await closeAndCancel(page, /sample\.ts/);
    await assertReviewShown(page);
    assert.equal(onDisk(), original);
    await codeLens(page, 'Reject All').click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => assert.equal(onDisk(), original), 10_000);
  });

  it('a file saved by hand under review: Ctrl+W asks to keep the changes, and Cancel reopens it with its review', async () => {
    const { page } = e2e();
    await generateOverAdd(page);
    await page.keyboard.press('Control+S');
    await eventually(() => assert.ok(onDisk().includes(ADD_CHECKED_TS), onDisk()), 10_000);
    const saved = onDisk();
    await closeAndCancel(page, /Keep the changes still under review in src\/sample\.ts\?/);
    await assertReviewShown(page);
    assert.equal(onDisk(), saved);
    // The review goes on as before: rejecting every hunk and saving puts the original back on disk.
    await codeLens(page, 'Reject All').click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(() => assert.equal(onDisk(), original), 10_000);
  });

  it('a file saved by hand under review: Ctrl+W, then Discard puts the file back as it was, trailing blanks and all', async () => {
    const { page, folder } = e2e();
    const trimCheck = (): string => join(folder, 'src', 'trim-check.txt');
    const suiteSettings = readFileSync(settingsFile, 'utf8');
    // Trailing blanks in the lines under review, which a save that trims them would lose.
    const withBlanks = original.replace('  return a + b;', '  return a + b;  ');
    writeFileSync(samplePath(), withBlanks);
    writeFileSync(
      settingsFile,
      JSON.stringify({ ...JSON.parse(suiteSettings), 'files.trimTrailingWhitespace': true }),
    );
    try {
      await generateOverAdd(page);
      await page.keyboard.press('Control+S');
      await eventually(() => assert.ok(onDisk().includes(ADD_CHECKED_TS), onDisk()), 10_000);
      await closeAndAnswer(page, /Keep the changes still under review in src\/sample\.ts\?/, 'Discard');
      await eventually(() => assert.equal(onDisk(), withBlanks), 10_000);
      await page
        .locator('.tab')
        .filter({ hasText: 'sample.ts' })
        .waitFor({ state: 'detached', timeout: 10_000 });
      assert.equal(await codeLens(page, 'Accept All').count(), 0, 'the review has ended');
      // Trimming was in force: a file the user saves by hand is trimmed.
      writeFileSync(trimCheck(), 'kept  \n');
      await openFile(page, 'trim-check.txt');
      await page.keyboard.press('Control+End');
      await page.keyboard.type('typed');
      await page.keyboard.press('Control+S');
      await eventually(() => assert.equal(readFileSync(trimCheck(), 'utf8'), 'kept\ntyped'), 10_000);
    } finally {
      writeFileSync(settingsFile, suiteSettings);
      writeFileSync(samplePath(), original);
      await runCommand(page, 'View: Close All Editors');
      rmSync(trimCheck(), { force: true });
    }
  });
});
