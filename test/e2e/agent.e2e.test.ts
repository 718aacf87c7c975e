import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EDIT_TWO_ANSWER } from '../gateway-emulator/agentRuns';
import { screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { chatRequestsOf } from '../support/emulatorRequests';
import { articles, chooseMode, emulator, modeSelect, openNewChat, send, until } from './chatHelpers';
import { isDarkTheme, toggleTheme } from './editorHelpers';

type Body = { tools?: unknown[]; messages: Array<{ role: string; content: string | null }> };

describe('Agent mode in the real editor', function () {
  this.timeout(180_000);
  const originals = new Map<string, Buffer>();
  before(() => {
    const { folder } = e2e();
    for (const path of ['src/sample.ts', 'README.md']) originals.set(path, readFileSync(join(folder, path)));
  });
  // The suites after this one expect the fixture as it was, whatever this test did or failed to do.
  after(() => {
    const { folder } = e2e();
    for (const [path, bytes] of originals) writeFileSync(join(folder, path), bytes);
  });

  it('a native run reads, searches and edits two files; the turn shows its rows and files; Keep one, Undo the other', async () => {
    const { page, folder } = e2e();
    const sample = join(folder, 'src', 'sample.ts');
    const readme = join(folder, 'README.md');
    const readmeBefore = readFileSync(readme);
    const frame = await openNewChat(page);
    const mode = modeSelect(frame);
    await mode.selectOption({ label: 'Agent' });
    const since = emulator().requests.length;
    await send(frame, 'Make greet trim the name [[agent:edit-two]]');
    const answer = articles(frame, /^Assistant /).last();
    await until(
      // Rendered Markdown: the answer's `greet` shows as code, without its backticks.
      async () => (await answer.innerText()).includes(EDIT_TWO_ANSWER.replace(/`/g, '')),
      60_000,
      'the agent’s final answer',
    );
    // The rows, in order, each a button named by its summary.
    const rows = answer.getByRole('button', { name: /^(Read|Searched|Edited|edit_file)/ });
    await until(async () => (await rows.count()) >= 5, 10_000, 'five tool rows');
    const names = await rows.evaluateAll((buttons) =>
      buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent ?? ''),
    );
    assert.match(names[0], /^Read src\/sample\.ts/);
    assert.match(names[1], /^Searched `greet`/);
    assert.match(names[3], /^Edited src\/sample\.ts \+1 −1/);
    assert.match(names[4], /^Edited README\.md \+2 −0/);
    await answer.getByText(/2 files changed/).waitFor({ timeout: 10_000 });
    // On the wire: native tools in each of the six requests.
    const bodies = chatRequestsOf(emulator(), since).map((r) => r.body as Body);
    assert.equal(bodies.length, 6);
    assert.ok(bodies.every((b) => (b.tools ?? []).length >= 9));
    // On disk: both edits, written as the run went.
    assert.ok(readFileSync(sample, 'utf8').includes('name.trim()'));
    assert.ok(readFileSync(readme, 'utf8').includes('`greet` trims the name it is given.'));
    // Expanding a row shows its input and result as text.
    await rows.nth(0).click();
    await answer.getByText('"path": "src/sample.ts"').waitFor({ timeout: 5_000 });
    await rows.nth(0).click();

    // The pictures show the end of the run, with its files: the transcript scrolled to the latest.
    const jump = frame.getByRole('button', { name: /Jump to latest/ });
    if (await jump.isVisible()) await jump.click();
    for (let shot = 0; shot < 2; shot++) {
      const dark = shot > 0 ? await toggleTheme(page, frame) : await isDarkTheme(page);
      await screenshot(page, dark ? 'e2e-agent-run-dark' : 'e2e-agent-run-light');
    }
    await toggleTheme(page, frame);

    const keptText = readFileSync(sample, 'utf8');
    await frame.getByRole('button', { name: 'Keep src/sample.ts', exact: true }).click();
    await frame.getByRole('button', { name: 'Undo README.md', exact: true }).click();
    await until(() => readFileSync(readme).equals(readmeBefore), 10_000, 'README.md back byte for byte');
    assert.equal(readFileSync(sample, 'utf8'), keptText);
    await answer.getByText('Kept').waitFor({ timeout: 5_000 });
    await answer.getByText('Undone').waitFor({ timeout: 5_000 });
    // The chat goes back to Ask for the tests that follow.
    await chooseMode(frame, 'Ask');
  });
});
