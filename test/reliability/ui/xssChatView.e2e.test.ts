// §2 Hostile model output in the real editor: a seeded sample of the corpus (every category) is sent in the
// real chat view, echoed back by the emulator as the model's streamed answer, and rendered by the real
// webview under the CSP the host sets. Nothing runs, nothing leaves the webview, everything shows as text.
import * as assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { runCommand } from '../../harness/browser';
import { e2e } from '../../harness/e2eFixture';
import { articles, emulator, openChat, send, until } from '../../e2e/chatHelpers';
import { labelledAnswer, unshownVectors } from '../../webview/xssCorpus';
import { hostileCorpus, type HostileVector } from '../webview/xssCorpus';
import { runSeed, startCanary } from '../webview/xssPage';
import { seededRandom } from '../../support/seededRandom';
import { chatDocument, ensureFixtureGateway, installTripwire, tripwire } from './xssFrame';
import { untilAnsweredSince } from '../../support/emulatorRequests';

const PER_CATEGORY = 6;
/** With the [[echo]] marker, the emulator echoes the first 200 characters of the rest of the message. */
const ECHOED = 200;
const MARKER = '[[echo]]';
const HEAD = 'v\n\n';

type Labelled = { vector: HostileVector; index: number };

/**
 * A seeded sample with every category, packed into messages the emulator echoes whole; each vector is
 * numbered, and its label is echoed before it.
 */
function sampleMessages(corpus: HostileVector[], seed: number): Labelled[][] {
  const random = seededRandom(seed);
  const size = (list: Labelled[]): number => HEAD.length + labelledAnswer(list).length;
  const fits = corpus.filter((v) => size([{ vector: v, index: 0 }]) <= ECHOED && !v.markdown.includes('\0'));
  const picked = [...new Set(fits.map((v) => v.category))].flatMap((category) =>
    fits
      .filter((v) => v.category === category)
      .map((v) => ({ v, r: random() }))
      .sort((a, b) => a.r - b.r)
      .slice(0, PER_CATEGORY)
      .map(({ v }) => v),
  );
  const messages: Labelled[][] = [];
  for (const [index, vector] of picked.entries()) {
    const last = messages.at(-1);
    if (last && size([...last, { vector, index }]) <= ECHOED) last.push({ vector, index });
    else messages.push([{ vector, index }]);
  }
  return messages;
}

describe('Hostile model output in the real chat view (code-server, emulator)', function () {
  this.timeout(300_000);

  it('a seeded sample of every category, streamed as answers, runs nothing, loads nothing, shows as text', async () => {
    await ensureFixtureGateway();
    const { page } = e2e();
    const seed = runSeed();
    const canary = await startCanary();
    try {
      const messages = sampleMessages(hostileCorpus(canary.origin), seed);
      const count = messages.flat().length;
      console.log(`      seed ${seed}: ${count} vectors in ${messages.length} messages`);
      const frame = await openChat(page);
      await runCommand(page, 'Model Gateway: New Chat');
      const doc = await chatDocument(page);
      await installTripwire(doc);
      // Controls: the tripwire counts, and the host's CSP is in force and reports what it blocks.
      const control = await doc.evaluate(async (origin) => {
        (window as unknown as { __xss: () => void }).__xss();
        new Image().src = `${origin}/control.png`;
        await new Promise((resolve) => setTimeout(resolve, 300));
        return document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content');
      }, canary.origin);
      assert.match(String(control), /default-src 'none'.*connect-src 'none'/);
      const probed = await tripwire(doc);
      assert.equal(probed.xss, 1);
      assert.ok(
        probed.violations.some((v) => v.startsWith('img-src')),
        probed.violations.join(', '),
      );
      assert.deepEqual(canary.hits, []);
      await installTripwire(doc);
      const leaving: string[] = [];
      const onRequest = (request: Request): void => {
        const url = request.url();
        const fromChat = request.frame() === doc;
        if (
          url.includes('evil.invalid') ||
          url.startsWith(canary.origin) ||
          (fromChat && !url.startsWith(e2e().server.url))
        )
          leaving.push(url);
      };
      page.on('request', onRequest);
      try {
        for (const [i, vectors] of messages.entries()) {
          const before = emulator().requests.length;
          await send(frame, MARKER + HEAD + labelledAnswer(vectors));
          await untilAnsweredSince(emulator(), before, 60_000, `answer ${i}`);
          // This chat's i-th answer, read once it has ended (the usage line comes with the end of the stream):
          // `.last()` could still be the previous answer while this one's first chunk is on its way.
          const answer = articles(frame, /^Assistant /).nth(i);
          await until(
            async () => {
              if ((await answer.count()) === 0) return false;
              const text = await answer.innerText();
              return text.includes('Echo: v') && /total \d+ tokens/.test(text);
            },
            20_000,
            `the end of answer ${i}`,
          );
          const shown = await answer.innerText();
          // Each vector on its own: its label, then its own marker before the next one's label.
          assert.deepEqual(unshownVectors(vectors, shown), [], `answer ${i}`);
        }
        // Hover and click every link the answers rendered.
        const links = await frame.locator('.markdown a').all();
        for (const link of links.slice(0, 20)) await link.hover({ timeout: 5000 }).catch(() => undefined);
        await page.waitForTimeout(500);
        const seen = await tripwire(doc);
        assert.equal(seen.xss, 0, 'a vector executed');
        assert.deepEqual(seen.violations, [], 'the CSP had to stop something');
        assert.deepEqual(leaving, [], 'requests left the webview');
        assert.deepEqual(canary.hits, [], 'the canary was reached');
        const live = await doc.evaluate(
          () =>
            document.querySelectorAll(
              'article script, article iframe, article img, article svg, article math, article object, article embed, article style, article [onerror], article [onload], article [style]',
            ).length,
        );
        assert.equal(live, 0, 'live hostile elements in the transcript');
      } finally {
        page.off('request', onRequest);
      }
    } finally {
      await canary.close();
    }
  });
});
