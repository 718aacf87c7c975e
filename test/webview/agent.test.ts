// Agent mode in the real bundle: the Mode select, a run's text and tool rows in order, approvals, the changed
// files with Keep and Undo, the meter, Continue and Restore Checkpoint, by their accessible names.
import * as assert from 'node:assert/strict';
import type { AgentRun } from '../../src/chat/agentTurn';
import type { AgentAvailability, HostToWebview } from '../../src/protocol';
import {
  changedFile,
  EDIT_ROW,
  FILES,
  READ_ROW,
  SEARCH_ROW,
  storedRun,
  streamedRun,
  TEXT_AFTER,
  TEXT_BEFORE,
  toolRow,
} from './agentFixtures';
import { assistant, user, viewState } from './fixtures';
import { frames, type HarnessPage } from './harness';
import { usePagePerTest } from './pageHooks';
import { XSS_VECTORS } from './xssCorpus';
import { HARNESS_PATHS } from './xssRules';

/** Resolves once the page has handled every message sent before (window messages arrive in order). */
function delivered(hp: HarnessPage): Promise<void> {
  return hp.page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const mark = `delivered-${Math.random()}`;
        const seen = (event: MessageEvent): void => {
          if (event.data !== mark) return;
          window.removeEventListener('message', seen);
          resolve();
        };
        window.addEventListener('message', seen);
        window.postMessage(mark, '*');
      }),
  );
}

/** A run that has not started: what the host adds when an Agent-mode message is sent. */
const EMPTY_RUN: AgentRun = { parts: [], files: [], rules: ['AGENTS.md'] };

describe('agent mode (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest((page) => (hp = page));

  /** Sends a host message and waits until the page has handled it. */
  async function send(message: HostToWebview): Promise<void> {
    await hp.send(message);
    await delivered(hp);
  }

  /** Streams the fixture run into a new turn and finishes it; returns the turn's id. */
  async function streamRun(): Promise<string> {
    const turn = assistant('', { status: 'streaming', agent: EMPTY_RUN });
    await send({ type: 'state', state: viewState([user('Fix parseConfig')], { busy: true }) });
    await send({ type: 'turnsAdded', turns: [turn] });
    for (const message of streamedRun(turn.id)) {
      await send(message);
      // Rows arrive between frames as they would, so the text before each is rendered live first.
      await frames(hp.page, 1);
    }
    await send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
    await frames(hp.page);
    return turn.id;
  }

  /** The kinds of the run's parts in order, with their text. */
  function partsOf(page = hp.page): Promise<Array<[string, string]>> {
    return page.evaluate(() =>
      Array.from(document.querySelectorAll('.agent-parts > *')).map((el): [string, string] => [
        el.classList.contains('agent-tool') ? 'tool' : 'text',
        (el.classList.contains('agent-tool')
          ? (el.querySelector('.agent-tool-summary')?.textContent ?? '')
          : (el.textContent ?? '')
        ).trim(),
      ]),
    );
  }

  it('a streamed run shows its text, its tool rows and its text again, in order', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming', agent: EMPTY_RUN });
    await send({ type: 'state', state: viewState([user('Fix parseConfig'), turn], { busy: true }) });
    await send({ type: 'delta', turnId: turn.id, text: TEXT_BEFORE[0] });
    await send({ type: 'delta', turnId: turn.id, text: TEXT_BEFORE[1] });
    await frames(page);
    // The row arrives running: one row, spinning, named by its summary first.
    await send({ type: 'agentRow', turnId: turn.id, row: { ...READ_ROW, status: 'running' } });
    const row = page.getByRole('button', { name: /^Read src\/app\.ts:1-120/ });
    assert.equal(await row.getAttribute('aria-label'), 'Read src/app.ts:1-120, running');
    assert.equal(await page.locator('.agent-tool .codicon-loading').count(), 1);
    await send({ type: 'agentRow', turnId: turn.id, row: READ_ROW });
    assert.equal(await row.getAttribute('aria-label'), 'Read src/app.ts:1-120, done');
    assert.equal(await page.locator('.agent-tool').count(), 1, 'the same id replaces its row');
    assert.equal(await page.locator('.agent-tool .codicon-check').count(), 1);
    await send({ type: 'delta', turnId: turn.id, text: 'After the **read**' });
    await send({ type: 'agentRow', turnId: turn.id, row: { ...EDIT_ROW, status: 'error' } });
    await send({ type: 'delta', turnId: turn.id, text: 'And the end.' });
    await frames(page);
    assert.deepEqual(await partsOf(), [
      ['text', 'I will read the entry point first.'],
      ['tool', 'Read src/app.ts:1-120'],
      ['text', 'After the read'],
      ['tool', 'Edited src/config.ts +12 −3'],
      ['text', 'And the end.'],
    ]);
    assert.equal(
      await page.getByRole('button', { name: 'Edited src/config.ts +12 −3, failed', exact: true }).count(),
      1,
    );
    // Markdown in the text parts, streaming or not.
    assert.equal(
      await page
        .locator('.agent-text strong')
        .allTextContents()
        .then((t) => t.join('|')),
      'first|read',
    );
    await page.getByText('Rules:').waitFor();
    assert.equal(
      await page
        .locator('.agent-rules')
        .innerText()
        .then((t) => t.replace(/\s+/g, ' ')),
      'Rules: AGENTS.md',
    );
    assert.equal(await page.locator('.turn-note.streaming').count(), 1, 'Generating… while the run streams');
  });

  it('a row expands to its input and result as text; HTML in them, or in its summary, stays inert', async () => {
    const { page } = hp;
    const hostile = '<img src=x onerror=__xss()><script>__xss()</script>';
    const row = toolRow('call_x', `Read ${hostile}`, {
      input: JSON.stringify({ path: hostile }),
      result: `${hostile}\n<a href="javascript:__xss()">link</a>`,
      approval: hostile,
      status: 'awaitingApproval',
    });
    const run: AgentRun = { parts: [{ kind: 'text', text: 'Reading.' }, row], files: [], rules: [hostile] };
    await send({ type: 'state', state: viewState([user('q'), assistant('', { agent: run })]) });
    const button = page.getByRole('button', { name: `Read ${hostile}, waiting for approval`, exact: true });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.locator('.agent-tool-details').isHidden(), true);
    await button.click();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    const details = page.locator('.agent-tool-details');
    assert.equal(await details.isVisible(), true);
    const texts = await details.locator('pre').allTextContents();
    assert.deepEqual(texts, [JSON.stringify({ path: hostile }, null, 2), row.result]);
    assert.equal(await page.locator('.agent-run img, .agent-run script, .agent-run a').count(), 0);
    assert.equal(await page.evaluate(() => window.__xssCount), 0);
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assert.equal(await page.locator('.agent-approval-question').textContent(), hostile);
    // Input that is not JSON (cut for display) shows as it came.
    await send({
      type: 'agentRow',
      turnId: (await page.locator('.turn-assistant').getAttribute('data-turn-id')) ?? '',
      row: { ...row, status: 'done', input: '{"path": "src/a.ts", "cont', result: undefined },
    });
    assert.deepEqual(await details.locator('pre').allTextContents(), ['{"path": "src/a.ts", "cont']);
    const updated = page.getByRole('button', { name: `Read ${hostile}, done`, exact: true });
    assert.equal(await updated.getAttribute('aria-expanded'), 'true', 'an update keeps the row open');
    await updated.click();
    assert.equal(await details.isHidden(), true);
  });

  it("every XSS vector as a row's summary, input, result, approval and file path stays text", async () => {
    const { page } = hp;
    const rows = XSS_VECTORS.map((vector, i) =>
      toolRow(`call_${i}`, vector.markdown, {
        input: JSON.stringify({ path: vector.markdown }),
        result: vector.markdown,
        status: i % 3 === 0 ? 'awaitingApproval' : 'error',
        approval: vector.markdown,
      }),
    );
    const files = XSS_VECTORS.map((vector, i) => changedFile(`${i}/${vector.markdown}`, 1, 1));
    await send({
      type: 'state',
      state: viewState([
        user('q'),
        assistant('', { agent: { parts: rows, files, rules: [XSS_VECTORS[0].markdown] } }),
      ]),
    });
    for (const head of await page.locator('.agent-tool-head').all()) await head.click();
    await frames(page);
    const report = await page.evaluate(() => {
      const run = document.querySelector('.agent-run');
      return {
        xss: window.__xssCount,
        violations: window.__violations,
        elements: Array.from(
          run?.querySelectorAll('img, script, iframe, a, svg, style, object, embed, form') ?? [],
        ).map((el) => el.tagName),
        results: Array.from(
          run?.querySelectorAll('.agent-tool-details .agent-tool-section:last-child pre') ?? [],
        ).map((pre) => pre.textContent),
        summaries: Array.from(run?.querySelectorAll('.agent-tool-summary') ?? []).map((el) => el.textContent),
        paths: Array.from(run?.querySelectorAll('.agent-file-path') ?? []).map((el) => el.textContent),
      };
    });
    await page.waitForTimeout(300);
    assert.equal(report.xss + (await page.evaluate(() => window.__xssCount)), 0, 'a vector executed');
    assert.deepEqual(report.violations, []);
    assert.deepEqual(report.elements, []);
    assert.deepEqual(
      report.results,
      XSS_VECTORS.map((v) => v.markdown),
    );
    assert.deepEqual(
      report.summaries,
      XSS_VECTORS.map((v) => v.markdown),
    );
    assert.deepEqual(
      report.paths,
      XSS_VECTORS.map((v, i) => `${i}/${v.markdown}`),
    );
    const foreign = hp.requests.filter((url) => !HARNESS_PATHS.has(new URL(url).pathname));
    assert.deepEqual(foreign, [], 'requests left the harness');
  });

  it('Approve and Skip post the decision for their call, then go', async () => {
    const { page } = hp;
    const turn = assistant('', {
      status: 'streaming',
      agent: { parts: [], files: [] },
    });
    await send({ type: 'state', state: viewState([user('q'), turn], { busy: true }) });
    const ask = (id: string, path: string): Promise<void> =>
      send({
        type: 'agentRow',
        turnId: turn.id,
        row: toolRow(id, `Edit ${path}`, {
          name: 'edit_file',
          status: 'awaitingApproval',
          approval: `Edit ${path}? It configures the editor.`,
        }),
      });
    await ask('call_a', '.vscode/settings.json');
    await ask('call_b', '.vscode/tasks.json');
    await page.getByText('Edit .vscode/settings.json? It configures the editor.').waitFor();
    // Screen readers hear that a call waits (the last one asked, once: the live region is not per token).
    await page.waitForFunction(
      () =>
        document.querySelector('[aria-live="polite"]')?.textContent ===
        'Waiting for your approval: Edit .vscode/tasks.json? It configures the editor.',
    );
    const first = page.locator('.agent-tool').nth(0);
    const second = page.locator('.agent-tool').nth(1);
    await first.getByRole('button', { name: 'Approve', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'agentApproval',
      turnId: turn.id,
      callId: 'call_a',
      choice: 'approve',
    });
    assert.equal(await first.getByRole('button', { name: 'Approve' }).count(), 0);
    assert.equal(await first.getByRole('button', { name: 'Skip' }).count(), 0);
    // The keyboard user stays on the row whose buttons went.
    assert.equal(
      await first.locator('.agent-tool-head').evaluate((el) => el === document.activeElement),
      true,
    );
    await second.getByRole('button', { name: 'Skip', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'agentApproval',
      turnId: turn.id,
      callId: 'call_b',
      choice: 'skip',
    });
    assert.equal(await page.getByRole('button', { name: /^(Approve|Skip)$/ }).count(), 0);
    assert.equal((await hp.posted()).filter((m) => m.type === 'agentApproval').length, 2);
    // The host answers with the rows' new state.
    await send({
      type: 'agentRow',
      turnId: turn.id,
      row: toolRow('call_b', 'Edit .vscode/tasks.json', { status: 'skipped' }),
    });
    assert.equal(
      await page.getByRole('button', { name: 'Edit .vscode/tasks.json, skipped', exact: true }).count(),
      1,
    );
  });

  it('a command asks with the host’s choices: Run, Skip, Always Allow <prefix>; each click posts its choice', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming', agent: { parts: [], files: [] } });
    await send({ type: 'state', state: viewState([user('q'), turn], { busy: true }) });
    const ask = (id: string): Promise<void> =>
      send({
        type: 'agentRow',
        turnId: turn.id,
        row: toolRow(id, 'run_command npm test', {
          name: 'run_command',
          status: 'awaitingApproval',
          approval: 'Run `npm test` in app?',
          choices: [
            { id: 'run', label: 'Run' },
            { id: 'skip', label: 'Skip' },
            { id: 'alwaysAllow', label: 'Always Allow npm test' },
          ],
        }),
      });
    for (const id of ['call_r', 'call_s', 'call_a']) await ask(id);
    await page.getByText('Run `npm test` in app?').first().waitFor();
    const rows = page.locator('.agent-tool');
    // Only the host's choices: no Approve on a command.
    assert.equal(await rows.nth(0).getByRole('button', { name: 'Approve' }).count(), 0);
    await rows.nth(0).getByRole('button', { name: 'Run', exact: true }).click();
    await rows.nth(1).getByRole('button', { name: 'Skip', exact: true }).click();
    await rows.nth(2).getByRole('button', { name: 'Always Allow npm test', exact: true }).click();
    const answers = (await hp.posted()).filter((m) => m.type === 'agentApproval');
    assert.deepEqual(answers.slice(-3), [
      { type: 'agentApproval', turnId: turn.id, callId: 'call_r', choice: 'run' },
      { type: 'agentApproval', turnId: turn.id, callId: 'call_s', choice: 'skip' },
      { type: 'agentApproval', turnId: turn.id, callId: 'call_a', choice: 'alwaysAllow' },
    ]);
    assert.equal(await page.getByRole('button', { name: /^(Run|Skip|Always Allow)/ }).count(), 0);
  });

  it('the changed files: summary, notes and decisions, and buttons that post by their names', async () => {
    const { page } = hp;
    const turnId = await streamRun();
    const list = page.getByRole('group', { name: 'Changed files', exact: true });
    const summary = (await list.locator('.agent-files-summary').innerText()).replace(/\s+/g, ' ');
    assert.match(summary, /^4 files changed \+42 \u221213 Keep All Undo All$/);
    const rows = await list
      .locator('li')
      .evaluateAll((items) => items.map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(rows, [
      'src/config.ts +12 \u22123 Keep Undo',
      'src/config.test.ts +28 \u22120 created Keep Undo',
      'src/legacy.ts +0 \u22129 deleted Kept',
      'src/app.ts +2 \u22121 unsaved, in the editor Undone',
    ]);
    // Only pending files have buttons, each named with its file.
    const names = await list
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent));
    assert.deepEqual(names, [
      'Keep All',
      'Undo All',
      'src/config.ts',
      'Keep src/config.ts',
      'Undo src/config.ts',
      'src/config.test.ts',
      'Keep src/config.test.ts',
      'Undo src/config.test.ts',
      'src/legacy.ts',
      'src/app.ts',
    ]);
    const last = async (): Promise<unknown> => (await hp.posted()).at(-1);
    await page.getByRole('button', { name: 'Keep All', exact: true }).click();
    assert.deepEqual(await last(), { type: 'agentDecision', turnId, decision: 'keep' });
    await page.getByRole('button', { name: 'Undo All', exact: true }).click();
    assert.deepEqual(await last(), { type: 'agentDecision', turnId, decision: 'undo' });
    await page.getByRole('button', { name: 'Keep src/config.ts', exact: true }).click();
    assert.deepEqual(await last(), {
      type: 'agentDecision',
      turnId,
      path: 'src/config.ts',
      decision: 'keep',
    });
    await page.getByRole('button', { name: 'Undo src/config.test.ts', exact: true }).click();
    assert.deepEqual(await last(), {
      type: 'agentDecision',
      turnId,
      path: 'src/config.test.ts',
      decision: 'undo',
    });
    await page.getByRole('button', { name: 'src/legacy.ts', exact: true }).click();
    assert.deepEqual(await last(), { type: 'openChangedFile', turnId, path: 'src/legacy.ts' });

    // The host's new list replaces it; the focused button's file keeps the focus.
    await page.getByRole('button', { name: 'Keep src/config.ts', exact: true }).focus();
    await send({
      type: 'agentFiles',
      turnId,
      files: FILES.map((f) => (f.path === 'src/config.ts' ? { ...f, decision: 'kept' as const } : f)),
    });
    assert.equal(await page.getByRole('button', { name: 'Keep src/config.ts' }).count(), 0);
    assert.equal(
      await list
        .locator('li')
        .first()
        .innerText()
        .then((t) => t.replace(/\s+/g, ' ')),
      'src/config.ts +12 \u22123 Kept',
    );
    // Decided hunk by hunk in the editor: some hunks kept, some put back.
    await send({
      type: 'agentFiles',
      turnId,
      files: FILES.map((f) =>
        f.path === 'src/config.ts' ? { ...f, added: 5, removed: 1, decision: 'partial' as const } : f,
      ),
    });
    assert.equal(
      await list
        .locator('li')
        .first()
        .innerText()
        .then((t) => t.replace(/\s+/g, ' ')),
      'src/config.ts +5 \u22121 Partly kept',
    );
    assert.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'src/config.ts',
      'focus stays on the decided file',
    );
    await send({
      type: 'agentFiles',
      turnId,
      files: FILES.map((f) => ({ ...f, decision: 'kept' as const })),
    });
    assert.equal(
      await page.getByRole('button', { name: /^(Keep|Undo) All$/ }).count(),
      0,
      'nothing left to decide',
    );
    await send({ type: 'agentFiles', turnId, files: [] });
    assert.equal(await list.count(), 0, 'no files, no list');
    await send({ type: 'agentFiles', turnId, files: [changedFile('a.ts', 1, 0)] });
    assert.match(await list.locator('.agent-files-summary').innerText(), /^1 file changed/);
  });

  it('in a narrow view the changed files wrap inside their box, each path readable', async () => {
    const { page } = hp;
    await page.setViewportSize({ width: 260, height: 800 });
    await send({ type: 'state', state: viewState([user('q'), assistant('', { agent: storedRun() })]) });
    await frames(page);
    const report = await page.evaluate(() => {
      const box = document.querySelector('.agent-files')?.getBoundingClientRect();
      const rows = Array.from(document.querySelectorAll('.agent-file'));
      return {
        overflowing: rows.flatMap((row) =>
          Array.from(row.children)
            .filter((child) => box && child.getBoundingClientRect().right > box.right)
            .map((child) => `${(row as HTMLElement).dataset.path}: ${child.className}`),
        ),
        cutPaths: rows
          .map((row) => row.querySelector<HTMLElement>('.agent-file-path'))
          .filter((path) => path && path.scrollWidth > path.clientWidth)
          .map((path) => path?.textContent),
      };
    });
    assert.deepEqual(report, { overflowing: [], cutPaths: [] });
  });

  it('the meter, Continue at the step limit, and Copy of the run', async () => {
    const { page } = hp;
    const turnId = await streamRun();
    assert.equal(
      await page.locator('.agent-meter').textContent(),
      '12.3k tokens · 41% of context (estimated) · 2 results elided · $0.04',
    );
    await send({
      type: 'agentMeter',
      turnId,
      meter: { totalTokens: 950, promptTokens: 900, contextTokens: 128_000, estimated: false },
    });
    // Some of the context, under 1%: never "0%".
    assert.equal(await page.locator('.agent-meter').textContent(), '950 tokens · <1% of context');
    await send({
      type: 'agentMeter',
      turnId,
      meter: { totalTokens: 4500, promptTokens: 3000, contextTokens: 200_000, estimated: false },
    });
    assert.equal(await page.locator('.agent-meter').textContent(), '4.5k tokens · 2% of context');
    assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 0);
    await send({ type: 'agentPaused', turnId, paused: true });
    await page.getByText('The run reached its step limit. Continue?').waitFor();
    await page.waitForFunction(
      () =>
        document.querySelector('[aria-live="polite"]')?.textContent ===
        'The run reached its step limit. Continue?',
    );
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'agentContinue', turnId });
    assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 0, 'once asked, it goes');
    await send({ type: 'agentPaused', turnId, paused: true });
    assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 1);
    await send({ type: 'agentPaused', turnId, paused: false });
    assert.equal(await page.getByRole('button', { name: 'Continue' }).count(), 0);

    const answer = page.getByRole('article', { name: /^Assistant/ });
    await answer.getByRole('button', { name: 'Copy message', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), {
      type: 'copy',
      text: `${TEXT_BEFORE.join('').trim()}\n\n${TEXT_AFTER.join('').trim()}`,
    });
  });

  it('a finished run drawn from history equals the streamed one', async () => {
    const { page } = hp;
    await streamRun();
    /** The run's DOM with what differs by construction left out: generated ids, off-screen group marks. */
    const runHtml = (): Promise<string> =>
      page.evaluate(() =>
        (document.querySelector('.agent-run')?.outerHTML ?? '')
          .replace(/agent-tool-details-\d+/g, 'ID')
          .replace(/ md-skippable/g, ''),
      );
    const streamed = await runHtml();
    assert.ok(streamed.includes('agent-tool'));
    const stored = storedRun();
    await send({
      type: 'state',
      state: viewState([
        user('Fix parseConfig'),
        assistant('', { agent: { ...stored, rules: ['AGENTS.md'] } }),
      ]),
    });
    await frames(page);
    assert.equal(await runHtml(), streamed);
    assert.deepEqual(await partsOf(), [
      ['text', 'I will read the entry point first.\nthen search'],
      ['tool', READ_ROW.summary],
      ['tool', SEARCH_ROW.summary],
      ['tool', EDIT_ROW.summary],
      ['text', 'Found it. Now the fix:tsexport const x = 1;\nDone.'],
    ]);
  });

  it('a turn that began as an answer becomes a run at its first row, its text kept first', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming' });
    await send({ type: 'state', state: viewState([user('q'), turn], { busy: true }) });
    await send({ type: 'delta', turnId: turn.id, text: 'Let me look.' });
    await frames(page);
    await send({ type: 'agentRow', turnId: turn.id, row: READ_ROW });
    await send({ type: 'delta', turnId: turn.id, text: 'Seen.' });
    await send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
    await frames(page);
    assert.deepEqual(await partsOf(), [
      ['text', 'Let me look.'],
      ['tool', READ_ROW.summary],
      ['text', 'Seen.'],
    ]);
    assert.equal(await page.locator('.answer').count(), 1);
  });

  it('Restore Checkpoint shows on a user turn whose run changed files, and posts', async () => {
    const { page } = hp;
    const first = user('Fix it', { checkpoint: true });
    const second = user('And the tests');
    await send({
      type: 'state',
      state: viewState([
        first,
        assistant('', { agent: storedRun() }),
        second,
        assistant('', { agent: storedRun() }),
      ]),
    });
    const restore = page.getByRole('button', { name: 'Restore Checkpoint', exact: true });
    assert.equal(await restore.count(), 1);
    await restore.click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'restoreCheckpoint', turnId: first.id });
    await send({ type: 'checkpoint', turnId: second.id });
    assert.equal(await restore.count(), 2);
    const secondTurn = page.locator(`[data-turn-id="${second.id}"]`);
    await secondTurn.getByRole('button', { name: 'Restore Checkpoint', exact: true }).click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'restoreCheckpoint', turnId: second.id });
    // Among the turn's actions, and not while a run is going (it would race the run's edits).
    assert.deepEqual(
      await secondTurn
        .locator('.turn-header .turn-actions button')
        .evaluateAll((b) => b.map((x) => x.getAttribute('aria-label'))),
      ['Restore Checkpoint', 'Edit', 'Copy message'],
    );
    await send({
      type: 'turnsAdded',
      turns: [user('More'), assistant('', { status: 'streaming', agent: EMPTY_RUN })],
    });
    assert.equal(await restore.first().isDisabled(), true);
  });

  it('the Mode select shows the conversation mode, posts setMode, and hides or disables Agent as told', async () => {
    const { page } = hp;
    const mode = page.getByRole('combobox', { name: 'Mode', exact: true });
    const state = viewState([]);
    await send({ type: 'state', state });
    assert.equal(await mode.inputValue(), 'ask', 'Ask by default');
    assert.deepEqual(await mode.locator('option').allTextContents(), ['Ask', 'Agent', 'Plan']);
    await mode.selectOption('agent');
    assert.deepEqual((await hp.posted()).at(-1), { type: 'setMode', mode: 'agent' });
    await mode.selectOption('ask');
    assert.deepEqual((await hp.posted()).at(-1), { type: 'setMode', mode: 'ask' });

    await send({
      type: 'state',
      state: { ...state, conversation: { ...state.conversation, mode: 'agent' } },
    });
    assert.equal(await mode.inputValue(), 'agent');
    await send({ type: 'mode', mode: 'ask', agent: { enabled: true } });
    assert.equal(await mode.inputValue(), 'ask');

    // Restricted Mode: Agent shows, disabled, saying why.
    const reason = 'Agent mode needs a trusted workspace.';
    await send({ type: 'mode', mode: 'ask', agent: { enabled: true, disabledReason: reason } });
    const agentOption = mode.locator('option[value="agent"]');
    assert.equal(await agentOption.isDisabled(), true);
    assert.equal(await agentOption.getAttribute('title'), reason);
    assert.equal(await mode.getAttribute('title'), `Mode · Agent: ${reason}`);
    await send({ type: 'mode', mode: 'ask', agent: { enabled: true } });
    assert.equal(await agentOption.isDisabled(), false);
    assert.equal(await agentOption.getAttribute('title'), null);

    // Agent off: nothing to choose, so no select.
    await send({ type: 'state', state: { ...state, agent: { enabled: false } } });
    assert.equal(await page.getByRole('combobox', { name: 'Mode', exact: true }).count(), 0);
    assert.equal(await mode.isHidden(), true);
    await send({ type: 'mode', mode: 'ask', agent: { enabled: true } });
    assert.equal(await mode.isVisible(), true);
    // A host that says nothing of the agent offers none.
    await send({ type: 'state', state: { ...state, agent: undefined as unknown as AgentAvailability } });
    assert.equal(await mode.isHidden(), true);
    assert.deepEqual(hp.errors, []);
    await send({ type: 'mode', mode: 'ask', agent: { enabled: true } });
    // The model picker is still there, beside it.
    assert.equal(await page.getByRole('combobox', { name: 'Model', exact: true }).isVisible(), true);
  });

  it('Plan: chosen and shown by the select, kept in Restricted Mode, hidden with Agent when the agent is off', async () => {
    const { page } = hp;
    const mode = page.getByRole('combobox', { name: 'Mode', exact: true });
    const state = viewState([]);
    await send({ type: 'state', state });
    await mode.selectOption({ label: 'Plan' });
    assert.deepEqual((await hp.posted()).at(-1), { type: 'setMode', mode: 'plan' });
    await send({ type: 'state', state: { ...state, conversation: { ...state.conversation, mode: 'plan' } } });
    assert.equal(await mode.inputValue(), 'plan');
    // Restricted Mode disables Agent only: Plan reads, and stays chosen and choosable.
    const reason = 'Agent mode needs a trusted workspace.';
    await send({ type: 'mode', mode: 'plan', agent: { enabled: true, disabledReason: reason } });
    assert.equal(await mode.inputValue(), 'plan');
    assert.equal(await mode.locator('option[value="plan"]').isDisabled(), false);
    // Agent off: the conversation's Plan shows as Ask, and the select goes.
    await send({ type: 'mode', mode: 'plan', agent: { enabled: false } });
    assert.equal(await mode.count(), 0);
    const hidden = page.locator('select.mode-picker');
    assert.equal(await hidden.inputValue(), 'ask');
    assert.equal(await hidden.isHidden(), true);
    assert.equal(
      await hidden.locator('option[value="plan"]').evaluate((o) => (o as HTMLOptionElement).hidden),
      true,
    );
  });

  it('Start with Agent shows under a finished plan that is the latest turn, and posts its turn id', async () => {
    const { page } = hp;
    const run: AgentRun = { parts: [{ kind: 'text', text: '1. Read.\n2. Edit.' }], files: [], plan: true };
    const planTurn = assistant('', { status: 'streaming', agent: run });
    await send({ type: 'state', state: viewState([user('Plan it'), planTurn], { busy: true }) });
    const start = page.getByRole('button', { name: 'Start with Agent', exact: true });
    assert.equal(await start.count(), 0, 'not while the plan streams');
    await send({ type: 'turnFinished', turnId: planTurn.id, status: 'complete' });
    await send({ type: 'state', state: viewState([user('Plan it'), { ...planTurn, status: 'complete' }]) });
    await start.waitFor();
    await start.click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'startWithAgent', turnId: planTurn.id });
    // An Agent run, a stopped plan, or a plan with a later turn after it offers no button.
    for (const turns of [
      [user('Go'), assistant('', { agent: { ...run, plan: undefined } })],
      [user('Plan it'), { ...planTurn, status: 'stopped' as const }],
      [user('Plan it'), { ...planTurn, status: 'complete' as const }, user('Carry out this plan')],
    ]) {
      await send({ type: 'state', state: viewState(turns) });
      await frames(page);
      assert.equal(await start.count(), 0, JSON.stringify(turns.map((t) => t.role)));
    }
  });
});
