// A 64 KB answer that is one unbroken run (base64, a hash, minified code) stays inside the view, as a
// paragraph, in a code block and in a table cell, streamed and from history (issue 15, item 7). Timing is
// the benchmark's job (npm run bench -- --only=6).
import * as assert from 'node:assert/strict';
import { unbrokenRun } from '../bench/unbroken';
import { assistant, user, viewState } from './fixtures';
import { type HarnessPage, frames } from './harness';
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

  for (const [where, text] of Object.entries(PLACES)) {
    it(`a 64 KB run in a ${where} does not overflow the view, from history and streamed`, async () => {
      await hp.send({ type: 'state', state: viewState([user('blob'), assistant(text)]) });
      await frames(hp.page);
      const stored = await overflow();
      assert.ok(stored.shown >= RUN.length, `shown ${stored.shown}`);
      assert.equal(stored.sideways, 0);

      const turn = assistant('', { status: 'streaming' });
      await hp.send({ type: 'state', state: viewState([user('blob'), turn], { busy: true }) });
      for (let at = 0; at < text.length; at += 4096)
        await hp.send({ type: 'delta', turnId: turn.id, text: text.slice(at, at + 4096) });
      await hp.send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
      await frames(hp.page);
      const streamed = await overflow();
      assert.ok(streamed.shown >= RUN.length, `shown ${streamed.shown}`);
      assert.equal(streamed.sideways, 0);
      // `anywhere` also wraps it, but its cost grows with the square of the run in VS Code's Chromium.
      assert.equal(streamed.wrap, 'break-word');
    });
  }
});
