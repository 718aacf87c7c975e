// The Tools picker in the real editor: in Agent mode, the composer's Tools button lists the agent's tools with
// checkboxes; a tool turned off is not offered on the wire, and the choice is kept for the workspace across a
// window reload.
import * as assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { chatRequestsOf } from '../support/emulatorRequests';
import { articles, chooseMode, emulator, openChat, openNewChat, send, until } from './chatHelpers';
import { isDarkTheme, toggleTheme } from './editorHelpers';

type Body = { tools?: Array<{ function: { name: string } }> };

/** Opens the Tools panel (Agent mode) and waits for the host's list. */
async function openTools(frame: FrameLocator): Promise<ReturnType<FrameLocator['getByRole']>> {
  await chooseMode(frame, 'Agent');
  await frame.getByRole('button', { name: 'Tools', exact: true }).click();
  const panel = frame.getByRole('group', { name: 'Tools', exact: true });
  await panel.getByRole('checkbox').first().waitFor({ timeout: 10_000 });
  return panel;
}

describe('Agent tools picker in the real editor', function () {
  this.timeout(120_000);

  it('unchecking a tool leaves it out of the request; the choice survives a reload', async () => {
    const { page } = e2e();
    let frame = await openNewChat(page);
    // The button shows how many tools are on as soon as Agent mode is chosen, before its panel is opened.
    await chooseMode(frame, 'Agent');
    const count = frame.locator('.tools-count');
    await until(async () => /^\d+\/\d+$/.test((await count.textContent()) ?? ''), 10_000, 'the count');
    assert.equal(
      await frame.getByRole('button', { name: 'Tools', exact: true }).getAttribute('aria-expanded'),
      'false',
    );
    let panel = await openTools(frame);
    const listDir = panel.getByRole('checkbox', { name: /^list_dir\b/ });
    assert.equal(await listDir.isChecked(), true, 'built-in tools are on by default');
    await listDir.uncheck();
    await until(async () => !(await listDir.isChecked()), 5_000, 'the box unchecked');

    for (let shot = 0; shot < 2; shot++) {
      const dark = shot > 0 ? await toggleTheme(page, frame) : await isDarkTheme(page);
      await screenshot(page, dark ? 'e2e-agent-tools-dark' : 'e2e-agent-tools-light');
    }
    await toggleTheme(page, frame);
    // The theme command took the focus to the workbench: the button closes the panel.
    await frame.getByRole('button', { name: 'Tools', exact: true }).click();
    await until(async () => panel.isHidden(), 5_000, 'the panel closed');

    const since = emulator().requests.length;
    await send(frame, 'Check the weather [[agent:weather]]');
    await until(
      async () =>
        /weather tool said/.test(
          await articles(frame, /^Assistant /)
            .last()
            .innerText(),
        ),
      60_000,
      'the run’s answer',
    );
    const names = chatRequestsOf(emulator(), since).map((r) =>
      ((r.body as Body).tools ?? []).map((t) => t.function.name),
    );
    assert.ok(
      names.length >= 1 && names.every((n) => n.includes('read_file') && !n.includes('list_dir')),
      JSON.stringify(names),
    );

    await e2e().reload(page);
    frame = await openChat(page);
    panel = await openTools(frame);
    const again = panel.getByRole('checkbox', { name: /^list_dir\b/ });
    assert.equal(await again.isChecked(), false, 'kept for the workspace');
    await again.check();
    await until(async () => again.isChecked(), 5_000, 'the box checked again');
    await page.keyboard.press('Escape');
    await until(async () => panel.isHidden(), 5_000, 'Escape closed the panel');
    await chooseMode(frame, 'Ask');
  });
});
