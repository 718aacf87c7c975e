// Image turns and the `/` menu on the real bundle: the thumbnails' attributes and accessible names, the
// revised prompt as text, the placeholder of a missing file, the buttons' messages, and keyboard selection.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ImageTurn } from '../../src/chat/types';
import { viewState } from './fixtures';
import { frames, ROOT, type HarnessPage } from './harness';
import { useHarness } from './pageHooks';
import type { ThemeKind } from './themes';

const PROMPT = 'A fox <img src=x onerror="__xss()"> in snow';

function imageTurn(extra: Partial<ImageTurn> = {}): ImageTurn {
  return {
    id: 'img-1',
    role: 'image',
    content: `/image ${PROMPT}`,
    prompt: PROMPT,
    model: 'gpt-image-1',
    options: { size: '1536x1024', quality: 'high', n: 2, responseFormat: 'b64_json' },
    status: 'complete',
    images: [
      { path: 'assets/generated/fox-1.png', revisedPrompt: '<b>bold</b><script>__xss()</script>' },
      { path: 'assets/generated/fox-2.png' },
    ],
    createdAt: Date.now(),
    ...extra,
  };
}

describe('chat webview images (Chromium, real bundle)', function () {
  const harness = useHarness();
  let hp: HarnessPage | undefined;

  afterEach(() => harness.close(hp));

  it('shows thumbnails named by the prompt, the revised prompt as text, and a placeholder for a missing file', async () => {
    hp = await harness.open();
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([imageTurn()]) });
    await hp.send({ type: 'imageSources', sources: { 'img-1': [`${harness.origin}/favicon.ico`, null] } });
    await frames(page);
    const turn = page.getByRole('article', { name: 'Image' });
    const img = turn.getByRole('img', { name: PROMPT, exact: true });
    assert.equal(await img.count(), 1);
    assert.equal(await img.getAttribute('decoding'), 'async');
    assert.equal(await img.getAttribute('loading'), 'lazy');
    const box = await turn.locator('.image-thumb').first().boundingBox();
    assert.deepEqual([box?.width, box?.height], [256, 256]);
    await turn.getByText('Revised prompt: <b>bold</b><script>__xss()</script>').waitFor();
    assert.equal(await turn.locator('b, script, img[src="x"]').count(), 0);
    assert.equal(await page.evaluate(() => window.__xssCount), 0);
    await turn.getByText('assets/generated/fox-2.png was deleted or moved.').waitFor();
    await turn.getByRole('button', { name: 'Insert Markdown Link' }).first().click();
    await turn.getByRole('button', { name: 'Regenerate' }).click();
    const posted = (await hp.posted()).filter((m) => m.type === 'imageAction');
    assert.deepEqual(posted, [
      { type: 'imageAction', turnId: 'img-1', index: 0, action: 'insertLink' },
      { type: 'imageAction', turnId: 'img-1', index: 0, action: 'regenerate' },
    ]);
    assert.equal(await turn.getByRole('button', { name: 'Open Image' }).nth(1).isDisabled(), true);
  });

  it('shows progress with the elapsed time and a Stop that posts stop while generating', async () => {
    hp = await harness.open();
    const { page } = hp;
    const generating = imageTurn({ status: 'generating', images: [], createdAt: Date.now() - 3000 });
    generating.options.size = '4096x4096';
    await hp.send({ type: 'state', state: viewState([generating], { busy: true }) });
    const turn = page.getByRole('article', { name: 'Image' });
    await turn.getByText(/Generating 2 images at 4096x4096 \(this can take minutes\)/).waitFor();
    await turn.getByText(/^\d+ s$/).waitFor();
    await turn.getByRole('button', { name: 'Stop', exact: true }).click();
    assert.ok((await hp.posted()).some((m) => m.type === 'stop'));
    await hp.send({ type: 'imageTurn', turn: { ...generating, status: 'stopped' }, sources: [] });
    await turn.getByText('Stopped; nothing was saved.').waitFor();
  });

  it('typing / opens the Slash commands listbox; Enter picks /image, Escape closes', async () => {
    hp = await harness.open();
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([]) });
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.click();
    await box.pressSequentially('/');
    const menu = page.getByRole('listbox', { name: 'Slash commands' });
    await menu.waitFor();
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    await menu.getByRole('option', { name: /\/image/, selected: true }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), '/image ');
    await menu.waitFor({ state: 'hidden' });
    assert.equal(
      (await hp.posted()).filter((m) => m.type === 'send').length,
      0,
      'Enter chose, it did not send',
    );
    await box.fill('');
    await box.pressSequentially('/im');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await box.pressSequentially('x');
    assert.equal(await menu.isVisible(), false, '/imx matches no command');
  });
});

describe('chat webview image card layout (Chromium, real bundle)', function () {
  const harness = useHarness();
  let hp: HarnessPage | undefined;

  afterEach(() => harness.close(hp));

  const NAMES = ['Open Image', 'Reveal in Explorer', 'Copy Path', 'Insert Markdown Link'];

  /** Opens one image turn of one image at `width` px in `theme`. */
  async function openCard(width: number, theme: ThemeKind = 'vscode-dark'): Promise<HarnessPage> {
    const page = await harness.open({ theme, width, height: 640 });
    const turn = imageTurn({ images: [{ path: 'assets/generated/a-fox-in-the-snow-at-dawn-1.png' }] });
    turn.options.n = 1;
    await page.send({ type: 'state', state: viewState([turn]) });
    await page.send({ type: 'imageSources', sources: { 'img-1': [`${harness.origin}/favicon.ico`] } });
    await page.page.evaluate(() => document.fonts.ready);
    await frames(page.page, 3);
    return page;
  }

  it('shows the options once and the actions in one row of at most 40 px at 360 px, named and with tooltips', async () => {
    hp = await openCard(360);
    const turn = hp.page.getByRole('article', { name: 'Image' });
    assert.equal(await turn.getByText('1536x1024 · high', { exact: false }).count(), 1);
    const row = turn.locator('.image-actions');
    assert.equal(await row.count(), 1);
    const box = await row.boundingBox();
    assert.ok(box && box.height <= 40, `action row ${box?.height} px high`);
    const tops = new Set<number>();
    for (const name of NAMES) {
      const button = row.getByRole('button', { name, exact: true });
      assert.equal(await button.getAttribute('title'), name);
      tops.add(Math.round((await button.boundingBox())?.y ?? -1));
    }
    assert.equal(tops.size, 1, 'the four actions are on one line');
    const footer = turn.locator('.image-footer');
    await footer.getByRole('button', { name: 'Regenerate', exact: true }).waitFor();
    assert.ok(((await footer.boundingBox())?.height ?? 99) <= 40);
    // Everything under the thumbnail (path, actions, options, Regenerate) takes under 100 px, not 150 for buttons.
    const thumb = await turn.locator('.image-thumb').boundingBox();
    const article = await turn.boundingBox();
    assert.ok(thumb && article);
    const below = article.y + article.height - (thumb.y + thumb.height);
    assert.ok(below <= 100, `${below} px under the thumbnail`);
    assert.equal(await row.locator('.tool-label').first().isVisible(), false);
    await hp.page.screenshot({ path: join(ROOT, 'test-results', 'webview-image-card-dark-360.png') });
    assert.deepEqual(hp.errors, []);
  });

  it('shows the labels beside the icons where the row has room, in the light theme too', async () => {
    hp = await openCard(760, 'vscode-light');
    const row = hp.page.getByRole('article', { name: 'Image' }).locator('.image-actions');
    for (const name of NAMES) {
      const button = row.getByRole('button', { name, exact: true });
      assert.equal((await button.innerText()).trim(), name);
      assert.equal(await button.locator('.tool-label').isVisible(), true);
    }
    const box = await row.boundingBox();
    assert.ok(box && box.height <= 40, `action row ${box?.height} px high`);
    await hp.page.screenshot({ path: join(ROOT, 'test-results', 'webview-image-card-light-760.png') });
    assert.deepEqual(hp.errors, []);
  });
});
