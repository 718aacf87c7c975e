// The composer's context UI on the real bundle: the # picker (a listbox named "Context", driven by the keyboard),
// the chips with their accessible names, the suggested current file, notices, restored drafts, and the sent
// turn's attachment chips. The host is played by the test: it answers the picker's queries and sends chips.
import * as assert from 'node:assert/strict';
import type { Attachment } from '../../src/chat/context/types';
import type { WebviewToHost } from '../../src/protocol';
import { user, viewState } from './fixtures';
import { type HarnessPage, frames } from './harness';
import { until, waitFor } from '../support/poll';
import { usePagePerTest } from './pageHooks';

const KINDS = [
  { key: 'mode:files', label: 'Files…', icon: 'file' },
  { key: 'kind:selection', label: 'Selection', icon: 'selection' },
  { key: 'kind:terminal', label: 'Terminal Output', icon: 'terminal' },
];

function lastOf<T extends WebviewToHost['type']>(
  posted: WebviewToHost[],
  type: T,
): Extract<WebviewToHost, { type: T }> | undefined {
  return posted.filter((m): m is Extract<WebviewToHost, { type: T }> => m.type === type).at(-1);
}

describe('chat webview context (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest(async (page) => {
    hp = page;
    await hp.send({ type: 'state', state: viewState([]) });
    await frames(hp.page);
  });

  /** Waits for the webview's newest picker query and answers it with `items`. */
  async function answerQuery(items: typeof KINDS, pending = false): Promise<WebviewToHost> {
    const query = await waitFor(
      async () => lastOf(await hp.posted(), 'contextQuery'),
      'the picker to ask the host',
      1000,
    );
    await hp.send({ type: 'contextResults', requestId: query.requestId, mode: query.mode, items, pending });
    return query;
  }

  it('# opens the Context listbox; arrows, Enter and Escape work, and the choice leaves the message box', async () => {
    const { page } = hp;
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.click();
    await box.pressSequentially('Look at #');
    const query = await answerQuery(KINDS);
    assert.deepEqual(
      { mode: (query as { mode: string }).mode, query: (query as { query: string }).query },
      { mode: 'all', query: '' },
    );
    const listbox = page.getByRole('listbox', { name: 'Context', exact: true });
    await listbox.waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    const options = listbox.getByRole('option');
    // The listbox shows while the host's answer is on its way: the kinds are drawn when that message is handled.
    await options.nth(2).waitFor();
    assert.equal(await options.count(), 3);
    assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true');
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    assert.equal(await options.nth(2).getAttribute('aria-selected'), 'true');
    assert.equal(await box.getAttribute('aria-activedescendant'), await options.nth(2).getAttribute('id'));
    await box.press('ArrowDown');
    assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true', 'wraps around');
    await box.press('ArrowUp');
    await box.press('Enter');
    assert.deepEqual(lastOf(await hp.posted(), 'addContext'), { type: 'addContext', key: 'kind:terminal' });
    await listbox.waitFor({ state: 'hidden' });
    assert.equal(await box.inputValue(), 'Look at ', 'the #token is removed, the rest of the message kept');
    assert.equal(lastOf(await hp.posted(), 'send'), undefined, 'Enter in the picker never sends the message');

    await box.pressSequentially('#sel');
    await answerQuery([KINDS[1]]);
    await listbox.waitFor();
    await box.press('Escape');
    await listbox.waitFor({ state: 'hidden' });
    assert.equal(await box.inputValue(), 'Look at #sel', 'Escape closes the picker and keeps the text');
  });

  it('Files… switches the token to #file: and searches files; a stale answer is ignored', async () => {
    const { page } = hp;
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.click();
    await box.pressSequentially('#');
    await answerQuery(KINDS);
    // Enter picks the first kind once the host's answer is drawn (while "Searching…", Enter sends the text).
    await page.getByRole('listbox', { name: 'Context' }).getByRole('option').first().waitFor();
    await box.press('Enter');
    assert.equal(await box.inputValue(), '#file:');
    await box.pressSequentially('sam');
    const latest = lastOf(await hp.posted(), 'contextQuery')!;
    assert.deepEqual([latest.mode, latest.query], ['files', 'sam']);
    await hp.send({
      type: 'contextResults',
      requestId: latest.requestId - 1,
      mode: 'files',
      items: [{ key: 'file:old.ts', label: 'old.ts', icon: 'file' }],
      pending: false,
    });
    await hp.send({
      type: 'contextResults',
      requestId: latest.requestId,
      mode: 'files',
      items: [{ key: 'file:src/sample.ts', label: 'sample.ts', detail: 'src', icon: 'file' }],
      pending: false,
    });
    const option = page.getByRole('listbox', { name: 'Context' }).getByRole('option');
    // The kinds stay listed until the newest answer arrives: wait for it.
    await until(async () => (await option.count()) === 1, 2000, 'only the newest answer listed');
    assert.match(await option.first().innerText(), /sample\.ts/);
    await option.first().click();
    assert.deepEqual(lastOf(await hp.posted(), 'addContext'), {
      type: 'addContext',
      key: 'file:src/sample.ts',
    });
  });

  // Issue 25, finding 2: `#` is ordinary text far more often than a context request.
  it('Enter sends #42, #7f3a, #include <x>, # Heading and C# as typed: the picker is closed, the box emptied', async () => {
    const { page } = hp;
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    const listbox = page.getByRole('listbox', { name: 'Context', exact: true });
    const texts = ['Fix issue #42', 'use colour #7f3a', '#include <x>', '# Heading', 'I write C#'];
    for (const text of texts) {
      await box.click();
      // Typed key by key, as a user does: `#` alone still opens the picker, and what follows must close it.
      await box.pressSequentially(text);
      assert.equal(await listbox.isVisible(), false, `the picker is closed after "${text}"`);
      assert.equal(await box.getAttribute('aria-expanded'), 'false', `aria-expanded after "${text}"`);
      await box.press('Enter');
      assert.deepEqual(lastOf(await hp.posted(), 'send'), { type: 'send', text }, `"${text}" sent as typed`);
      assert.equal(await box.inputValue(), '', `the box is empty after sending "${text}"`);
      assert.equal(await listbox.isVisible(), false, `the picker stays closed after sending "${text}"`);
    }
    const sent = (await hp.posted()).filter((m) => m.type === 'send');
    assert.equal(sent.length, texts.length, 'one send per Enter');
  });

  it('Enter sends the message when the picker has nothing to choose: no matches, or still searching', async () => {
    const { page } = hp;
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    const listbox = page.getByRole('listbox', { name: 'Context', exact: true });
    await box.click();
    // `#fff` may name a file as well as a colour: the picker asks, and its empty answer lets Enter send.
    await box.pressSequentially('Make the border #fff');
    await answerQuery([]);
    await until(async () => (await listbox.innerText()).includes('No matches'), 2000, '"No matches"');
    await box.press('Enter');
    assert.deepEqual(lastOf(await hp.posted(), 'send'), { type: 'send', text: 'Make the border #fff' });
    assert.equal(await box.inputValue(), '');
    await listbox.waitFor({ state: 'hidden' });

    await box.pressSequentially('Rename #zq');
    await listbox.waitFor();
    assert.match(await listbox.innerText(), /Searching/);
    await box.press('Enter');
    assert.deepEqual(lastOf(await hp.posted(), 'send'), { type: 'send', text: 'Rename #zq' });
    assert.equal(await box.inputValue(), '');
    await listbox.waitFor({ state: 'hidden' });
  });

  it('the Add Context button opens the same picker', async () => {
    const { page } = hp;
    await page.getByRole('button', { name: 'Add Context', exact: true }).click();
    await answerQuery(KINDS);
    await page.getByRole('listbox', { name: 'Context', exact: true }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Message', exact: true }).inputValue(), '#');
  });

  it('chips: remove, open, the suggestion confirmed or dismissed with one click, and the token meter', async () => {
    const { page } = hp;
    await hp.send({
      type: 'contextChips',
      chips: [{ id: 'c1', kind: 'file', name: 'sample.ts', detail: 'src/sample.ts', tokens: 1234 }],
      suggestion: { id: 's1', kind: 'file', name: 'other.ts', detail: 'src/other.ts', tokens: 80 },
      contextTokens: 200_000,
    });
    await page.getByRole('button', { name: 'Remove sample.ts', exact: true }).click();
    assert.deepEqual(lastOf(await hp.posted(), 'removeContext'), { type: 'removeContext', id: 'c1' });
    await page.locator('.chip-tray .chip-main').filter({ hasText: 'sample.ts' }).click();
    assert.deepEqual(lastOf(await hp.posted(), 'openContext'), { type: 'openContext', id: 'c1' });
    await page.getByRole('button', { name: 'Add other.ts (suggested)', exact: true }).click();
    assert.ok(lastOf(await hp.posted(), 'acceptSuggestion'));
    await page.getByRole('button', { name: 'Dismiss other.ts', exact: true }).click();
    assert.ok(lastOf(await hp.posted(), 'dismissSuggestion'));
    assert.equal(
      await page.locator('.composer-meter').innerText(),
      '≈ 1.2K / 200K tokens',
      'the suggestion is not counted',
    );
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('x'.repeat(4000));
    assert.equal(await page.locator('.composer-meter').innerText(), '≈ 2.2K / 200K tokens');
  });

  it("a chip's tooltip holds its whole name where the chip cuts it, and the place it comes from", async () => {
    const { page } = hp;
    await page.setViewportSize({ width: 300, height: 800 });
    const terminal = 'Terminal: bash (output not captured)';
    await hp.send({
      type: 'contextChips',
      chips: [
        { id: 't1', kind: 'terminal', name: terminal, detail: 'echo ctx-term-$((6*7))-m4rk', tokens: 72 },
        { id: 'f1', kind: 'file', name: 'alpha.ts', detail: 'ctx/alpha.ts', tokens: 49 },
      ],
      contextTokens: 200_000,
    });
    const main = (name: string) => page.locator('.chip-tray .chip-main').filter({ hasText: name });
    const name = main('Terminal: bash').locator('.chip-name');
    assert.ok(
      await name.evaluate((el) => el.scrollWidth > el.clientWidth),
      'the name is cut at this width (the case the tooltip is for)',
    );
    assert.equal(
      await main('Terminal: bash').getAttribute('title'),
      `${terminal} · echo ctx-term-$((6*7))-m4rk · about 72 tokens`,
    );
    assert.equal(
      await main('alpha.ts').getAttribute('title'),
      'ctx/alpha.ts · about 49 tokens',
      'no name twice',
    );
  });

  it('a refused send shows the notice and puts the text back', async () => {
    const { page } = hp;
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Explain the attached file');
    await box.press('Enter');
    assert.equal(await box.inputValue(), '');
    await hp.send({ type: 'notice', level: 'error', message: 'Not sent: a.ts no longer exists.' });
    await hp.send({ type: 'restoreDraft', text: 'Explain the attached file' });
    assert.equal(await page.getByRole('alert').innerText(), 'Not sent: a.ts no longer exists.');
    assert.equal(await box.inputValue(), 'Explain the attached file');
  });

  it('a sent turn shows its attachments as "Open <name>" buttons', async () => {
    const { page } = hp;
    const attachment: Attachment = {
      id: 'a1',
      kind: 'selection',
      name: 'sample.ts',
      path: 'src/sample.ts',
      startLine: 3,
      endLine: 9,
      language: 'typescript',
      content: '<img src=x onerror=alert(1)>',
      tokens: 42,
    };
    const turn = user('What does this do?', { attachments: [attachment] });
    await hp.send({ type: 'state', state: viewState([turn]) });
    const open = page.getByRole('button', { name: 'Open sample.ts', exact: true });
    await open.click();
    assert.deepEqual(lastOf(await hp.posted(), 'openAttachment'), {
      type: 'openAttachment',
      turnId: turn.id,
      attachmentId: 'a1',
    });
    assert.equal(await page.locator('img').count(), 0, 'attachment content is never rendered');
    assert.match(await open.innerText(), /sample\.ts\s*:3-9/);
  });
});
