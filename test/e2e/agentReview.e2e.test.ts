// An agent run's changed file opens in the editor with the per-hunk review of Generate Code (issue 26): Reject puts
// the hunk's original lines back on disk at once, as they were (no save participant touches them), Accept keeps the
// run's text, and the file's row shows the outcome.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { EDIT_HUNKS_ANSWER } from '../gateway-emulator/agentRuns';
import { runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { articles, chooseMode, openAgentChat, send, until } from './chatHelpers';
import { codeLens, isDarkTheme, toggleTheme } from './editorHelpers';

const FILE = 'src/hunks-crlf.txt';
/** Two lines the run edits, far enough apart to be two hunks, with CRLF line endings. */
const ORIGINAL = ['first line', 'two', 'three', 'four', 'five', 'last line', ''].join('\r\n');

/** Runs `edit-hunks` on `file` in a new agent chat, until the run has ended; the chat and the run's answer. */
async function editBothEnds(page: Page, file: string): Promise<{ frame: FrameLocator; answer: Locator }> {
  await runCommand(page, 'View: Close All Editors');
  const frame = await openAgentChat(page);
  await send(frame, `Edit both ends of [[file:${file}]] [[agent:edit-hunks]]`);
  const answer = articles(frame, /^Assistant /).last();
  await until(async () => (await answer.innerText()).includes(EDIT_HUNKS_ANSWER), 60_000, 'the answer');
  // The run has ended (while it goes on, a row opens the plain diff: the run may edit the file again).
  const stop = frame.getByRole('button', { name: 'Stop', exact: true });
  await until(async () => !(await stop.isVisible()), 20_000, 'the end of the run');
  return { frame, answer };
}

describe('Agent: a changed file in the per-hunk review', function () {
  this.timeout(180_000);
  const path = (): string => join(e2e().folder, FILE);
  before(() => writeFileSync(path(), ORIGINAL));
  after(() => rmSync(path(), { force: true }));

  it('opens from its row with a lens per hunk; Reject writes the original lines back at once, Accept keeps the run’s; the row says Partly kept', async () => {
    const { page } = e2e();
    const { frame, answer } = await editBothEnds(page, FILE);
    const edited = ORIGINAL.replace('first', 'first (edited)').replace('last', 'last (edited)');
    assert.equal(readFileSync(path(), 'utf8'), edited, 'the run wrote both edits, CRLF kept');

    await answer.locator('.agent-file-open').filter({ hasText: FILE }).click();
    await page.locator('.tab.active').filter({ hasText: 'hunks-crlf.txt' }).waitFor({ timeout: 20_000 });
    await codeLens(page, 'Accept All').waitFor({ timeout: 20_000 });
    await until(
      async () => (await codeLens(page, 'Reject$').count()) === 2,
      10_000,
      'two hunks, a lens each',
    );
    // The pictures: the agent's file under review, light then dark.
    for (let shot = 0; shot < 2; shot++) {
      const dark = shot > 0 ? await toggleTheme(page, frame) : await isDarkTheme(page);
      await codeLens(page, 'Accept All').waitFor();
      await screenshot(page, dark ? 'e2e-agent-review-dark' : 'e2e-agent-review-light');
    }
    await toggleTheme(page, frame);

    // The first hunk's Reject: its original line is back on disk at once, the other edit still there.
    await codeLens(page, 'Reject$').first().click();
    const rejected = ORIGINAL.replace('last', 'last (edited)');
    await until(() => readFileSync(path(), 'utf8') === rejected, 10_000, 'the first hunk back on disk');
    assert.ok(readFileSync(path()).equals(Buffer.from(rejected)), 'byte for byte, CRLF kept');
    assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'the editor and the disk agree');
    const row = answer.locator('.agent-file').filter({ hasText: FILE });
    assert.equal(await row.locator('.agent-file-decision').count(), 0, 'still waiting for a decision');
    await until(async () => (await codeLens(page, 'Reject$').count()) === 1, 10_000, 'one hunk left');

    await codeLens(page, 'Accept$').first().click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    await row.locator('.agent-file-decision').filter({ hasText: 'Partly kept' }).waitFor({ timeout: 10_000 });
    assert.equal(await row.getByRole('button', { name: `Keep ${FILE}`, exact: true }).count(), 0);
    assert.ok(readFileSync(path()).equals(Buffer.from(rejected)), 'Accept wrote nothing');
    // The run has nothing left to decide: Keep All and Undo All are gone.
    assert.equal(await answer.getByRole('button', { name: 'Keep All', exact: true }).count(), 0);
    await chooseMode(frame, 'Ask');
  });

  it('Undo on the row while the review is open: the review closes and the file is back byte for byte', async () => {
    const { page } = e2e();
    writeFileSync(path(), ORIGINAL);
    const { frame, answer } = await editBothEnds(page, FILE);
    await answer.locator('.agent-file-open').filter({ hasText: FILE }).click();
    await codeLens(page, 'Accept All').waitFor({ timeout: 20_000 });
    await answer.getByRole('button', { name: `Undo ${FILE}`, exact: true }).click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    await until(
      () => readFileSync(path()).equals(Buffer.from(ORIGINAL)),
      10_000,
      'the file back byte for byte',
    );
    await answer.locator('.agent-file-decision').filter({ hasText: 'Undone' }).waitFor({ timeout: 10_000 });
    await chooseMode(frame, 'Ask');
  });

  it('Reject writes the lines back as they were, with the save actions on (trimming, a final newline)', async () => {
    const { page, folder } = e2e();
    const file = 'src/hunks-as-is.txt';
    // Trailing blanks on lines the run leaves alone, and no final newline: each save participant would change them.
    const original = ['first line', 'two  ', 'three\t', 'four', 'five', 'last line'].join('\n');
    const settingsFile = join(folder, '.vscode', 'settings.json');
    const settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    mkdirSync(dirname(settingsFile), { recursive: true });
    writeFileSync(
      settingsFile,
      JSON.stringify({ 'files.trimTrailingWhitespace': true, 'files.insertFinalNewline': true }),
    );
    writeFileSync(join(folder, file), original);
    try {
      const { frame, answer } = await editBothEnds(page, file);
      await answer.locator('.agent-file-open').filter({ hasText: file }).click();
      await until(
        async () => (await codeLens(page, 'Reject$').count()) === 2,
        20_000,
        'two hunks, a lens each',
      );

      await codeLens(page, 'Reject$').first().click();
      const rejected = original.replace('last', 'last (edited)');
      await until(
        () => readFileSync(join(folder, file), 'utf8') !== original.replace(/first|last/g, '$& (edited)'),
        10_000,
        'the first hunk written back',
      );
      assert.equal(
        readFileSync(join(folder, file), 'utf8'),
        rejected,
        'the lines as they were, nothing else',
      );
      assert.equal(await page.locator('.tab.active.dirty').count(), 0, 'the editor and the disk agree');
      await until(async () => (await codeLens(page, 'Reject$').count()) === 1, 10_000, 'one hunk left');
      await codeLens(page, 'Accept$').first().click();
      await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });

      // The participants were in force all along: the user's own save trims the lines and ends the file.
      await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('!');
      await page.keyboard.press('Control+S');
      const saved = `${rejected.replace(/[ \t]+$/gm, '')}!\n`;
      await until(() => readFileSync(join(folder, file), 'utf8') === saved, 10_000, 'the user’s save');
      await chooseMode(frame, 'Ask');
    } finally {
      await runCommand(page, 'View: Close All Editors').catch(() => undefined);
      if (settingsBefore === undefined) rmSync(settingsFile, { force: true });
      else writeFileSync(settingsFile, settingsBefore);
      rmSync(join(folder, file), { force: true });
    }
  });
});
