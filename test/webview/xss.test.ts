// Hostile model output, streamed in random chunks through the real bundle, must never execute, load
// anything, or navigate; it must stay visible as text.
import * as assert from 'node:assert/strict';
import { assistant, randomChunks, user, viewState } from './fixtures';
import { type HarnessPage, frames } from './harness';
import { labelledAnswer, unshownVectors, visibleMarker, XSS_VECTORS } from './xssCorpus';
import { HARNESS_PATHS, MARKDOWN_TAGS } from './xssRules';
import { usePagePerTest } from './pageHooks';

describe('XSS corpus (Chromium, real bundle)', function () {
  let hp: HarnessPage;
  const harness = usePagePerTest((page) => (hp = page), { allowErrors: true });

  it(`has at least 60 vectors (${XSS_VECTORS.length})`, () => {
    assert.ok(XSS_VECTORS.length >= 60);
  });

  /** Pokes every rendered element the way a curious user would, then checks nothing ran or left the page. */
  async function assertInert(): Promise<void> {
    const { page } = hp;
    await frames(page, 3);
    const startUrl = page.url();
    await page.evaluate(() =>
      document.querySelectorAll('details').forEach((details) => (details.open = true)),
    );
    const links = await page.locator('.markdown a').all();
    for (const link of links) {
      await link.hover();
      await link.click({ modifiers: [] });
      await link.click({ button: 'middle' });
    }
    await page.evaluate(() => {
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('.markdown *'))) {
        el.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
        el.focus?.();
      }
    });
    await page.waitForTimeout(300);
    assert.equal(page.url(), startUrl, 'the page navigated');
    const report = await page.evaluate(
      ({ tags }) => {
        const badElements: string[] = [];
        const badAttributes: string[] = [];
        const badLinks: string[] = [];
        for (const el of Array.from(document.querySelectorAll('.markdown *'))) {
          if (!tags.includes(el.tagName)) badElements.push(el.tagName);
          for (const attr of Array.from(el.attributes)) {
            if (/^on/i.test(attr.name) || attr.name === 'style' || attr.name === 'src')
              badAttributes.push(`${el.tagName} ${attr.name}`);
          }
          const href = el.getAttribute('href');
          if (href !== null && !/^(https?:\/\/|mailto:)/i.test(href)) badLinks.push(href);
        }
        return {
          xss: window.__xssCount,
          violations: window.__violations,
          badElements,
          badAttributes,
          badLinks,
        };
      },
      { tags: [...MARKDOWN_TAGS] },
    );
    assert.equal(report.xss, 0, 'a vector executed');
    assert.deepEqual(report.violations, [], 'something tried to run or load and was stopped by the CSP');
    assert.deepEqual(report.badElements, []);
    assert.deepEqual(report.badAttributes, []);
    assert.deepEqual(report.badLinks, []);
    const foreign = hp.requests.filter(
      (url) => !url.startsWith(harness.origin + '/') || !HARNESS_PATHS.has(new URL(url).pathname),
    );
    assert.deepEqual(foreign, [], 'requests left the harness');
    const opened = (await hp.posted()).filter((message) => message.type === 'openLink');
    for (const message of opened)
      assert.match(message.type === 'openLink' ? message.href : '', /^(https?:\/\/|mailto:)/i);
    assert.deepEqual(hp.errors, []);
  }

  for (const seed of [1, 2, 3]) {
    it(`streamed as answer and reasoning in random chunks (seed ${seed}) stays inert and visible as text`, async () => {
      const labelled = XSS_VECTORS.map((vector, index) => ({ vector, index }));
      const answer = labelledAnswer(labelled);
      const turn = assistant('', { status: 'streaming' });
      await hp.send({ type: 'state', state: viewState([user('Show me tricks'), turn], { busy: true }) });
      const chunks = randomChunks(answer, seed, 16);
      const reasoning = randomChunks(
        XSS_VECTORS.slice(0, 20)
          .map((v) => v.markdown)
          .join('\n\n'),
        seed + 7,
        16,
      );
      await hp.page.evaluate(
        async ({ id, chunks, reasoning }) => {
          const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
          for (const [i, text] of reasoning.entries()) {
            window.postMessage({ type: 'delta', turnId: id, reasoning: text }, '*');
            if (i % 7 === 0) await frame();
          }
          for (const [i, text] of chunks.entries()) {
            window.postMessage({ type: 'delta', turnId: id, text }, '*');
            if (i % 5 === 0) await frame();
          }
        },
        { id: turn.id, chunks, reasoning },
      );
      await frames(hp.page, 2);
      await hp.send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
      await frames(hp.page, 2);
      const text = await hp.page.locator('.answer').textContent();
      // Each vector on its own: its label, then its own marker before the next label.
      assert.deepEqual(unshownVectors(labelled, text ?? ''), []);
      // Dangerous constructs are shown literally, not dropped.
      assert.ok(text?.includes('<script>__xss()</script>'));
      assert.ok(text?.includes('[x](javascript:__xss())'));
      await assertInert();
    });
  }

  it('every vector as its own turn, in user text, quotes, errors, titles and model names stays inert', async () => {
    const turns = XSS_VECTORS.flatMap((vector, i) => [
      user(
        vector.markdown,
        i % 10 === 0
          ? {
              quote: {
                code: vector.markdown,
                language: '"><img src=x onerror=__xss()>',
                fileName: vector.markdown,
                startLine: 1,
              },
            }
          : {},
      ),
      assistant(vector.markdown, {
        model: i % 10 === 0 ? '<img src=x onerror=__xss()>' : 'alpha',
        status: i % 7 === 0 ? 'error' : 'complete',
        error: { message: vector.markdown, requestId: '<script>__xss()</script>', action: 'setApiKey' },
      }),
    ]);
    const hostile = '<img src=x onerror=__xss()>';
    await hp.send({
      type: 'state',
      state: viewState(turns, {
        models: [{ id: hostile, label: hostile, thinking: true, extra: true }],
        history: [{ id: hostile, title: hostile, model: hostile, updatedAt: Date.now(), turnCount: 2 }],
      }),
    });
    await frames(hp.page, 2);
    // Every turn is rendered (older ones load as the top comes near): scroll to the top repeatedly.
    for (let i = 0; i < 10; i++) {
      await hp.page.evaluate(() => document.querySelector('.transcript')?.scrollTo(0, 0));
      await frames(hp.page, 2);
    }
    assert.equal(await hp.page.locator('article').count(), turns.length);
    const texts = await hp.page.locator('article').allTextContents();
    texts.forEach((text, i) => {
      const marker = visibleMarker(XSS_VECTORS[Math.floor(i / 2)]);
      if (marker) assert.ok(text.includes(marker), `turn ${i} lost its hostile text: ${text}`);
    });
    await hp.page.getByRole('button', { name: 'History', exact: true }).click();
    assert.ok((await hp.page.locator('.history').textContent())?.includes(hostile));
    await hp.page.keyboard.press('Escape');
    await assertInert();
  });
});
