import * as assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptInputBox, runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { demoProject } from '../harness/start';
import { codeLens, editorText, isDarkTheme, openFile, toggleTheme } from './editorHelpers';

describe('Edit review in the real editor', function () {
  this.timeout(120_000);

  it('shows removed and added lines of each hunk in place, in the dark and light themes', async () => {
    const { page } = e2e();
    await runCommand(page, 'View: Close All Editors');
    await openFile(page, 'sample.ts');
    // Select the three lines of `add` (lines 2–4); the instruction asks the emulator for its fixed rewrite of
    // `add` (a third operand and a check), which changes the signature and the return.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
    await runCommand(page, 'Model Gateway: Generate Code');
    await acceptInputBox(page, 'add a third operand and check the inputs [[answer:add-checked-ts]]');
    await codeLens(page, 'Accept All').waitFor({ timeout: 20_000 });
    await codeLens(page, 'Accept$').first().waitFor();
    const text = await editorText(page);
    assert.ok(text.includes('export function add(a: number, b: number, c = 0): number {'), text);
    // The removed lines are drawn by decorations (CSS content) beside the added lines.
    const removed = page.locator('.view-lines span[class*="ced-"]');
    await removed.first().waitFor({ state: 'attached', timeout: 10_000 });
    const drawn = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.view-lines span[class*="ced-"]')).map(
        (el) => getComputedStyle(el, '::after').content,
      ),
    );
    assert.ok(
      drawn.some((c) => c.includes('export\u00a0function\u00a0add')),
      drawn.join('\n'),
    );
    await page.locator('.statusbar-item').filter({ hasText: 'hunk left' }).waitFor();
    // One picture in each theme, named after the theme the workbench really shows.
    for (let shot = 0; shot < 2; shot++) {
      const dark = shot > 0 ? await toggleTheme(page) : await isDarkTheme(page);
      await screenshot(page, dark ? 'e2e-review-dark' : 'e2e-review-light');
    }
    await toggleTheme(page);
    await codeLens(page, 'Reject All').click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok((await editorText(page)).includes('export function add(a: number, b: number): number {'));
    await page.locator('.monaco-editor .view-lines').first().click();
    await runCommand(page, 'File: Revert File');
  });

  it('Generate Code on a function of the demo project proposes two separate hunks (issue 25, finding 9)', async () => {
    const { page, folder } = e2e();
    // The demo's own file, as `npm start` opens it; the instruction carries no marker, so the emulator's
    // ordinary rewrite template answers.
    copyFileSync(join(demoProject, 'src', 'cart.ts'), join(folder, 'src', 'cart.ts'));
    await runCommand(page, 'View: Close All Editors');
    await openFile(page, 'src/cart.ts');
    // Lines 20–24: the doc comment and the four lines of `applyDiscount`.
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 19; i++) await page.keyboard.press('ArrowDown');
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowDown');
    await runCommand(page, 'Model Gateway: Generate Code');
    await acceptInputBox(page, 'check the inputs');
    await codeLens(page, 'Accept All').waitFor({ timeout: 20_000 });
    await page.locator('.statusbar-item').filter({ hasText: '2 hunks left' }).waitFor({ timeout: 10_000 });
    const text = await editorText(page);
    assert.ok(text.includes('/** Check the inputs. */'), text);
    assert.ok(
      text.includes('if (!Number.isFinite(total) || !Number.isFinite(percent)) throw new RangeError('),
      text,
    );
    assert.ok(text.includes('export function applyDiscount(total: number, percent: number): number {'), text);
    assert.equal(await codeLens(page, 'Accept$').count(), 2, 'one Accept per hunk');
    await screenshot(page, 'e2e-review-demo-two-hunks');
    await codeLens(page, 'Reject All').click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok(
      (await editorText(page)).includes('/** Takes `percent` off a total, rounded to whole cents. */'),
    );
    await page.locator('.monaco-editor .view-lines').first().click();
    await runCommand(page, 'File: Revert File');
  });
});
