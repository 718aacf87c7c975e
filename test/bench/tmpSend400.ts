// Throwaway experiment (not committed): the webview's cost of a send with 400 messages shown vs none.
import { writeFileSync } from 'node:fs';
import type { Conversation, Turn } from '../../src/chat/types';
import type { HostToWebview } from '../../src/protocol';
import { conversation } from './corpus';
import { productionStage } from './stage';
import { startWebBench } from './webPage';
import { median } from './stats';

function stateOf(conv: Conversation): HostToWebview {
  return {
    type: 'state',
    state: {
      conversation: conv,
      models: [{ id: conv.model, label: 'Alpha', thinking: false, extra: false }],
      history: [],
      onboarding: { hasApiKey: true, hasBaseUrl: true },
      busy: false,
    },
  };
}

async function main(): Promise<void> {
  const stage = await productionStage();
  const web = await startWebBench(stage);
  const profile = process.argv.includes('--profile');
  try {
    for (const n of [0, 400, 0, 400]) {
      const results: Array<Record<string, number>> = [];
      for (let round = 0; round < 9; round++) {
        const bp = await web.open('webview');
        const conv: Conversation =
          n === 0
            ? { id: 'c', title: 't', model: 'alpha', createdAt: 1, updatedAt: 1, turns: [] }
            : { ...conversation(n, 300_000), model: 'alpha' };
        await bp.page.evaluate((m) => window.postMessage(m, '*'), stateOf(conv));
        await bp.page.waitForTimeout(400);
        const user: Turn = { id: 'nu', role: 'user', content: 'Compare them.', createdAt: 2 };
        const assistant: Turn = {
          id: 'na',
          role: 'assistant',
          model: 'alpha',
          content: '',
          status: 'streaming',
          createdAt: 2,
        };
        const msgs: HostToWebview[] = [
          { type: 'turnsAdded', turns: [user] },
          { type: 'turnsAdded', turns: [assistant] },
          { type: 'history', history: [] },
        ];
        const delta: HostToWebview = { type: 'delta', turnId: 'na', text: 'Attachments received' };
        if (profile && n === 400 && round === 0) {
          await bp.cdp.send('Profiler.enable');
          await bp.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
          await bp.cdp.send('Profiler.start');
        }
        const r = await bp.page.evaluate(
          ([first, d]) =>
            new Promise<Record<string, number>>((resolve) => {
              const t0 = performance.now();
              for (const m of first) window.postMessage(m, '*');
              let afterFirst = 0;
              setTimeout(() => {
                afterFirst = performance.now() - t0;
                const t1 = performance.now();
                let dom = 0;
                const obs = new MutationObserver(() => {
                  const a = document.querySelectorAll('.turn-assistant .markdown.answer');
                  const last = a[a.length - 1];
                  if (!last || !(last.textContent ?? '').includes('Attachments')) return;
                  obs.disconnect();
                  dom = performance.now() - t1;
                  requestAnimationFrame(() =>
                    setTimeout(() => resolve({ afterFirst, dom, painted: performance.now() - t1 }), 0),
                  );
                });
                obs.observe(document.body, { subtree: true, childList: true, characterData: true });
                window.postMessage(d, '*');
              }, 0);
            }),
          [msgs, delta] as const,
        );
        if (profile && n === 400 && round === 0) {
          const { profile: p } = await bp.cdp.send('Profiler.stop');
          writeFileSync('/tmp/send400.cpuprofile', JSON.stringify(p));
        }
        results.push(r);
        await bp.close();
      }
      const m = (k: string): string => median(results.map((r) => r[k])).toFixed(2);
      console.log(`n=${n}: first messages handled ${m('afterFirst')} ms; delta → DOM ${m('dom')} ms; → painted ${m('painted')} ms`);
    }
  } finally {
    await web.close();
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
