// Issue 16 chat polish on the real bundle: model select, history rows, error card, Thinking, key saved.
import * as assert from 'node:assert/strict';
import type { ConversationSummary } from '../../src/chat/types';
import type { ModelOption } from '../../src/protocol';
import { assistant, user, viewState } from './fixtures';
import { type HarnessPage } from './harness';
import { useHarness } from './pageHooks';

const READABLE: ModelOption[] = [
  { id: 'alpha-sonnet-4-5-20250929', label: 'Sonnet 4.5', thinking: false, extra: false },
  { id: 'alpha-sonnet-4-5-20250929-thinking', label: 'Sonnet 4.5 · thinking', thinking: true, extra: false },
  { id: 'alpha-haiku-3-5-20241022', label: 'Haiku 3.5', thinking: false, extra: false },
];

describe('chat webview polish (issue 16, Chromium, real bundle)', function () {
  const harness = useHarness();
  let hp: HarnessPage | undefined;

  afterEach(() => harness.close(hp));

  it('the Model select shows readable names, sizes to its content within the view, the id in its tooltip', async () => {
    hp = await harness.open({ width: 300 });
    const { page } = hp;
    await hp.send({
      type: 'state',
      state: viewState([], { models: READABLE }),
    });
    await hp.send({ type: 'models', models: READABLE, selected: 'alpha-sonnet-4-5-20250929-thinking' });
    const select = page.getByRole('combobox', { name: 'Model', exact: true });
    const labels = await select.locator('option').allTextContents();
    assert.deepEqual(labels, ['Sonnet 4.5', 'Sonnet 4.5 · thinking', 'Haiku 3.5']);
    const values = await select
      .locator('option')
      .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
    assert.deepEqual(
      values,
      READABLE.map((m) => m.id),
      'option values stay the ids',
    );
    assert.equal(await select.getAttribute('title'), 'Model: alpha-sonnet-4-5-20250929-thinking');
    const box = await select.boundingBox();
    const header = await page.locator('.header').boundingBox();
    assert.ok(box && header && box.width < header.width, 'narrower than the view');
    const fits = await select.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    assert.ok(fits, 'the chosen name is not cut off');
    await select.selectOption('alpha-haiku-3-5-20241022');
    assert.equal(await select.getAttribute('title'), 'Model: alpha-haiku-3-5-20241022');
    const narrower = await select.boundingBox();
    assert.ok(narrower && box && narrower.width < box.width, 'the select follows the chosen name');
  });

  it('the Model select marks catalogue models the server did not list, by name and tooltip, value still the id', async () => {
    hp = await harness.open({ width: 360 });
    const models: ModelOption[] = [
      READABLE[0],
      { ...READABLE[2], unlisted: true },
      { id: 'served-only-7b', label: 'served-only-7b', thinking: false, extra: false },
    ];
    await hp.send({ type: 'state', state: viewState([], { models }) });
    await hp.send({ type: 'models', models, selected: 'alpha-sonnet-4-5-20250929' });
    const select = hp.page.getByRole('combobox', { name: 'Model', exact: true });
    const options = select.locator('option');
    assert.deepEqual(await options.allTextContents(), [
      'Sonnet 4.5',
      'Haiku 3.5 (not listed by the server)',
      'served-only-7b',
    ]);
    const attrs = await options.evaluateAll((els) =>
      els.map((e) => [(e as HTMLOptionElement).value, e.getAttribute('title')]),
    );
    assert.deepEqual(attrs, [
      ['alpha-sonnet-4-5-20250929', 'alpha-sonnet-4-5-20250929'],
      ['alpha-haiku-3-5-20241022', 'alpha-haiku-3-5-20241022 (not listed by the server)'],
      ['served-only-7b', 'served-only-7b'],
    ]);
    await select.selectOption('alpha-haiku-3-5-20241022');
    assert.equal(await select.inputValue(), 'alpha-haiku-3-5-20241022');
  });

  it('History rows: two lines with tooltips, readable model, no Jump to latest over the list', async () => {
    hp = await harness.open({ width: 280 });
    const { page } = hp;
    const long = 'A very long conversation title that cannot possibly fit into a narrow side bar';
    const history: ConversationSummary[] = [
      {
        id: 'h1',
        title: long,
        model: 'alpha-haiku-3-5-20241022',
        updatedAt: Date.now() - 5 * 60_000,
        turnCount: 4,
      },
    ];
    const turns = Array.from({ length: 12 }, (_, i) => [
      user(`q${i}`),
      assistant(`${'long answer '.repeat(80)} ${i}`),
    ]).flat();
    await hp.send({ type: 'state', state: viewState(turns, { history }) });
    // Scroll up so the transcript offers "Jump to latest", then open History over it.
    await page.locator('.transcript').evaluate((el) => el.scrollTo(0, 0));
    await page.mouse.move(100, 300);
    await page.mouse.wheel(0, -2000);
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'A very long' });
    const title = row.locator('.history-title');
    const meta = row.locator('.history-meta');
    assert.equal(await title.getAttribute('title'), long);
    assert.match((await meta.textContent()) ?? '', /^Haiku 3\.5 · 5 minutes ago · 4 messages$/);
    assert.match((await meta.getAttribute('title')) ?? '', /^alpha-haiku-3-5-20241022 · .+ · 4 messages$/);
    const [t, m] = [await title.boundingBox(), await meta.boundingBox()];
    assert.ok(t && m && m.y >= t.y + t.height - 1, 'the meta line is below the title');
    const metaFits = await meta.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    assert.ok(metaFits, 'time and count are not cut off');
    assert.equal(await page.locator('.jump-to-latest').isVisible(), false, 'no Jump to latest over History');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.jump-to-latest').isVisible(), false);
  });

  it('a refused connection offers Retry, Open Settings and Show Log', async () => {
    hp = await harness.open();
    const { page } = hp;
    const failed = assistant('', {
      status: 'error',
      error: {
        message: 'Could not reach the gateway at http://127.0.0.1:9 (ECONNREFUSED). Check the base URL.',
        action: 'openSettings',
      },
    });
    await hp.send({ type: 'state', state: viewState([user('hi'), failed]) });
    const card = page.locator('.error-box');
    const names = await card.getByRole('button').allTextContents();
    assert.deepEqual(
      names.map((n) => n.trim()),
      ['Retry', 'Open Settings', 'Show Log'],
    );
    await card.getByRole('button', { name: 'Open Settings', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'errorAction',
      turnId: failed.id,
      action: 'openSettings',
    });
    await card.getByRole('button', { name: 'Show Log', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'errorAction',
      turnId: failed.id,
      action: 'showLog',
    });
  });

  it('Thinking stays as the reader left it per turn, across re-renders; one duration format', async () => {
    hp = await harness.open();
    const { page } = hp;
    const thinking = 'alpha-sonnet-4-5-20250929-thinking';
    const first = assistant('Answer one', { model: thinking, reasoning: 'Reason one', reasoningMs: 400 });
    const second = assistant('Answer two', { model: thinking, reasoning: 'Reason two', reasoningMs: 61_000 });
    const turns = [user('a'), first, user('b'), second];
    await hp.send({ type: 'state', state: viewState(turns) });
    const summaries = page.locator('details.thinking > summary');
    assert.deepEqual(
      (await summaries.allTextContents()).map((s) => s.trim()),
      ['Thinking (1s)', 'Thinking (1m 1s)'],
    );
    await summaries.first().click();
    await page.waitForFunction(() => document.querySelectorAll('details.thinking[open]').length === 1);
    // The choice is saved on the details' toggle event, which the browser fires a task after the click.
    await page.waitForFunction(
      (id) => (window.__uiState() as { thinkingOpen?: Record<string, boolean> }).thinkingOpen?.[id] === true,
      first.id,
    );
    const saved = (await page.evaluate(() => window.__uiState())) as {
      thinkingOpen?: Record<string, boolean>;
    };
    assert.deepEqual(saved.thinkingOpen, { [first.id]: true });
    // …and told to the host, which keeps it with the conversation (so a reload shows it the same way).
    assert.deepEqual(
      (await hp.posted()).filter((m) => m.type === 'setThinkingOpen'),
      [{ type: 'setThinkingOpen', turnId: first.id, open: true }],
    );
    // A later full state (after a save, a model change…) rebuilds the turns: the choice survives.
    await hp.send({ type: 'state', state: viewState(turns) });
    const open = await page
      .locator('details.thinking')
      .evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open));
    assert.deepEqual(open, [true, false]);
  });

  it('code blocks in the user’s own message offer only Copy', async () => {
    hp = await harness.open();
    const { page } = hp;
    const code = '```ts\nconst a = 1;\n```';
    await hp.send({
      type: 'state',
      state: viewState([user(`Why?\n\n${code}`), assistant(`Because\n\n${code}`)]),
    });
    const mine = page.getByRole('article', { name: 'You', exact: true }).locator('.code-block');
    assert.deepEqual(
      await mine
        .locator('.code-actions button')
        .evaluateAll((b) => b.map((x) => x.getAttribute('aria-label'))),
      ['Copy'],
    );
    const theirs = page.getByRole('article', { name: new RegExp(`^Assistant`) }).locator('.code-block');
    assert.equal(
      await theirs.locator('.code-actions button').count(),
      5,
      'Copy, Insert, Replace, New file, Apply',
    );
  });

  it('saving the key shows "API key saved" in the onboarding area, then gets out of the way', async () => {
    hp = await harness.open();
    const { page } = hp;
    await hp.send({
      type: 'state',
      state: viewState([], { onboarding: { hasApiKey: false, hasBaseUrl: true } }),
    });
    const panel = page.locator('.onboarding');
    await panel.getByText(/To start chatting, set an API key/).waitFor();
    await hp.send({ type: 'onboarding', onboarding: { hasApiKey: true, hasBaseUrl: true } });
    await panel.getByRole('heading', { name: 'API key saved' }).waitFor();
    assert.equal(await panel.getByRole('button', { name: 'Set API Key' }).isVisible(), false);
  });
});
