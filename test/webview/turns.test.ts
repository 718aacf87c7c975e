// Turn actions, thinking, statuses, onboarding and history on the real bundle.
import * as assert from 'node:assert/strict';
import { assistant, MODEL, user, viewState } from './fixtures';
import { type HarnessPage, frames } from './harness';
import { usePagePerTest } from './pageHooks';

describe('chat webview turns and panels (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest((page) => (hp = page));

  it('message actions: copy, edit and resend, regenerate, retry and error action', async () => {
    const { page } = hp;
    const question = user('What is 2+2?');
    const failed = assistant('Partial', {
      status: 'error',
      error: { message: 'The gateway rejected the API key.', requestId: 'req_123', action: 'setApiKey' },
    });
    await hp.send({ type: 'state', state: viewState([question, failed]) });
    const you = page.getByRole('article', { name: 'You', exact: true });
    await you.getByRole('button', { name: 'Copy message', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'copy', text: 'What is 2+2?' });
    await page.getByText('Request ID: req_123').waitFor();
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'retry' });
    await page.getByRole('button', { name: 'Set API Key', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'errorAction',
      turnId: failed.id,
      action: 'setApiKey',
    });
    assert.equal(
      await page.getByRole('button', { name: 'Regenerate', exact: true }).count(),
      0,
      'Retry covers a failed turn',
    );

    await you.getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = page.getByRole('textbox', { name: 'Edit message', exact: true });
    assert.equal(await editor.evaluate((el) => el === document.activeElement), true);
    await editor.fill('What is 3+3?');
    await page.getByRole('button', { name: 'Save & Resend', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'editAndResend',
      turnId: question.id,
      text: 'What is 3+3?',
    });
    await you.getByText('What is 3+3?').waitFor();
    await you.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Edit message' }).count(), 0);

    const first = assistant('First answer');
    await hp.send({
      type: 'state',
      state: viewState([question, first, user('again'), assistant('Second answer')]),
    });
    await page.getByText('Second answer').waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Regenerate', exact: true }).count(),
      1,
      'only on the last answer',
    );
    await page.getByRole('button', { name: 'Regenerate', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'regenerate' });
  });

  it('a sent message keeps its Shift+Enter line breaks on screen (issue 25, finding 12)', async () => {
    const { page } = hp;
    await hp.send({
      type: 'state',
      state: viewState([user('First line\nSecond line\n\nThird after blank')]),
    });
    const text = await page
      .getByRole('article', { name: 'You', exact: true })
      .locator('.user-text')
      .innerText();
    assert.deepEqual(
      text.split('\n').filter((line) => line.trim()),
      ['First line', 'Second line', 'Third after blank'],
    );
  });

  it('thinking: open with a running timer while reasoning, collapses when the answer starts', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming', model: 'alpha-opus-4-1' });
    await hp.send({ type: 'state', state: viewState([user('Think hard')], { busy: true }) });
    await hp.send({ type: 'turnsAdded', turns: [turn] });
    await hp.send({ type: 'delta', turnId: turn.id, reasoning: 'First I consider **the input**.' });
    const details = page.locator('details.thinking');
    const summary = details.locator('summary');
    await summary.waitFor();
    assert.equal(await details.evaluate((el) => (el as HTMLDetailsElement).open), true);
    assert.match((await summary.textContent()) ?? '', /^Thinking… 0s$/);
    await page.waitForFunction(() =>
      /^Thinking… [12]s$/.test(document.querySelector('details.thinking summary')?.textContent ?? ''),
    );
    await hp.send({ type: 'delta', turnId: turn.id, reasoning: ' Then the output.' });
    await frames(page);
    assert.ok((await details.textContent())?.includes('Then the output.'));
    await hp.send({ type: 'delta', turnId: turn.id, text: 'The answer.' });
    await frames(page);
    assert.equal(await details.evaluate((el) => (el as HTMLDetailsElement).open), false);
    assert.match((await summary.textContent()) ?? '', /^Thinking \([12]s\)$/);
    await hp.send({ type: 'turnFinished', turnId: turn.id, status: 'complete', reasoningMs: 4200 });
    assert.equal(await summary.textContent(), 'Thinking (4s)');
  });

  it('thinking: a retracted reasoning leaves no section, only the answer', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming' });
    const answer = '<div>An answer</div> that was shown as </this> thinking';
    await hp.send({ type: 'state', state: viewState([user('Q'), turn], { busy: true }) });
    await hp.send({ type: 'delta', turnId: turn.id, reasoning: answer });
    await page.locator('details.thinking').waitFor();
    await hp.send({ type: 'delta', turnId: turn.id, retractReasoning: true, text: answer });
    await frames(page);
    assert.equal(await page.locator('details.thinking').count(), 0);
    await hp.send({ type: 'delta', turnId: turn.id, reasoning: 'Then real reasoning.' });
    await hp.send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
    await frames(page);
    const article = page.locator(`article[data-turn-id="${turn.id}"]`);
    assert.equal(await article.locator('.answer').textContent(), answer);
    assert.equal(
      await article.locator('details.thinking .thinking-body').textContent(),
      'Then real reasoning.',
    );
    assert.equal(await page.locator('details.thinking').count(), 1);
  });

  it('thinking stays open when the reader toggled it during reasoning', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming' });
    await hp.send({ type: 'state', state: viewState([user('Q'), turn], { busy: true }) });
    await hp.send({ type: 'delta', turnId: turn.id, reasoning: 'Hmm.' });
    const summary = page.locator('details.thinking > summary');
    await summary.click();
    await summary.click();
    await hp.send({ type: 'delta', turnId: turn.id, text: 'Answer' });
    await frames(page);
    assert.equal(
      await page.locator('details.thinking').evaluate((el) => (el as HTMLDetailsElement).open),
      true,
    );
  });

  it('statuses, usage, running total and live announcements', async () => {
    const { page } = hp;
    const turns = [
      user('a'),
      assistant('x', { status: 'interrupted' }),
      user('b'),
      assistant('y', {
        status: 'truncated',
        finishReason: 'length',
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    ];
    await hp.send({ type: 'state', state: viewState(turns) });
    await page.getByText('Interrupted — the window was reloaded or closed during this answer').waitFor();
    await page.getByText('The answer ended early').waitFor();
    await page.getByText('prompt 10 · completion 5 · total 15 tokens').waitFor();
    const next = assistant('', { status: 'streaming' });
    await hp.send({ type: 'turnsAdded', turns: [user('c'), next] });
    await hp.send({ type: 'delta', turnId: next.id, text: 'Done' });
    const live = page.locator('[aria-live="polite"]');
    assert.equal(await live.textContent(), '', 'nothing is announced per token');
    await hp.send({
      type: 'turnFinished',
      turnId: next.id,
      status: 'complete',
      usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 },
    });
    await page.waitForFunction(
      () => document.querySelector('[aria-live="polite"]')?.textContent === 'Answer complete',
    );
    assert.equal(await page.locator('.token-total').textContent(), '42 tokens');
  });

  it('the running total is never cut: the number alone where "N tokens" has no room', async () => {
    const { page } = hp;
    const used = assistant('y', {
      usage: { prompt_tokens: 120_000, completion_tokens: 3456, total_tokens: 123_456 },
    });
    const total = page.locator('.token-total');
    const shown = () =>
      total.evaluate((el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth }));
    await page.setViewportSize({ width: 900, height: 800 });
    const state = viewState([user('a'), used]);
    state.conversation.mode = 'agent';
    await hp.send({ type: 'state', state });
    await frames(page);
    assert.deepEqual(await shown(), { text: '123456 tokens', cut: false });
    // The side bar's default width, Agent chosen: "123456 tok…" before.
    await page.setViewportSize({ width: 300, height: 800 });
    await frames(page);
    assert.deepEqual(await shown(), { text: '123K', cut: false });
    await page.setViewportSize({ width: 900, height: 800 });
    await frames(page);
    assert.deepEqual(await shown(), { text: '123456 tokens', cut: false }, 'back in full once there is room');
  });

  it('onboarding panel with its buttons, composer still visible', async () => {
    const { page } = hp;
    await hp.send({
      type: 'state',
      state: viewState([], { onboarding: { hasApiKey: false, hasBaseUrl: true } }),
    });
    await page.getByRole('button', { name: 'Set API Key', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'setApiKey' });
    await page.getByRole('button', { name: 'Open Settings', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'openSettings' });
    assert.ok(await page.getByRole('textbox', { name: 'Message', exact: true }).isVisible());
    await hp.send({ type: 'onboarding', onboarding: { hasApiKey: true, hasBaseUrl: true } });
    // The page handles the message on its own schedule: wait for the buttons to go (a loaded machine is slow).
    await page
      .getByRole('button', { name: 'Set API Key', exact: true })
      .waitFor({ state: 'hidden', timeout: 10_000 });
    await page.getByText('API key saved').waitFor({ timeout: 10_000 });
  });

  it('history list: keyboard reachable rows with open, rename, export and delete', async () => {
    const { page } = hp;
    const history = [
      { id: 'h1', title: 'Parser bug', model: MODEL, updatedAt: Date.now() - 5 * 60_000, turnCount: 4 },
      { id: 'h2', title: 'CSS question', model: MODEL, updatedAt: Date.now() - 26 * 3600_000, turnCount: 2 },
    ];
    await hp.send({ type: 'state', state: viewState([], { history }) });
    await page.getByRole('button', { name: 'History', exact: true }).click();
    assert.equal(
      await page.getByRole('button', { name: 'History', exact: true }).getAttribute('aria-pressed'),
      'true',
    );
    await page.getByText('Parser bug').waitFor();
    await page.getByText(/5 minutes ago/).waitFor();
    // The first Open button has focus; arrow down moves to the next row's Open.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.deepEqual((await hp.posted()).at(-1), { type: 'openConversation', id: 'h2' });
    assert.equal(await page.locator('.history').isVisible(), false, 'opening closes the list');
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Parser bug' });
    for (const [name, type] of [
      ['Rename', 'renameConversation'],
      ['Export', 'exportConversation'],
      ['Delete', 'deleteConversation'],
    ] as const) {
      await row.getByRole('button', { name, exact: true }).click();
      assert.deepEqual((await hp.posted()).at(-1), { type, id: 'h1' });
    }
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.history').isVisible(), false);
    await page.getByRole('button', { name: 'New chat', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'newChat' });
  });

  it('model picker posts setModel; quotes show the file and highlighted code', async () => {
    const { page } = hp;
    const quoted = user('Explain this', {
      quote: {
        code: 'def f():\n    return 1',
        language: 'python',
        fileName: '/src/app/util.py',
        startLine: 10,
      },
    });
    await hp.send({ type: 'state', state: viewState([quoted]) });
    await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption('alpha-opus-4-1');
    assert.deepEqual((await hp.posted()).at(-1), { type: 'setModel', model: 'alpha-opus-4-1' });
    const quote = page.locator('.code-quote');
    assert.equal(await quote.locator('.code-title').textContent(), 'util.py:10');
    assert.ok((await quote.locator('.hljs-keyword').count()) > 0);
  });

  it('keeps the draft and scroll position in webview state, not the conversation', async () => {
    const { page } = hp;
    await hp.send({ type: 'state', state: viewState([]) });
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('half-written');
    await page.waitForTimeout(400);
    const saved = (await page.evaluate(() => window.__uiState())) as Record<string, unknown>;
    assert.equal(saved.draft, 'half-written');
    assert.equal(saved.conversationId, 'c1');
    assert.equal('turns' in saved, false);
  });
});
