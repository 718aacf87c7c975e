// A 64 KB answer that is one unbroken run (base64, a hash, minified code) stays inside the view, as a
// paragraph, in a code block and in a table cell, streamed and from history (issue 15, item 7). It shows
// folded: its first 10,000 characters and "Show all", which shows the rest; nothing of it is lost. Timing is
// the benchmark's job (npm run bench -- --only=6).
import * as assert from 'node:assert/strict';
import { unbrokenRun } from '../bench/unbroken';
import { assistant, user, viewState } from './fixtures';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type HarnessPage, ROOT, frames } from './harness';
import { usePagePerTest } from './pageHooks';

const RUN = unbrokenRun(64 * 1024);
const PLACES: Record<string, string> = {
  paragraph: RUN,
  'code block': `\`\`\`\n${RUN}\n\`\`\``,
  'table cell': `| id | value |\n|---|---|\n| 1 | ${RUN} |`,
};

describe('unbroken runs (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest((page) => (hp = page));

  /**
   * How far anything of the answer sticks out sideways (px): the page, the transcript, the text of each
   * paragraph or cell (settled blocks are paint-contained, so text that sticks out is cut off rather than
   * scrollable), and each code block or table, which must scroll inside itself. Also what it shows and
   * how it wraps.
   */
  async function overflow(): Promise<{ sideways: number; shown: number; wrap: string }> {
    return hp.page.evaluate(() => {
      const over = (el: Element | null): number => (el ? el.scrollWidth - el.clientWidth : 0);
      const root = document.scrollingElement ?? document.documentElement;
      const answer = document.querySelector('.answer') as HTMLElement;
      const right = answer.getBoundingClientRect().right;
      const out = [over(root), over(document.querySelector('.transcript'))];
      for (const text of answer.querySelectorAll('p, td, th')) {
        const range = document.createRange();
        range.selectNodeContents(text);
        const box = text.closest('pre, table');
        const limit = box ? box.getBoundingClientRect().right : right;
        // Inside a box that scrolls, text may extend past the box; elsewhere it must fit.
        if (!box) out.push(range.getBoundingClientRect().right - limit);
      }
      for (const box of answer.querySelectorAll('pre, table')) {
        out.push(box.getBoundingClientRect().right - right);
        if (box.scrollWidth > box.clientWidth && !/auto|scroll/.test(getComputedStyle(box).overflowX))
          out.push(box.scrollWidth - box.clientWidth);
      }
      return {
        sideways: Math.max(0, ...out.map((n) => Math.round(n))),
        shown: answer.textContent?.length ?? 0,
        wrap: getComputedStyle(answer).overflowWrap,
      };
    });
  }

  /** The answer's fold buttons, its text, and for a code block what its Copy posts. */
  async function folded(): Promise<{ folds: string[]; shown: number; html: string }> {
    return hp.page.evaluate(() => {
      const answer = document.querySelector('.answer') as HTMLElement;
      return {
        folds: Array.from(answer.querySelectorAll('button.long-run-fold'), (b) => b.textContent ?? ''),
        shown: answer.textContent?.length ?? 0,
        // A streamed answer's older groups carry a class that lets them skip rendering off screen.
        html: answer.innerHTML.replace(/ md-skippable/g, ''),
      };
    });
  }

  for (const [where, text] of Object.entries(PLACES)) {
    it(`a 64 KB run in a ${where} shows folded, the same from history and streamed, without overflow; Show all shows the rest`, async () => {
      await hp.send({ type: 'state', state: viewState([user('blob'), assistant(text)]) });
      await frames(hp.page);
      const stored = await folded();
      const hidden = (RUN.length - 10_000).toLocaleString('en-US');
      assert.deepEqual(stored.folds, [`… ${hidden} more characters · Show all`]);
      assert.ok(stored.shown < 10_200, `shown ${stored.shown}`);
      assert.equal((await overflow()).sideways, 0);
      // A picture for review (asserts nothing): how the fold looks.
      mkdirSync(join(ROOT, 'test-results'), { recursive: true });
      await hp.page.screenshot({
        path: join(ROOT, 'test-results', `webview-long-run-${where.replace(' ', '-')}.png`),
      });

      const turn = assistant('', { status: 'streaming' });
      await hp.send({ type: 'state', state: viewState([user('blob'), turn], { busy: true }) });
      for (let at = 0; at < text.length; at += 4096)
        await hp.send({ type: 'delta', turnId: turn.id, text: text.slice(at, at + 4096) });
      await frames(hp.page);
      // While it streams, too, only the start of the run is laid out.
      assert.ok((await folded()).shown < 10_200);
      await hp.send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
      await frames(hp.page);
      const streamed = await folded();
      assert.equal(streamed.html, stored.html, 'the streamed answer folds exactly as the stored one');
      // `anywhere` also wraps it, but its cost grows with the square of the run in VS Code's Chromium.
      assert.equal((await overflow()).wrap, 'break-word');

      if (where === 'code block') {
        await hp.page.locator('.answer .code-block [data-code-action="copy"]').click();
        assert.deepEqual(
          (await hp.posted()).at(-1),
          { type: 'copy', text: RUN },
          'Copy takes the whole code',
        );
      }
      await hp.page.getByRole('button', { name: /more characters · Show all/ }).click();
      await frames(hp.page);
      const opened = await overflow();
      assert.ok(opened.shown >= RUN.length, `shown ${opened.shown}`);
      assert.equal(opened.sideways, 0);
      assert.equal((await folded()).folds.length, 0);
    });
  }

  it('a 1 MB run streamed in small chunks keeps only its start laid out, and keeps all of it', async () => {
    const big = unbrokenRun(1024 * 1024);
    const turn = assistant('', { status: 'streaming' });
    await hp.send({ type: 'state', state: viewState([user('blob'), turn], { busy: true }) });
    for (let at = 0; at < big.length; at += 16_384)
      await hp.send({
        type: 'delta',
        turnId: turn.id,
        text: `${at ? '' : 'Blob: '}${big.slice(at, at + 16_384)}`,
      });
    await hp.send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
    await frames(hp.page);
    const { folds, shown } = await folded();
    assert.deepEqual(folds, [
      `… ${(big.length - 10_000).toLocaleString('en-US')} more characters · Show all`,
    ]);
    assert.ok(shown < 10_300, `shown ${shown}`);
  });

  it('long prose in scripts without spaces, and base64 with its + and /, is never folded', async () => {
    const chinese = '这是一个很长的段落没有空格'.repeat(2000);
    const base64 = Buffer.from(unbrokenRun(40_000))
      .toString('base64')
      .replace(/[A-Z]{2}/g, '+/');
    for (const text of [chinese, base64]) {
      await hp.send({ type: 'state', state: viewState([user('long'), assistant(text)]) });
      await frames(hp.page);
      const { folds, shown } = await folded();
      assert.deepEqual(folds, []);
      assert.ok(shown >= text.length);
    }
  });

  it('minified code and an address-like run fold too (in the page, not before parsing), and come back whole', async () => {
    const minified = 'a=b.c(d,e);if(f){g[h]=i;}'.repeat(1000);
    const link = `https://example.com/${unbrokenRun(20_000)}`;
    const text = `\`\`\`\n${minified}\n\`\`\`\n\n${link}`;
    await hp.send({ type: 'state', state: viewState([user('min'), assistant(text)]) });
    await frames(hp.page);
    const { folds } = await folded();
    assert.equal(folds.length, 2, folds.join(' | '));
    await hp.page.locator('.answer .code-block [data-code-action="copy"]').click();
    assert.deepEqual((await hp.posted()).at(-1), { type: 'copy', text: minified });
    const foldButtons = hp.page.locator('.answer button.long-run-fold');
    for (let i = 0; i < 2 && (await foldButtons.count()) > 0; i++) await foldButtons.first().click();
    assert.equal(await foldButtons.count(), 0);
    const shown = await hp.page.evaluate(() => document.querySelector('.answer')?.textContent ?? '');
    assert.ok(
      shown.includes(link),
      'the address-like run comes back whole, and Show all did not follow its link',
    );
    // The link keeps its whole address; only its text was folded.
    assert.equal(await hp.page.locator('.answer a').first().getAttribute('href'), link);
  });
});
