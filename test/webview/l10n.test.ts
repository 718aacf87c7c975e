// The chat in the display language: with the zh-cn bundle on #app (as the host puts it there) the webview speaks
// Chinese; without one, or with a broken one, its English accessible names are exactly the ones tests and other
// extensions rely on.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assistant, user, viewState } from './fixtures';
import { type HarnessPage, frames, ROOT } from './harness';
import { useHarness } from './pageHooks';

const zhCn = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

/** English accessible names of the chat's controls: a contract with the tests and with other extensions. */
const NAMES = {
  message: 'Message',
  send: 'Send',
  model: 'Model',
  newChat: 'New chat',
  history: 'History',
  you: 'You',
  retry: 'Retry',
} as const;

/** Which of the English names a screen reader (and Playwright's getByRole) finds on the page. */
async function names(hp: HarnessPage): Promise<Record<keyof typeof NAMES, boolean>> {
  const { page } = hp;
  const has = async (role: Parameters<typeof page.getByRole>[0], name: string): Promise<boolean> =>
    (await page.getByRole(role, { name, exact: true }).count()) > 0;
  return {
    message: await has('textbox', NAMES.message),
    send: await has('button', NAMES.send),
    model: await has('combobox', NAMES.model),
    newChat: await has('button', NAMES.newChat),
    history: await has('button', NAMES.history),
    you: await has('article', NAMES.you),
    retry: await has('button', NAMES.retry),
  };
}

async function showChat(hp: HarnessPage): Promise<void> {
  const failed = assistant('', { status: 'error', error: { message: 'The gateway timed out.' } });
  await hp.send({ type: 'state', state: viewState([user('Hi'), failed]) });
  await frames(hp.page);
}

describe('chat webview in the display language (Chromium, real bundle)', function () {
  const harness = useHarness();
  let hp: HarnessPage | undefined;
  afterEach(() => harness.close(hp));

  it('without a bundle (English), keeps the exact English accessible names', async () => {
    hp = await harness.open();
    await showChat(hp);
    assert.deepEqual(await names(hp), {
      message: true,
      send: true,
      model: true,
      newChat: true,
      history: true,
      you: true,
      retry: true,
    });
    await hp.page.getByRole('article', { name: 'Assistant Sonnet 4.5', exact: true }).waitFor();
    assert.equal(
      await hp.page.locator('.composer-input').getAttribute('placeholder'),
      'Ask about your code (# to attach context)',
    );
  });

  it('with the zh-cn bundle, names, labels, placeholders and status texts are Chinese', async () => {
    hp = await harness.open({ l10n: zhCn });
    await showChat(hp);
    const { page } = hp;
    const zh = (english: string): string => zhCn[english] ?? assert.fail(`no translation of ${english}`);
    await page.getByRole('textbox', { name: zh('Message'), exact: true }).waitFor();
    await page.getByRole('button', { name: zh('Send'), exact: true }).waitFor();
    await page.getByRole('combobox', { name: zh('Model'), exact: true }).waitFor();
    await page.getByRole('button', { name: zh('New chat'), exact: true }).waitFor();
    await page.getByRole('button', { name: zh('History'), exact: true }).waitFor();
    await page.getByRole('article', { name: zh('You'), exact: true }).waitFor();
    await page
      .getByRole('article', { name: zh('Assistant {0}').replace('{0}', 'Sonnet 4.5'), exact: true })
      .waitFor();
    await page.getByRole('button', { name: zh('Retry'), exact: true }).waitFor();
    assert.equal(
      await page.locator('.composer-input').getAttribute('placeholder'),
      zh('Ask about your code (# to attach context)'),
    );
    // No English name is left on the controls above.
    assert.deepEqual(Object.values(await names(hp)), [false, false, false, false, false, false, false]);
    // Model output and the host's own (already translated) error text are shown as they came.
    assert.equal(await page.locator('.error-message').textContent(), 'The gateway timed out.');
    // The empty state, after a new chat, is Chinese too.
    await hp.send({ type: 'state', state: viewState([]) });
    await frames(page);
    assert.equal(
      await page.locator('.empty-state p').first().textContent(),
      zh('Ask about your code, or select code and ask about the selection.'),
    );
  });

  for (const broken of ['{not json', '["发送"]', '{"Send": 1}']) {
    it(`with a broken bundle (${broken}), stays in English and works`, async () => {
      hp = await harness.open({ l10n: broken });
      await showChat(hp);
      assert.equal(Object.values(await names(hp)).every(Boolean), true);
      assert.deepEqual(await hp.posted(), [{ type: 'ready' }]);
    });
  }
});
