// Issue 25, findings 10-12 on the real bundle: Explain's turn with its chip, composer chips with their lines and
// the notices around them, readable answer headers, Copy's confirmation, labelled code-block actions, History's
// Open icon. Screenshots (light and dark) go to test-results/ for looking at.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Attachment } from '../../src/chat/context/types';
import type { ContextChip } from '../../src/contextProtocol';
import { assistant, MODEL, user, viewState } from './fixtures';
import { frames, ROOT, type HarnessPage } from './harness';
import { useHarness } from './pageHooks';
import type { ThemeKind } from './themes';

const SELECTION_CHIP: ContextChip = {
  id: 'c-sel',
  kind: 'selection',
  name: 'sample.ts',
  detail: 'src/sample.ts:3-7',
  lines: '3-7',
  tokens: 53,
};
const FILE_CHIP: ContextChip = {
  id: 'c-file',
  kind: 'file',
  name: 'sample.ts',
  detail: 'src/sample.ts',
  tokens: 76,
};

const EXPLAINED: Attachment = {
  id: 'a-sel',
  kind: 'selection',
  name: 'sample.ts',
  path: 'src/sample.ts',
  startLine: 3,
  endLine: 7,
  language: 'typescript',
  content: 'export function add(a: number, b: number): number {\n  return a + b;\n}',
  tokens: 53,
};

const ANSWER = 'Here it is:\n\n```ts\nexport const add = (a: number, b: number): number => a + b;\n```';

describe('chat polish, issue 25 findings 10-12 (Chromium, real bundle)', function () {
  const harness = useHarness();
  const dir = join(ROOT, 'test-results');
  let hp: HarnessPage | undefined;

  before(() => mkdirSync(dir, { recursive: true }));
  afterEach(() => harness.close(hp));

  it('Explain Selection’s turn reads as asked, with the code as a chip that opens it', async () => {
    hp = await harness.open({ width: 440 });
    const { page } = hp;
    const asked = user('Explain `add` in sample.ts:3-7', { attachments: [EXPLAINED] });
    await hp.send({ type: 'state', state: viewState([asked, assistant('`add` returns the sum.')]) });
    const you = page.getByRole('article', { name: 'You', exact: true });
    assert.equal(await you.locator('.user-text').innerText(), 'Explain add in sample.ts:3-7');
    assert.equal(await you.locator('.user-text code').innerText(), 'add');
    const chip = you.getByRole('button', { name: 'Open sample.ts', exact: true });
    assert.match(await chip.innerText(), /sample\.ts\s*:3-7/);
    assert.equal(await you.locator('pre').count(), 0, 'no quoted code block in the turn');
    await chip.click();
    const opened = (await hp.posted()).filter((m) => m.type === 'openAttachment');
    assert.deepEqual(opened.at(-1), { type: 'openAttachment', turnId: asked.id, attachmentId: 'a-sel' });
  });

  it('a selection chip in the composer shows its lines; a file chip does not', async () => {
    hp = await harness.open({ width: 440 });
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([]) });
    await hp.send({ type: 'contextChips', chips: [SELECTION_CHIP, FILE_CHIP], contextTokens: 200_000 });
    const parts = await page
      .locator('.chip-tray .chip-main')
      .evaluateAll((els) => els.map((el) => Array.from(el.children, (c) => c.textContent).join('|')));
    assert.deepEqual(parts, ['|sample.ts|:3-7|53', '|sample.ts|76']);
  });

  it('an info notice ("No problems…") shows an info icon; a chip added after a refusal clears it', async () => {
    hp = await harness.open({ width: 440 });
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([]) });
    const notice = page.locator('.notice');
    await hp.send({
      type: 'notice',
      level: 'info',
      message: 'No problems in the workspace: nothing was attached.',
    });
    await notice.waitFor();
    assert.equal(await notice.locator('.codicon-info').count(), 1);
    assert.equal(await notice.locator('.codicon-error').count(), 0);
    await hp.send({ type: 'notice', level: 'error', message: 'No terminal is open.' });
    assert.equal(await notice.locator('.codicon-error').count(), 1);
    // The suggestion changing (no chip added) leaves the refusal in place.
    await hp.send({ type: 'contextChips', chips: [], suggestion: FILE_CHIP, contextTokens: 200_000 });
    assert.equal(await notice.isVisible(), true);
    const terminal: ContextChip = {
      id: 't',
      kind: 'terminal',
      name: 'Terminal: bash',
      detail: 'ls',
      tokens: 30,
    };
    await hp.send({ type: 'contextChips', chips: [terminal], contextTokens: 200_000, clearNotice: true });
    await notice.waitFor({ state: 'hidden' });
  });

  it('the answer header shows the readable model name, the id in its tooltip', async () => {
    hp = await harness.open({ width: 440 });
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([user('q'), assistant('a')]) });
    const answer = page.getByRole('article', { name: 'Assistant Sonnet 4.5', exact: true });
    const author = answer.locator('.turn-author');
    assert.equal((await author.innerText()).trim(), 'Sonnet 4.5');
    assert.equal(await author.getAttribute('title'), MODEL);
    // A server's own id (no readable form) shows as it is.
    await hp.send({ type: 'state', state: viewState([user('q'), assistant('a', { model: 'llama-3-8b' })]) });
    await page.getByRole('article', { name: 'Assistant llama-3-8b', exact: true }).waitFor();
  });

  it('Copy shows "Copied" on the button and announces it, then goes back; the name stays', async () => {
    hp = await harness.open({ width: 440 });
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([user('q'), assistant(ANSWER)]) });
    const answer = page.getByRole('article', { name: /^Assistant / });
    const copy = answer.getByRole('button', { name: 'Copy message', exact: true });
    await copy.click();
    const copies = (await hp.posted()).filter((m) => m.type === 'copy');
    assert.deepEqual(copies.at(-1), { type: 'copy', text: ANSWER });
    assert.equal((await copy.innerText()).trim(), 'Copied');
    assert.equal(await copy.getAttribute('title'), 'Copied');
    assert.equal(await copy.locator('.codicon-check').count(), 1);
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor({ state: 'attached' });
    await page.waitForFunction(() => !document.querySelector('.turn-footer .copied'), undefined, {
      timeout: 5000,
    });
    assert.equal((await copy.innerText()).trim(), '');
    assert.equal(await copy.getAttribute('title'), 'Copy message');
    assert.equal(await copy.locator('.codicon-copy').count(), 1);

    const blockCopy = answer.locator('.code-block').getByRole('button', { name: 'Copy', exact: true });
    await blockCopy.click();
    assert.deepEqual((await hp.posted()).filter((m) => m.type === 'copy').at(-1), {
      type: 'copy',
      text: 'export const add = (a: number, b: number): number => a + b;',
    });
    assert.equal(await blockCopy.getAttribute('title'), 'Copied');
    assert.equal(await blockCopy.locator('.codicon-check').count(), 1);
    assert.equal(
      await blockCopy.evaluate((el) => getComputedStyle(el, '::after').content),
      '"Copied"',
      'the word shows even where the block is too narrow for labels',
    );
  });

  it('code-block actions have visible labels when the block is wide, tooltips in any width', async () => {
    const expected = ['Copy', 'Insert', 'Replace', 'New file', 'Apply'];
    const tooltips = ['Copy', 'Insert at cursor', 'Replace selection', 'Open as new file'];
    for (const [width, labelled] of [
      [640, true],
      [300, false],
    ] as const) {
      hp = await harness.open({ width });
      await hp.send({ type: 'state', state: viewState([user('q'), assistant(ANSWER)]) });
      const buttons = hp.page.locator('.code-block .code-actions button');
      assert.equal(await buttons.count(), 5);
      const shown = await buttons.evaluateAll((els) =>
        els.map((el) => getComputedStyle(el, '::after').content.replace(/^none$|^normal$/, '')),
      );
      assert.deepEqual(
        shown,
        labelled ? expected.map((l) => JSON.stringify(l)) : ['', '', '', '', ''],
        `labels at ${width} px`,
      );
      const titles = await buttons.evaluateAll((els) => els.map((el) => el.getAttribute('title')));
      assert.deepEqual(titles.slice(0, 4), tooltips, `tooltips at ${width} px`);
      assert.ok(titles[4]?.startsWith('Apply'), `Apply's tooltip at ${width} px`);
      const fits = await hp.page
        .locator('.code-toolbar')
        .first()
        .evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      assert.ok(fits, `the toolbar fits at ${width} px`);
      await harness.close(hp);
      hp = undefined;
    }
  });

  it('History’s Open uses a glyph of its own, not one that reads as Copy', async () => {
    hp = await harness.open({ width: 440 });
    const { page } = hp;
    const history = [{ id: 'h1', title: 'Debounce', model: MODEL, updatedAt: Date.now(), turnCount: 2 }];
    await hp.send({ type: 'state', state: viewState([user('q'), assistant('a')], { history }) });
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const open = page.getByRole('button', { name: 'Open', exact: true }).first();
    const glyph = await open.locator('.codicon').getAttribute('class');
    const copyLike = ['codicon-copy', 'codicon-go-to-file', 'codicon-files', 'codicon-file'];
    assert.ok(glyph && !copyLike.some((c) => glyph.split(' ').includes(c)), glyph ?? 'no glyph');
  });

  const themes: Array<[ThemeKind, string]> = [
    ['vscode-light', 'light'],
    ['vscode-dark', 'dark'],
  ];
  for (const [theme, name] of themes) {
    it(`screenshot: chips, notice, header, Copied and labelled actions, ${name}`, async () => {
      hp = await harness.open({ theme, width: 560, height: 720 });
      const { page } = hp;
      const asked = user('Explain `add` in sample.ts:3-7', { attachments: [EXPLAINED] });
      await hp.send({ type: 'state', state: viewState([asked, assistant(ANSWER)]) });
      await hp.send({ type: 'contextChips', chips: [SELECTION_CHIP, FILE_CHIP], contextTokens: 200_000 });
      await hp.send({
        type: 'notice',
        level: 'info',
        message: 'No problems in the workspace: nothing was attached.',
      });
      await page
        .getByRole('article', { name: /^Assistant / })
        .getByRole('button', { name: 'Copy message', exact: true })
        .click();
      await page.evaluate(() => document.fonts.ready);
      await frames(page, 3);
      await page.screenshot({ path: join(dir, `webview-issue25-polish-${name}.png`) });
      assert.deepEqual(hp.errors, []);
    });
  }
});
