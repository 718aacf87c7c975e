// The incremental renderer must produce exactly the DOM of a whole-text render, whatever the chunking,
// and must keep per-frame work bounded (the unsettled tail stays small).
import * as assert from 'node:assert/strict';
import { DOCUMENTS } from './documents';
import { randomChunks } from './fixtures';
import { useRenderPage } from './pageHooks';

describe('stream renderer (Chromium)', function () {
  const hp = useRenderPage();

  for (const [name, doc] of Object.entries(DOCUMENTS)) {
    it(`"${name}": a split at every boundary equals the whole render`, async () => {
      const result = await hp.page.evaluate((text) => {
        const { StreamRenderer, renderMarkdownOnce } = window.__md;
        // A streamed answer's older groups carry a class that lets them skip rendering off screen.
        const unmarked = (el: HTMLElement): string => el.innerHTML.replace(/ md-skippable/g, '');
        const whole = document.createElement('div');
        renderMarkdownOnce(whole, text);
        const failures: number[] = [];
        for (let i = 0; i <= text.length; i++) {
          const el = document.createElement('div');
          const renderer = new StreamRenderer(el);
          renderer.append(text.slice(0, i));
          renderer.flush();
          renderer.append(text.slice(i));
          renderer.finish();
          if (unmarked(el) !== whole.innerHTML) failures.push(i);
        }
        return { failures, html: whole.innerHTML };
      }, doc);
      assert.deepEqual(result.failures, [], `boundaries that differ: ${result.failures.join(', ')}`);
      assert.ok(result.html.length > 0);
    });

    it(`"${name}": one character per frame, and random chunkings, equal the whole render`, async () => {
      const chunkings = [
        Array.from(doc),
        ...Array.from({ length: 40 }, (_, seed) => randomChunks(doc, seed + 1)),
      ];
      const failures = await hp.page.evaluate(
        ({ text, chunkings }) => {
          const { StreamRenderer, renderMarkdownOnce } = window.__md;
          // A streamed answer's older groups carry a class that lets them skip rendering off screen.
          const unmarked = (el: HTMLElement): string => el.innerHTML.replace(/ md-skippable/g, '');
          const whole = document.createElement('div');
          renderMarkdownOnce(whole, text);
          const bad: string[] = [];
          chunkings.forEach((chunks, index) => {
            const el = document.createElement('div');
            const renderer = new StreamRenderer(el);
            chunks.forEach((chunk, i) => {
              renderer.append(chunk);
              // Vary whether a frame ran between chunks, as rAF batching does.
              if ((i + index) % 3 !== 0) renderer.flush();
            });
            renderer.finish();
            if (renderer.text !== text.replace(/\r\n?/g, '\n')) bad.push(`${index}: text differs`);
            if (unmarked(el) !== whole.innerHTML) bad.push(`${index}: html differs`);
          });
          return bad;
        },
        { text: doc, chunkings },
      );
      assert.deepEqual(failures, []);
    });
  }

  for (const name of ['prose', 'inline', 'links', 'lists', 'mixed', 'headings', 'table', 'tables']) {
    it(`"${name}": while streaming, every frame shows what a fresh render of the text so far shows`, async () => {
      const failures = await hp.page.evaluate((text) => {
        const { StreamRenderer } = window.__md;
        // Highlighting of an open fence is throttled by time; compare its text, not its colouring.
        const shown = (el: HTMLElement): string =>
          el.innerHTML.replace(/<span class="hljs-[^"]*">|<\/span>/g, '');
        const streamed = document.createElement('div');
        const renderer = new StreamRenderer(streamed);
        const bad: string[] = [];
        for (let i = 1; i <= text.length; i++) {
          renderer.append(text[i - 1]);
          renderer.flush();
          const fresh = document.createElement('div');
          const reference = new StreamRenderer(fresh);
          reference.append(text.slice(0, i));
          reference.flush();
          if (shown(streamed) !== shown(fresh))
            bad.push(`after ${JSON.stringify(text.slice(0, i).slice(-20))}`);
        }
        return bad;
      }, DOCUMENTS[name]);
      assert.deepEqual(failures.slice(0, 5), []);
    });
  }

  it('settles blocks as they complete: the unsettled tail stays small on a long answer', async () => {
    const stats = await hp.page.evaluate(() => {
      const { StreamRenderer } = window.__md;
      const el = document.createElement('div');
      document.body.append(el);
      const renderer = new StreamRenderer(el);
      const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6) + '\n\n';
      const code = '```ts\n' + 'const value = compute(1, 2, 3); // comment\n'.repeat(3000) + '```\n\n';
      const answer = paragraph.repeat(400) + code + paragraph.repeat(50);
      let maxPending = 0;
      let maxTail = 0;
      for (let i = 0; i < answer.length; i += 37) {
        renderer.append(answer.slice(i, i + 37));
        renderer.flush();
        // Private fields are plain properties at runtime; reading them is the point of this test.
        const internals = renderer as unknown as { pending: string; tail: HTMLElement };
        maxPending = Math.max(maxPending, internals.pending.length);
        maxTail = Math.max(maxTail, internals.tail.textContent?.length ?? 0);
      }
      renderer.finish();
      el.remove();
      return {
        maxPending,
        maxTail,
        length: answer.length,
        blocks: el.querySelectorAll(':scope > .md-group > *').length,
      };
    });
    assert.ok(stats.length > 250_000);
    // Parsing and re-rendering only ever touch the open paragraph or the current code line.
    assert.ok(stats.maxPending < 1000, `pending reached ${stats.maxPending}`);
    assert.ok(stats.blocks >= 451, `blocks: ${stats.blocks}`);
  });

  it('shows an open code fence live and highlights it once closed', async () => {
    const result = await hp.page.evaluate(async () => {
      const { StreamRenderer } = window.__md;
      const el = document.createElement('div');
      document.body.append(el);
      const renderer = new StreamRenderer(el);
      renderer.append('Intro\n\n```js\nconst x = 1;\nconst y');
      renderer.flush();
      const live = el.querySelector('.code-block.live pre')?.textContent;
      const liveToolbar = el.querySelectorAll('.code-block.live .code-actions button').length;
      renderer.append(' = 2;\n```\nafter');
      renderer.flush();
      const closed = {
        live: el.querySelectorAll('.code-block.live').length,
        keywords: el.querySelectorAll('.hljs-keyword').length,
      };
      renderer.finish();
      el.remove();
      return { live, liveToolbar, closed, html: el.innerHTML };
    });
    assert.equal(result.live, 'const x = 1;\nconst y');
    assert.equal(result.liveToolbar, 5);
    assert.deepEqual(result.closed, { live: 0, keywords: 2 });
  });

  it('renders asynchronously once per animation frame', async () => {
    const result = await hp.page.evaluate(async () => {
      const { StreamRenderer } = window.__md;
      const el = document.createElement('div');
      const renderer = new StreamRenderer(el);
      for (const chunk of ['# He', 'llo\n\nwor', 'ld\n']) renderer.append(chunk);
      const before = el.textContent;
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return { before, after: el.innerHTML };
    });
    assert.equal(result.before, '');
    assert.equal(
      result.after,
      '<div class="md-group"><h1>Hello</h1></div><div class="md-tail"><p>world</p></div>',
    );
  });

  it('an expensive open block is refreshed less often, but waits at most 150 ms for it', async () => {
    // A 6,000-row table left open: its render takes long enough that the cost-based wait alone (12× the
    // render) would hold the next update back for seconds, and the text arriving meanwhile would pile up.
    const rows = Array.from({ length: 6000 }, (_, i) => `| row ${i} | **${i * 7}** | \`v${i}\` |`);
    const table = `| name | value | code |\n|---|---|---|\n${rows.join('\n')}`;
    const result = await hp.page.evaluate(async (table) => {
      const { StreamRenderer, renderMarkdownOnce } = window.__md;
      const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
      renderMarkdownOnce(document.createElement('div'), table); // warm: the renders below are not the first
      const el = document.createElement('div');
      document.body.append(el);
      const renderer = new StreamRenderer(el);
      renderer.append(table);
      const before = performance.now();
      await frame(); // the renderer's frame callback runs first (it asked first)
      const firstRender = performance.now() - before;
      void el.offsetHeight; // lay the table out now, so the wait below is the renderer's alone
      // Seen when the render's changes are delivered: after the render, before the frame's layout.
      let shownAt = 0;
      const observer = new MutationObserver(() => {
        if (!shownAt && el.textContent?.includes('last')) shownAt = performance.now();
      });
      observer.observe(el, { childList: true, subtree: true, characterData: true });
      renderer.append(' more |\n| last');
      const appended = performance.now();
      while (!shownAt && performance.now() - appended < 20_000) await frame();
      observer.disconnect();
      const waited = (shownAt || performance.now()) - appended;
      el.remove();
      return { firstRender, waited };
    }, table);
    assert.ok(result.firstRender >= 50, `the open table took ${result.firstRender} ms to render`);
    // Capped: the 150 ms wait, a frame or two, then the next render itself (about as long as the first; on a
    // loaded machine the frames around it take about as long again). Uncapped, 12× the first render would pass
    // before that next render even started.
    const capped = 150 + 3 * result.firstRender + 150;
    assert.ok(capped < 12 * result.firstRender);
    assert.ok(
      result.waited < capped,
      `the next update came ${result.waited} ms later (the first render took ${result.firstRender} ms)`,
    );
  });

  it("counts the frame's layout, not only its script, in the wait before the next render", async () => {
    // Each word appended to the open paragraph is cheap script (a text node grows), but it widens a
    // shrink-to-fit box whose other child, 5,000 lines, is then laid out again: the frame's cost is layout.
    const result = await hp.page.evaluate(async () => {
      const { StreamRenderer } = window.__md;
      const frame = (): Promise<number> => new Promise((resolve) => requestAnimationFrame(resolve));
      const box = document.createElement('div');
      box.style.cssText = 'display:inline-block;white-space:nowrap';
      const el = document.createElement('div');
      const heavy = document.createElement('div');
      heavy.style.whiteSpace = 'normal';
      for (let i = 0; i < 5_000; i++) {
        heavy.append(Object.assign(document.createElement('div'), { textContent: `line ${i}` }));
      }
      box.append(el, heavy);
      document.body.append(box);
      const renderer = new StreamRenderer(el);
      renderer.append('Words');
      await frame();
      await frame();
      // Each render: when its change was seen (after its script), and when that frame's rendering was done
      // (a task queued then runs after the frame's style, layout and paint).
      const renders: Array<{ shown: number; done: number }> = [];
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const last = renders.at(-1);
        if (last && !last.done) last.done = performance.now();
      };
      // Called once per frame that changed the view (its mutations are delivered together).
      const observer = new MutationObserver(() => {
        renders.push({ shown: performance.now(), done: 0 });
        channel.port2.postMessage(0);
      });
      observer.observe(el, { childList: true, subtree: true, characterData: true });
      const frames = 60;
      for (let i = 0; i < frames; i++) {
        renderer.append(` word${i}`);
        await frame();
      }
      observer.disconnect();
      renderer.finish();
      const text = el.textContent;
      box.remove();
      return { renders, frames, whole: text?.endsWith(`word${frames - 1}`) };
    });
    assert.ok(result.whole, 'finish() shows all the text');
    assert.ok(result.renders.length >= 3, `${result.renders.length} renders`);
    // The wait after a render is 12× its cost, at most 150 ms; its cost is at least the frame's rendering.
    const early = result.renders.slice(0, -1).filter((render, i) => {
      const wait = Math.min(12 * (render.done - render.shown), 150);
      return result.renders[i + 1].shown - render.shown < wait * 0.9 - 5;
    });
    assert.deepEqual(
      early.map((r) => `${Math.round(r.done - r.shown)} ms of rendering`),
      [],
      `renders came sooner than 12× their frame's layout: ${JSON.stringify(result.renders)}`,
    );
  });

  it('keeps settled blocks in groups of 32, the same whether streamed or rendered whole', async () => {
    const blocks = Array.from({ length: 75 }, (_, i) =>
      i % 5 === 4 ? '```js\nconst n = ' + i + ';\n```' : `Paragraph **${i}** of a long answer.`,
    );
    const text = blocks.join('\n\n') + '\n';
    const result = await hp.page.evaluate(
      ({ text, chunks }) => {
        const { StreamRenderer, renderMarkdownOnce } = window.__md;
        // A streamed answer's older groups carry a class that lets them skip rendering off screen.
        const unmarked = (el: HTMLElement): string => el.innerHTML.replace(/ md-skippable/g, '');
        const whole = document.createElement('div');
        renderMarkdownOnce(whole, text);
        const streamed = document.createElement('div');
        const renderer = new StreamRenderer(streamed);
        const groupsWhileStreaming: number[] = [];
        for (const chunk of chunks) {
          renderer.append(chunk);
          renderer.flush();
          groupsWhileStreaming.push(streamed.querySelectorAll(':scope > .md-group').length);
        }
        renderer.finish();
        const sizes = Array.from(whole.children, (group) => `${group.className}:${group.childElementCount}`);
        const streamedClasses = Array.from(streamed.children, (group) => group.className);
        return { same: unmarked(streamed) === whole.innerHTML, sizes, groupsWhileStreaming, streamedClasses };
      },
      { text, chunks: randomChunks(text, 7) },
    );
    assert.deepEqual(result.sizes, ['md-group:32', 'md-group:32', 'md-group:11']);
    assert.equal(result.same, true);
    assert.ok(result.groupsWhileStreaming.includes(2), 'groups are formed while streaming');
    // All but the newest two groups may skip rendering while off screen.
    assert.deepEqual(result.streamedClasses, ['md-group md-skippable', 'md-group', 'md-group']);
  });

  it('over-long runs fold the same streamed as rendered whole, whatever the chunking (longRuns.ts)', async () => {
    const run = (n: number, seed: number): string =>
      Array.from(
        { length: n },
        (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789'[(i * 7 + seed * 13) % 36],
      ).join('');
    const doc =
      `Intro ${run(10_400, 1)} and after it ${run(10_100, 2)}\n\n` +
      `\`\`\`\n${run(10_300, 3)}\nshort line\n\`\`\`\n\n| a | b |\n|---|---|\n| ${run(10_200, 4)} | x |\n\n` +
      `Ends with ${run(12_000, 5)}`;
    const chunkings = Array.from({ length: 8 }, (_, seed) => randomChunks(doc, seed + 1, 3000));
    const failures = await hp.page.evaluate(
      ({ text, chunkings }) => {
        const { StreamRenderer, renderMarkdownOnce } = window.__md;
        const unmarked = (el: HTMLElement): string => el.innerHTML.replace(/ md-skippable/g, '');
        const whole = document.createElement('div');
        renderMarkdownOnce(whole, text);
        const bad: string[] = [];
        if (whole.querySelectorAll('.long-run-fold').length !== 5)
          bad.push('the whole render has not 5 folds');
        chunkings.forEach((chunks, index) => {
          const el = document.createElement('div');
          const renderer = new StreamRenderer(el);
          chunks.forEach((chunk, i) => {
            renderer.append(chunk);
            if ((i + index) % 3 !== 0) renderer.flush();
          });
          renderer.finish();
          if (unmarked(el) !== whole.innerHTML) bad.push(`${index}: html differs`);
        });
        return bad;
      },
      { text: doc, chunkings },
    );
    assert.deepEqual(failures, []);
  });
});
