// A 400-turn (~800 KB) conversation opens at its end with the composer usable; older turns load on demand.
import * as assert from 'node:assert/strict';
import { longConversation, viewState } from './fixtures';
import { frames, scrollUntilTurns } from './harness';
import { useSharedPage } from './pageHooks';

describe('long history (Chromium, real bundle)', function () {
  const shared = useSharedPage();

  it('shows the last messages and accepts input; loads older turns when scrolled to the top', async () => {
    const { page } = shared.hp;
    const state = viewState(longConversation(200));
    assert.equal(state.conversation.turns.length, 400);
    const size = JSON.stringify(state).length;
    assert.ok(size > 750_000, `state is ${size} bytes`);

    const elapsed = await page.evaluate(async (s) => {
      const start = performance.now();
      window.postMessage({ type: 'state', state: s }, '*');
      await new Promise((resolve) => setTimeout(resolve, 0));
      await new Promise((resolve) => requestAnimationFrame(resolve));
      return performance.now() - start;
    }, state);
    // Informational only; timing is asserted by the benchmarks, not here.
    console.log(`      400-turn state rendered in ${elapsed.toFixed(0)} ms (${(size / 1024).toFixed(0)} KB)`);

    const lastId = state.conversation.turns[399].id;
    const lastArticle = page.locator(`article[data-turn-id="${lastId}"]`);
    await lastArticle.waitFor();
    const visible = await page.evaluate((id) => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      const article = document.querySelector(`article[data-turn-id="${id}"]`) as HTMLElement;
      const a = article.getBoundingClientRect();
      const s = scroller.getBoundingClientRect();
      return a.bottom > s.top && a.top < s.bottom;
    }, lastId);
    assert.ok(visible, 'the last turn is in view');
    assert.ok((await page.locator('article').count()) < 400, 'not every turn is built up front');

    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('Another question');
    await box.press('Enter');
    assert.deepEqual((await shared.hp.posted()).at(-1), { type: 'send', text: 'Another question' });

    await scrollUntilTurns(page, 400, 30_000);
    assert.equal(await page.locator('article').count(), 400);
    assert.equal(
      await page.locator('article').first().getAttribute('data-turn-id'),
      state.conversation.turns[0].id,
    );
  });

  it('keeps the reader in place while older turns are inserted above', async () => {
    const { page } = shared.hp;
    const state = viewState(longConversation(100));
    state.conversation.id = 'c2';
    await shared.hp.send({ type: 'state', state });
    await frames(page, 3);
    // The reader scrolls up (that stops following), then far up towards the top.
    const box = await page.locator('.transcript').boundingBox();
    await page.mouse.move((box?.x ?? 0) + 100, (box?.y ?? 0) + 100);
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(200);
    const before = await page.evaluate(() => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      // Near the top, inside the margin where the next batch of older turns is built.
      scroller.scrollTop = 700;
      const top = scroller.getBoundingClientRect().top;
      const first = Array.from(document.querySelectorAll('article')).find(
        (a) => a.getBoundingClientRect().bottom > top + 50,
      );
      return {
        count: document.querySelectorAll('article').length,
        id: first?.getAttribute('data-turn-id'),
        offset: (first?.getBoundingClientRect().top ?? 0) - top,
      };
    });
    await frames(page, 6);
    const after = await page.evaluate((id) => {
      const scroller = document.querySelector('.transcript') as HTMLElement;
      const article = document.querySelector(`article[data-turn-id="${id}"]`) as HTMLElement;
      return {
        count: document.querySelectorAll('article').length,
        offset: article.getBoundingClientRect().top - scroller.getBoundingClientRect().top,
      };
    }, before.id);
    assert.ok(after.count > before.count, 'older turns were loaded');
    assert.ok(Math.abs(after.offset - before.offset) < 2, `moved from ${before.offset} to ${after.offset}`);
  });
});
