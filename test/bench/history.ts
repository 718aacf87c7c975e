/**
 * Case 3: opening a stored conversation of 400 messages (~800 KB) in the production webview bundle: time
 * until the last messages are on screen and the composer takes input, and the webview's JS heap.
 */
import type { Conversation } from '../../src/chat/types';
import type { ChatViewState } from '../../src/protocol';
import { conversation, conversationChars } from './corpus';
import { type Row, fmtBytes, fmtMs, verdict } from './report';
import type { BenchSettings } from './settings';
import { median } from './stats';
import type { BenchPage, WebBench } from './webPage';

const CASE = '3. Long history';

interface Opened {
  ms: number;
  focused: boolean;
  built: number;
}

function stateOf(c: Conversation): ChatViewState {
  return {
    conversation: c,
    models: [{ id: c.model, label: 'Alpha Sonnet 4.5', thinking: false, extra: false }],
    history: [
      { id: c.id, title: c.title, model: c.model, updatedAt: c.updatedAt, turnCount: c.turns.length },
    ],
    onboarding: { hasApiKey: true, hasBaseUrl: true },
    busy: false,
    agent: { enabled: true },
  };
}

/** Posts the state as the host does and waits for the frame that shows the last turn with a usable composer. */
function openConversation(bp: BenchPage, state: ChatViewState, marker: string): Promise<Opened> {
  return bp.page.evaluate(
    ([s, m]) =>
      new Promise<Opened>((resolve, reject) => {
        const started = performance.now();
        window.postMessage({ type: 'state', state: s }, '*');
        const deadline = started + 20_000;
        const check = (): void => {
          const turns = document.querySelectorAll('.turn');
          const last = turns[turns.length - 1];
          const scroller = document.querySelector('.transcript');
          const textarea = document.querySelector<HTMLTextAreaElement>('.composer textarea');
          const onScreen =
            !!last &&
            !!scroller &&
            (last.textContent ?? '').includes(m) &&
            last.getBoundingClientRect().top < scroller.getBoundingClientRect().bottom;
          if (onScreen && textarea && !textarea.disabled) {
            textarea.focus();
            const focused = document.activeElement === textarea;
            // rAF runs before the paint; a task queued from it runs after the frame is on screen.
            setTimeout(() => resolve({ ms: performance.now() - started, focused, built: turns.length }), 0);
          } else if (performance.now() > deadline)
            reject(new Error('the conversation did not show within 20 s'));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    [state, marker] as const,
  );
}

/** Runs case 3; each round opens a fresh webview page. */
export async function historyRows(web: WebBench, settings: BenchSettings): Promise<Row[]> {
  const h = settings.history;
  const c = conversation(h.messages, h.bytes);
  const last = c.turns[c.turns.length - 1];
  const marker = last.content.slice(-20);
  const times: Opened[] = [];
  const heaps: number[] = [];
  const heapsAfterGc: number[] = [];
  let typed = true;
  for (let round = 0; round < h.rounds; round++) {
    const bp = await web.open('webview');
    try {
      times.push(await openConversation(bp, stateOf(c), marker));
      heaps.push(await bp.metric('JSHeapUsedSize'));
      await bp.cdp.send('HeapProfiler.collectGarbage');
      heapsAfterGc.push(await bp.metric('JSHeapUsedSize'));
      await bp.page.keyboard.type('ok');
      typed &&= (await bp.page.locator('.composer textarea').inputValue()).endsWith('ok');
    } finally {
      await bp.close();
    }
  }
  const ms = median(times.map((t) => t.ms));
  const heap = Math.max(...heaps);
  const label = `${c.turns.length} messages, ${fmtBytes(conversationChars(c))} of text`;
  const usable = times.every((t) => t.focused) && typed;
  return [
    {
      case: CASE,
      figure: `${label}: until the last messages show and the composer takes input`,
      ours: fmtMs(ms),
      baseline: '–',
      ratio: '–',
      budget: '≤ 500 ms',
      status: usable ? verdict(ms <= 500) : 'miss',
      ...(usable ? {} : { note: 'the composer did not take focus or typed text' }),
      data: { opened: times },
    },
    {
      case: CASE,
      figure: `${label}: webview JS heap after opening`,
      ours: `${fmtBytes(heap)} (${fmtBytes(Math.max(...heapsAfterGc))} after GC)`,
      baseline: '–',
      ratio: '–',
      budget: '≤ 150 MB',
      status: verdict(heap <= 150_000_000),
      data: { heaps, heapsAfterGc },
    },
  ];
}
