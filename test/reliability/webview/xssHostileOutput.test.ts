// §2 Hostile model output: the whole corpus, streamed in seeded random chunks as answer and reasoning
// through the real webview bundle under the host's real CSP, runs nothing, loads nothing, navigates
// nowhere and stays visible as text.
import * as assert from 'node:assert/strict';
import { assistant, randomChunks, user, viewState } from '../../webview/fixtures';
import { frames, type HarnessPage, scrollUntilTurns } from '../../webview/harness';
import { useHarness } from '../../webview/pageHooks';
import { labelledAnswer, unshownVectors, visibleMarker } from '../../webview/xssCorpus';
import { hostileCorpus, type HostileVector } from './xssCorpus';
import { type Canary, openWithHostCsp, runSeed, startCanary } from './xssPage';
import { seededRandom } from '../../support/seededRandom';
import { HARNESS_PATHS, MARKDOWN_TAGS } from '../../webview/xssRules';

/** Bidi controls, zero-width characters and C0 controls: must never sit raw in an href. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const INVISIBLE = /[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

describe('Hostile model output (real bundle, host CSP, Chromium)', function () {
  this.timeout(120_000);
  const seed = runSeed();
  const harness = useHarness();
  let canary: Canary;
  let corpus: HostileVector[];
  let hp: HarnessPage;
  let csp: string;

  before(async () => {
    canary = await startCanary();
    corpus = hostileCorpus(canary.origin);
    console.log(`      seed ${seed} (replay with RELIABILITY_SEED=${seed}); ${corpus.length} vectors`);
  });
  after(async () => {
    await canary?.close();
  });
  beforeEach(async () => {
    ({ hp, csp } = await openWithHostCsp(harness));
    canary.hits.length = 0;
  });
  afterEach(() => harness.close(hp, { allowErrors: true }));

  it('has at least 150 vectors in every required category', () => {
    assert.ok(corpus.length >= 150, `${corpus.length} vectors`);
    const counts = new Map<string, number>();
    for (const v of corpus) counts.set(v.category, (counts.get(v.category) ?? 0) + 1);
    for (const category of [
      'script',
      'event-handler',
      'javascript-url',
      'data-url',
      'svg-mathml',
      'iframe-object',
      'css',
      'markdown-trick',
      'bidi-zero-width',
    ])
      assert.ok((counts.get(category) ?? 0) >= 10, `${category}: ${counts.get(category) ?? 0}`);
    for (const v of corpus) assert.ok(visibleMarker(v) !== undefined || v.shows === null, v.markdown);
  });

  it('the probes work: the tripwire counts, the CSP blocks and reports, the canary hears', async () => {
    assert.match(csp, /default-src 'none'/);
    const seen = await hp.page.evaluate(async (origin) => {
      window.__xss();
      const image = new Image();
      image.src = `${origin}/probe.png`;
      await fetch(`${origin}/probe`).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { xss: window.__xssCount, violations: window.__violations };
    }, canary.origin);
    assert.equal(seen.xss, 1);
    assert.ok(
      seen.violations.some((v) => v.startsWith('img-src')) &&
        seen.violations.some((v) => v.startsWith('connect-src')),
      seen.violations.join(', '),
    );
    assert.deepEqual(canary.hits, [], 'the CSP stopped both requests before they left');
    // Outside the page's CSP, the canary does hear requests.
    await fetch(`${canary.origin}/control`);
    assert.deepEqual(canary.hits, ['GET /control']);
  });

  for (const offset of [0, 1]) {
    it(`streamed as answer and reasoning in seeded random chunks (seed ${seed}+${offset})`, async () => {
      const labelled = corpus.map((vector, index) => ({ vector, index }));
      const text = labelledAnswer(labelled);
      const chunkSeed = seed + offset;
      const random = seededRandom(chunkSeed);
      const maxChunk = 1 + Math.floor(random() * 40);
      const answer = randomChunks(text, chunkSeed, maxChunk);
      const reasoning = randomChunks(text, chunkSeed * 31 + 7, maxChunk);
      const turn = assistant('', { status: 'streaming' });
      await hp.send({ type: 'state', state: viewState([user('Show me tricks'), turn], { busy: true }) });
      await hp.page.evaluate(
        async ({ id, answer, reasoning }) => {
          const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
          for (const [i, piece] of reasoning.entries()) {
            window.postMessage({ type: 'delta', turnId: id, reasoning: piece }, '*');
            if (i % 9 === 0) await frame();
          }
          for (const [i, piece] of answer.entries()) {
            window.postMessage({ type: 'delta', turnId: id, text: piece }, '*');
            if (i % 7 === 0) await frame();
          }
        },
        { id: turn.id, answer, reasoning },
      );
      await frames(hp.page, 2);
      await hp.send({ type: 'turnFinished', turnId: turn.id, status: 'complete' });
      await frames(hp.page, 2);
      const shown = (await hp.page.locator('.answer').textContent()) ?? '';
      // Each vector on its own: its label, then its own marker before the next vector's label.
      assert.deepEqual(
        unshownVectors(labelled, shown),
        [],
        `not shown as text (${answer.length} chunks of ≤ ${maxChunk})`,
      );
      assert.ok(shown.includes('<script>window.__xss()</script>'), 'raw HTML is shown literally');
      await assertInert();
    });
  }

  it('each vector as its own turn (user text, answer, quoted code, error) stays inert and visible', async () => {
    const turns = corpus.flatMap((v, i) => [
      user(
        v.markdown,
        i % 5 === 0
          ? { quote: { code: v.markdown, language: v.markdown, fileName: v.markdown, startLine: 1 } }
          : {},
      ),
      assistant(v.markdown, {
        status: i % 9 === 0 ? 'error' : 'complete',
        error: { message: v.markdown, action: 'dropOldestTurns' },
      }),
    ]);
    await hp.send({ type: 'state', state: viewState(turns) });
    await frames(hp.page, 2);
    await scrollUntilTurns(hp.page, turns.length);
    const texts = await hp.page.locator('article').allTextContents();
    assert.equal(texts.length, turns.length);
    const lost = texts.flatMap((text, i) => {
      const marker = visibleMarker(corpus[Math.floor(i / 2)]);
      return marker && !text.includes(marker) ? [`turn ${i}: ${corpus[Math.floor(i / 2)].markdown}`] : [];
    });
    assert.deepEqual(lost, []);
    await assertInert();
  });

  /** Pokes every rendered element as a curious user would, then checks nothing ran, loaded or navigated. */
  async function assertInert(): Promise<void> {
    const { page } = hp;
    const startUrl = page.url();
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    const links = await page.locator('.markdown a').all();
    for (const link of links.slice(0, 30)) {
      await link.click({ timeout: 5000 });
      await link.click({ button: 'middle', timeout: 5000 });
    }
    await page.evaluate(() => {
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('.markdown *, article *'))) {
        for (const type of ['mouseover', 'pointerenter', 'click', 'focus', 'animationstart'])
          el.dispatchEvent(new Event(type, { bubbles: true }));
      }
    });
    await page.waitForTimeout(400);
    assert.equal(page.url(), startUrl, 'the page navigated');
    const report = await page.evaluate(
      ({ tags, invisible }) => {
        const bad: string[] = [];
        const pattern = new RegExp(invisible);
        for (const el of Array.from(document.querySelectorAll('.markdown *')))
          if (!tags.includes(el.tagName)) bad.push(`element ${el.tagName}`);
        for (const el of Array.from(document.querySelectorAll('article *'))) {
          for (const attr of Array.from(el.attributes)) {
            if (/^(on|style$|src$|srcdoc$|action$|formaction$|background$|xlink)/i.test(attr.name))
              bad.push(`${el.tagName} ${attr.name}`);
          }
          const href = el.getAttribute('href');
          if (href !== null && !/^(https?:\/\/|mailto:)/i.test(href))
            bad.push(`href ${el.outerHTML.slice(0, 200)}`);
          if (href !== null && pattern.test(href))
            bad.push(
              `invisible character in href ${Array.from(href, (c) => (c.charCodeAt(0) > 126 || c.charCodeAt(0) < 32 ? `\\u${c.charCodeAt(0).toString(16)}` : c)).join('')}`,
            );
        }
        return { xss: window.__xssCount, violations: window.__violations, bad };
      },
      { tags: [...MARKDOWN_TAGS], invisible: INVISIBLE.source },
    );
    assert.equal(report.xss, 0, 'a vector executed');
    assert.deepEqual(report.violations, [], 'the CSP had to stop something');
    assert.deepEqual(report.bad, []);
    const foreign = hp.requests.filter(
      (url) => !url.startsWith(`${harness.origin}/`) || !HARNESS_PATHS.has(new URL(url).pathname),
    );
    assert.deepEqual(foreign, [], 'requests left the webview');
    assert.deepEqual(canary.hits, [], 'the canary was reached');
    for (const message of await hp.posted())
      if (message.type === 'openLink') assert.match(message.href, /^(https?:\/\/|mailto:)/i);
    assert.deepEqual(hp.errors, []);
  }
});
