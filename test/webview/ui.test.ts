// Accessible names, keyboard behaviour and the messages each control posts, on the real bundle.
import * as assert from 'node:assert/strict';
import { assistant, user, viewState } from './fixtures';
import { type HarnessPage, frames } from './harness';
import { usePagePerTest } from './pageHooks';

describe('chat webview UI (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest((page) => (hp = page));

  it('posts ready on load', async () => {
    assert.deepEqual(await hp.posted(), [{ type: 'ready' }]);
  });

  it('exposes the accessible names', async () => {
    const { page } = hp;
    const answer = assistant('Hello **there**', { reasoning: 'Let me think', reasoningMs: 12_000 });
    await hp.send({ type: 'state', state: viewState([user('Hi'), answer]) });
    await frames(page);
    await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Model', exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'Mode', exact: true }).waitFor();
    await page.getByRole('button', { name: 'New chat', exact: true }).waitFor();
    await page.getByRole('button', { name: 'History', exact: true }).waitFor();
    await page.getByRole('article', { name: 'You', exact: true }).waitFor();
    await page.getByRole('article', { name: 'Assistant Sonnet 4.5', exact: true }).waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Stop', exact: true }).count(),
      0,
      'Stop shows only while busy',
    );
    assert.match(
      (await page.locator('details.thinking > summary').textContent()) ?? '',
      /^Thinking \(12s\)$/,
    );
    const options = await page
      .getByRole('combobox', { name: 'Model', exact: true })
      .locator('option')
      .allTextContents();
    assert.deepEqual(options, ['Alpha Sonnet 4.5', 'Alpha Opus 4.1', 'local-llama']);
    assert.deepEqual(
      await page
        .locator('select optgroup')
        .evaluateAll((groups) => groups.map((g) => g.getAttribute('label'))),
      ['Models', 'Extra models'],
    );
    assert.equal(await page.locator('[aria-live="polite"]').count(), 1);
  });

  it('Enter sends, Shift+Enter adds a line, IME composition does not send, Send disabled when empty', async () => {
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([]) });
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    const send = page.getByRole('button', { name: 'Send', exact: true });
    assert.equal(await send.isDisabled(), true);
    await box.fill('first line');
    assert.equal(await send.isDisabled(), false);
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    assert.equal(await box.inputValue(), 'first line\nsecond line');
    await box.evaluate((el) =>
      el.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, cancelable: true }),
      ),
    );
    assert.equal((await hp.posted()).filter((m) => m.type === 'send').length, 0);
    await box.press('Enter');
    assert.deepEqual((await hp.posted()).at(-1), { type: 'send', text: 'first line\nsecond line' });
    assert.equal(await box.inputValue(), '');
    await box.press('Enter');
    assert.equal((await hp.posted()).filter((m) => m.type === 'send').length, 1, 'empty input does not send');
  });

  it('while busy: Stop posts stop, Send is disabled, Escape stops; Stop hides when the answer ends', async () => {
    const { page } = hp;
    const answer = assistant('', { status: 'streaming' });
    await hp.send({ type: 'state', state: viewState([user('Q'), answer], { busy: true }) });
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('next question');
    assert.equal(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled(), true);
    await box.press('Enter');
    assert.equal((await hp.posted()).filter((m) => m.type === 'send').length, 0);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'stop' });
    await box.press('Escape');
    assert.equal((await hp.posted()).filter((m) => m.type === 'stop').length, 2);
    await hp.send({ type: 'turnFinished', turnId: answer.id, status: 'stopped' });
    await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'hidden' });
    assert.equal(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled(), false);
    await page.getByText('Stopped', { exact: true }).waitFor();
  });

  it('code block buttons post copy and code actions with the raw code and language', async () => {
    const { page } = hp;
    const code = 'const a = 1;\nif (a < 2) console.log("<b>");';
    await hp.send({ type: 'state', state: viewState([user('Q'), assistant('```ts\n' + code + '\n```')]) });
    const block = page.locator('.code-block');
    for (const [name, expected] of [
      ['Copy', { type: 'copy', text: code }],
      ['Insert at cursor', { type: 'codeAction', action: 'insert', code, language: 'ts' }],
      ['Replace selection', { type: 'codeAction', action: 'replace', code, language: 'ts' }],
      ['Open as new file', { type: 'codeAction', action: 'newFile', code, language: 'ts' }],
    ] as const) {
      await block.getByRole('button', { name, exact: true }).click();
      assert.deepEqual((await hp.posted()).at(-1), expected);
    }
    // Keyboard reaches them too.
    await block.getByRole('button', { name: 'Copy', exact: true }).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual((await hp.posted()).at(-1), { type: 'copy', text: code });
  });

  it('links post openLink and never navigate; unsafe links are plain text', async () => {
    const { page } = hp;
    await hp.send({
      type: 'state',
      state: viewState([
        user('Q'),
        assistant('[docs](https://example.com/docs) and [bad](javascript:alert(1)) and [rel](./x.md)'),
      ]),
    });
    const url = page.url();
    await page.getByRole('link', { name: 'docs', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'openLink', href: 'https://example.com/docs' });
    assert.equal(page.url(), url);
    assert.equal(await page.getByRole('link').count(), 1);
    assert.ok((await page.locator('.answer').textContent())?.includes('[bad](javascript:alert(1))'));
  });
});
