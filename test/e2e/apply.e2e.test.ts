import * as assert from 'node:assert/strict';
import { runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { articles, emulator, send, until, openNewChat } from './chatHelpers';
import { codeLens, editorText, openFile } from './editorHelpers';
import { chatRequestsOf } from '../support/emulatorRequests';

describe('Apply from the chat in the real editor', function () {
  this.timeout(120_000);

  it('clicking Apply on a code block merges it into the file it names and opens the review', async () => {
    const { page } = e2e();
    await runCommand(page, 'View: Close All Editors');
    // The active editor is another file: the block's own name must win.
    await openFile(page, 'README.md');
    const frame = await openNewChat(page);
    // The echo marker makes the emulator answer with the message, so the answer holds this block, named in
    // the info string.
    const block = 'export function add(a: number, b: number): number {\n  return b + a;\n}';
    await send(frame, `[[echo]]Apply:\n\`\`\`ts src/sample.ts\n${block}\n\`\`\``);
    const answer = articles(frame, /^Assistant Sonnet 4\.5/).last();
    const apply = answer.locator('.code-block').first().getByRole('button', { name: 'Apply', exact: true });
    await apply.waitFor({ state: 'visible', timeout: 30_000 });
    await frame.getByRole('button', { name: 'Regenerate' }).last().waitFor({ timeout: 30_000 });
    await apply.hover();
    assert.match((await apply.getAttribute('title')) ?? '', /^Apply to src\/sample\.ts /);
    const before = emulator().requests.length;
    await apply.click();
    await codeLens(page, 'Accept All').waitFor({ timeout: 30_000 });
    const merge = chatRequestsOf(emulator(), before).at(0);
    assert.equal((merge?.body as { model?: string })?.model, 'alpha-haiku-4-5-20251001');
    await page.locator('.tab.active').filter({ hasText: 'sample.ts' }).waitFor();
    const text = await editorText(page);
    assert.ok(text.includes('return b + a;'), text);
    assert.ok(text.includes('export function greet(name: string): string {'), 'the rest of the file stays');
    await codeLens(page, 'Accept$').first().waitFor();
    await page.locator('.statusbar-item').filter({ hasText: '1 hunk left' }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'e2e-apply-review');
    await codeLens(page, 'Reject All').click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    await until(async () => (await editorText(page)).includes('return a + b;'), 10_000, 'the original back');
    await page.locator('.monaco-editor .view-lines').first().click();
    await runCommand(page, 'File: Revert File');
  });
});
