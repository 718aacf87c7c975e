import * as assert from 'node:assert/strict';
import { runCommand, screenshot, webviewWith } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { articles, send, until } from './chatHelpers';

describe('Chat as an editor tab (README screenshot)', function () {
  this.timeout(90_000);

  it('opens the chat in an editor tab and renders a rich answer from a thinking model', async () => {
    const { page } = e2e();
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'View: Close Primary Side Bar');
    // The picture is of the chat alone: a panel (the log, a terminal) left open by an earlier test goes. The
    // command is listed only while the panel shows.
    if (await page.locator('.part.panel').isVisible()) {
      await runCommand(page, 'View: Hide Panel');
      await page.locator('.part.panel').waitFor({ state: 'hidden' });
    }
    await runCommand(page, 'Model Gateway: Open Chat in Editor');
    await page.locator('.tab').filter({ hasText: 'Model Gateway Chat' }).waitFor();
    const panel = await webviewWith(page, 'textarea[aria-label="Message"]', 30_000);
    await panel.getByRole('button', { name: 'New chat' }).click();
    await panel
      .getByRole('combobox', { name: 'Model', exact: true })
      .selectOption('alpha-sonnet-4-5-20250929-thinking');
    await send(panel, 'Show me every Markdown feature [[answer:markdown]]');
    const answer = articles(panel, 'Assistant Sonnet 4.5 · thinking').last();
    await until(async () => (await answer.locator('table').count()) > 0, 20_000, 'the table');
    await until(async () => (await answer.innerText()).includes('total'), 20_000, 'the usage line');
    assert.ok((await answer.locator('pre code').count()) > 0, 'a highlighted code block');
    // The answer's start (thinking, headings, the table) rather than its last lines.
    await answer.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    await screenshot(page, 'readme-chat-editor');
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
  });
});
