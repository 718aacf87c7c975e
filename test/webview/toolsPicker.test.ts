// The composer's Tools button in the real bundle: shown in Agent mode only, its panel asks the host for the list,
// draws one checkbox per tool grouped by source, reports each change, and closes with Escape.
import * as assert from 'node:assert/strict';
import type { ToolChoiceEntry } from '../../src/agent/toolChoice';
import type { HostToWebview } from '../../src/protocol';
import { viewState } from './fixtures';
import type { HarnessPage } from './harness';
import { usePagePerTest } from './pageHooks';

const TOOLS: ToolChoiceEntry[] = [
  { name: 'read_file', source: 'builtin', description: 'Read a text file.', enabled: true },
  { name: 'list_dir', source: 'builtin', description: 'List a folder.', enabled: false },
  { name: 'fixture.echo', source: 'mcp', description: 'Echo.', enabled: true },
  { name: 'getWeather', source: 'vscode', description: '<img src=x onerror=alert(1)>', enabled: false },
];

describe('agent Tools picker (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest((page) => (hp = page));

  async function send(message: HostToWebview): Promise<void> {
    await hp.send(message);
    await hp.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }

  it('shows in Agent mode only; lists the tools by source; each checkbox posts its change; Escape closes', async () => {
    const { page } = hp;
    const tools = page.getByRole('button', { name: 'Tools', exact: true });
    const state = viewState([]);
    await send({ type: 'state', state });
    assert.equal(await tools.count(), 0, 'hidden in Ask mode');

    await send({
      type: 'state',
      state: { ...state, conversation: { ...state.conversation, mode: 'agent' } },
    });
    assert.equal(await tools.isVisible(), true);
    // Shown, it asks for the tools known so far: the count is there before the panel first opens.
    assert.deepEqual((await hp.posted()).at(-1), { type: 'listTools' });
    await send({ type: 'tools', tools: TOOLS.slice(0, 2) });
    assert.equal(await page.locator('.tools-count').textContent(), '1/2');
    assert.equal(await tools.getAttribute('aria-expanded'), 'false');
    await tools.click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'openTools' });
    assert.equal(await tools.getAttribute('aria-expanded'), 'true');

    await send({ type: 'tools', tools: TOOLS });
    const panel = page.getByRole('group', { name: 'Tools', exact: true });
    assert.deepEqual(await panel.locator('legend').allTextContents(), [
      'Built-in',
      'MCP servers',
      'Other extensions',
    ]);
    const box = (name: string) =>
      panel.getByRole('checkbox', { name: new RegExp(`^${name.replace('.', '\\.')}\\b`) });
    assert.equal(await box('read_file').isChecked(), true);
    assert.equal(await box('list_dir').isChecked(), false);
    assert.equal(await box('getWeather').isChecked(), false);
    // A description is text, never markup.
    assert.equal(await panel.locator('img').count(), 0);
    assert.equal(await page.locator('.tools-count').textContent(), '2/4');

    await box('getWeather').check();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'setToolEnabled',
      name: 'getWeather',
      enabled: true,
    });
    await box('read_file').uncheck();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'setToolEnabled',
      name: 'read_file',
      enabled: false,
    });
    // The host's answer redraws with the focus kept on the box the user is on.
    await send({
      type: 'tools',
      tools: TOOLS.map((t) => ({
        ...t,
        enabled: t.name === 'getWeather' ? true : t.name === 'read_file' ? false : t.enabled,
      })),
    });
    assert.equal(await box('read_file').isChecked(), false);
    assert.equal(
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.tool),
      'read_file',
    );

    await page.keyboard.press('Escape');
    assert.equal(await panel.isHidden(), true);
    assert.equal(await tools.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Tools');

    // Back to Ask: the button goes, and its panel with it.
    await tools.click();
    await send({ type: 'mode', mode: 'ask', agent: { enabled: true } });
    assert.equal(await tools.count(), 0);
    assert.equal(await panel.count(), 0);
    assert.deepEqual(hp.errors, []);
  });
});
