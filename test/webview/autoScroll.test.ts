// Auto-scroll follows the stream only while the reader is at the bottom, and never fights them.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { assistant, user, viewState } from './fixtures';
import { type HarnessPage, frames } from './harness';
import { usePagePerTest } from './pageHooks';

describe('auto-scroll (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  usePagePerTest((page) => (hp = page), { page: { height: 600 } });

  const metrics = (page: Page): Promise<{ top: number; fromBottom: number }> =>
    page.evaluate(() => {
      const el = document.querySelector('.transcript') as HTMLElement;
      return { top: el.scrollTop, fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight };
    });

  async function stream(turnId: string, lines: number, from = 0): Promise<void> {
    for (let i = from; i < from + lines; i++) {
      await hp.send({
        type: 'delta',
        turnId,
        text: `Line ${i} of the answer, with enough words to wrap a little.\n\n`,
      });
      if (i % 3 === 0) await frames(hp.page, 1);
    }
    await frames(hp.page, 3);
  }

  async function wheelOverTranscript(deltaY: number): Promise<void> {
    const box = await hp.page.locator('.transcript').boundingBox();
    if (!box) throw new Error('transcript not visible');
    await hp.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await hp.page.mouse.wheel(0, deltaY);
    await hp.page.waitForTimeout(200);
    await frames(hp.page, 2);
  }

  it('follows the stream, stops when the reader scrolls up, resumes at the bottom, and Jump to latest works', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming' });
    await hp.send({ type: 'state', state: viewState([user('Tell me a long story'), turn], { busy: true }) });
    const jump = page.getByRole('button', { name: 'Jump to latest', exact: true });

    await stream(turn.id, 40);
    assert.ok((await metrics(page)).top > 0, 'content overflows');
    assert.ok((await metrics(page)).fromBottom <= 1, 'follows while streaming');
    assert.equal(await jump.isVisible(), false);

    await wheelOverTranscript(-400);
    const afterWheel = await metrics(page);
    assert.ok(afterWheel.fromBottom > 100, 'the wheel moved the view up');
    await stream(turn.id, 20, 40);
    const stillThere = await metrics(page);
    assert.equal(stillThere.top, afterWheel.top, 'new chunks do not move the view');
    assert.ok(stillThere.fromBottom > afterWheel.fromBottom, 'content kept arriving below');
    assert.equal(await jump.isVisible(), true);

    await wheelOverTranscript(100_000);
    assert.ok((await metrics(page)).fromBottom <= 30);
    await stream(turn.id, 10, 60);
    assert.ok((await metrics(page)).fromBottom <= 1, 'following resumed at the bottom');
    assert.equal(await jump.isVisible(), false);

    await wheelOverTranscript(-600);
    assert.equal(await jump.isVisible(), true);
    await jump.click();
    await frames(page, 2);
    assert.ok((await metrics(page)).fromBottom <= 1);
    await stream(turn.id, 10, 70);
    assert.ok((await metrics(page)).fromBottom <= 1, 'follows again after Jump to latest');
    assert.equal(await jump.isVisible(), false);
  });

  it('layout shifts and programmatic scrolls are not taken for the reader scrolling away', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming' });
    await hp.send({ type: 'state', state: viewState([user('Think, then answer')], { busy: true }) });
    await hp.send({ type: 'turnsAdded', turns: [turn] });
    for (let i = 0; i < 40; i++)
      await hp.send({ type: 'delta', turnId: turn.id, reasoning: `Reasoning step ${i}.\n\n` });
    await frames(page, 3);
    assert.ok((await metrics(page)).fromBottom <= 1);
    // The answer starts: the tall thinking section collapses, the page shrinks and scrollTop is clamped.
    await stream(turn.id, 3);
    assert.equal(
      await page.locator('details.thinking').evaluate((el) => (el as HTMLDetailsElement).open),
      false,
    );
    await stream(turn.id, 30, 3);
    assert.ok((await metrics(page)).fromBottom <= 1, 'still following');
    assert.equal(await page.getByRole('button', { name: 'Jump to latest' }).isVisible(), false);
  });

  it('keyboard scrolling up (PageUp) also stops following', async () => {
    const { page } = hp;
    const turn = assistant('', { status: 'streaming' });
    await hp.send({ type: 'state', state: viewState([user('Q'), turn], { busy: true }) });
    await stream(turn.id, 40);
    await page.locator('.transcript').focus();
    await page.keyboard.press('PageUp');
    await page.waitForTimeout(300);
    const before = await metrics(page);
    assert.ok(before.fromBottom > 30);
    await stream(turn.id, 10, 40);
    assert.equal((await metrics(page)).top, before.top);
  });
});
