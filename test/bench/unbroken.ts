/**
 * Case 6 (issue 15, item 7): an answer that is one long unbroken run of characters (base64, minified code,
 * a hash) in the production webview bundle, streamed and opened from history, as a paragraph, in a code
 * block and in a table cell. The budget is the longest main-thread task, read from a Chromium trace: every
 * top-level task of the page's main thread (`RunTask`) while the answer arrives and settles. The view must
 * not overflow sideways either.
 */
import type { Turn } from '../../src/chat/types';
import { assistant, user, viewState } from '../webview/fixtures';
import { type Row, fmtBytes, fmtMs, verdict } from './report';
import type { BenchSettings } from './settings';
import type { BenchPage, WebBench } from './webPage';

const CASE = '6. Unbroken runs';
const BUDGET_MS = 50;
// Letters and digits only: `/` and `+` of base64 are break opportunities for Chromium's line breaker.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` letters and digits with no break opportunity, the same for every run. */
export function unbrokenRun(length: number): string {
  let state = 0x2545f491;
  const out: string[] = [];
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out.push(ALPHABET[(state >>> 0) % ALPHABET.length]);
  }
  return out.join('');
}

type Where = 'paragraph' | 'code block' | 'table cell';

function answerWith(run: string, where: Where): string {
  if (where === 'code block') return `\`\`\`\n${run}\n\`\`\``;
  if (where === 'table cell') return `| id | value |\n|---|---|\n| 1 | ${run} |`;
  return run;
}

interface Outcome {
  /** Longest top-level task of the page's main thread (ms). */
  longestMs: number;
  /** The thread's CPU time in that task (ms): what it would take on an idle machine, near enough. */
  longestCpuMs: number;
  /** The widest the page or the transcript could be scrolled sideways (px). */
  overflowPx: number;
  /** Runs shown folded ("Show all"). */
  folded: number;
  /** Characters of the answer once every fold was opened. */
  shownChars: number;
}

/** What Chromium calls one top-level task of a thread's scheduler (older and newer names). */
const TASK_EVENTS = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/** The longest `RunTask` of the renderer's main thread in a Chromium trace, and its thread time (ms). */
function longestTask(trace: Buffer): { longestMs: number; longestCpuMs: number } {
  type Event = {
    name: string;
    pid: number;
    tid: number;
    ph: string;
    dur?: number;
    tdur?: number;
    args?: { name?: string };
  };
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents: Event[] } | Event[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) throw new Error('no renderer main thread in the trace');
  const tasks = events.filter(
    (e) => TASK_EVENTS.has(e.name) && e.pid === main.pid && e.tid === main.tid && e.dur !== undefined,
  );
  const longest = tasks.reduce<Event | undefined>(
    (a, e) => (!a || (e.dur ?? 0) > (a.dur ?? 0) ? e : a),
    undefined,
  );
  return { longestMs: (longest?.dur ?? 0) / 1000, longestCpuMs: (longest?.tdur ?? 0) / 1000 };
}

/** Runs `act` in the page under a trace; then measures overflow and what the answer shows. */
async function traced(bp: BenchPage, act: () => Promise<void>): Promise<Outcome> {
  const browser = bp.page.context().browser();
  if (!browser) throw new Error('no browser');
  await browser.startTracing(bp.page, { categories: ['toplevel'] });
  await act();
  const trace = await browser.stopTracing();
  const measured = await bp.page.evaluate(() => {
    const transcript = document.querySelector('.transcript');
    const root = document.scrollingElement ?? document.documentElement;
    const overflow = (el: Element | null): number => (el ? el.scrollWidth - el.clientWidth : 0);
    const answers = document.querySelectorAll('.answer');
    const answer = answers[answers.length - 1];
    const overflowPx = Math.max(overflow(root), overflow(transcript));
    // A folded run (its first 10,000 characters and "Show all") must keep the rest: Show all brings it all.
    const folds = Array.from(answer?.querySelectorAll<HTMLElement>('.long-run-fold') ?? []);
    for (const fold of folds) fold.click();
    return { overflowPx, folded: folds.length, shownChars: answer?.textContent?.length ?? 0 };
  });
  return { ...longestTask(trace), ...measured };
}

/**
 * Puts `payload` into the page before the trace starts: handing a megabyte to `page.evaluate` is a DevTools
 * message that the renderer's main thread parses in a task of its own (17 ms of CPU for 1 MB, and the
 * longest task of the whole trace on a busy machine), which is the driver's work, not the view's.
 */
async function stage(bp: BenchPage, payload: unknown): Promise<void> {
  await bp.page.evaluate((p) => {
    (window as unknown as { __payload: unknown }).__payload = p;
  }, payload);
}

/** Posts host messages; one delta per animation frame, as the host's 16 ms batching delivers them. */
async function streamIn(bp: BenchPage, text: string, chunkChars: number): Promise<Outcome> {
  const question = user('Show me the blob');
  const answer = assistant('', { status: 'streaming' });
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += chunkChars) chunks.push(text.slice(at, at + chunkChars));
  await bp.page.evaluate((state) => window.postMessage({ type: 'state', state }, '*'), viewState([]));
  await stage(bp, [[question, answer] as Turn[], chunks, answer.id] as const);
  return traced(bp, () =>
    bp.page.evaluate(async () => {
      const [turns, pieces, turnId] = (window as unknown as { __payload: [Turn[], string[], string] })
        .__payload;
      const frame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));
      window.postMessage({ type: 'turnsAdded', turns }, '*');
      for (const text of pieces) {
        window.postMessage({ type: 'delta', turnId, text }, '*');
        await frame();
      }
      window.postMessage({ type: 'turnFinished', turnId, status: 'complete' }, '*');
      for (let i = 0; i < 5; i++) await frame();
    }),
  );
}

/** Opens a stored conversation whose last answer is `text`. */
async function fromHistory(bp: BenchPage, text: string): Promise<Outcome> {
  await stage(bp, viewState([user('Show me the blob'), assistant(text)]));
  return traced(bp, () =>
    bp.page.evaluate(async () => {
      const state = (window as unknown as { __payload: unknown }).__payload;
      const frame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));
      window.postMessage({ type: 'state', state }, '*');
      for (let i = 0; i < 5; i++) await frame();
    }),
  );
}

/** Runs case 6: each measurement on a fresh production webview page. */
export async function unbrokenRows(web: WebBench, settings: BenchSettings): Promise<Row[]> {
  const rows: Row[] = [];
  const sizes = settings.quick ? [64 * 1024] : [64 * 1024, 1024 * 1024];
  const places: Where[] = ['paragraph', 'code block', 'table cell'];
  for (const size of sizes) {
    const run = unbrokenRun(size);
    for (const where of places) {
      for (const how of ['streamed', 'from history'] as const) {
        const text = answerWith(run, where);
        const bp = await web.open('webview');
        let outcome: Outcome;
        try {
          // About 60 frames for 64 KB, ~250 for 1 MB: a stream faster than any model's.
          const chunk = Math.max(1024, Math.ceil(size / 256));
          outcome = how === 'streamed' ? await streamIn(bp, text, chunk) : await fromHistory(bp, text);
        } finally {
          await bp.close();
        }
        const whole = outcome.shownChars >= size;
        const fits = outcome.overflowPx <= 0;
        rows.push({
          case: CASE,
          figure: `${fmtBytes(size)} unbroken run in a ${where}, ${how}: longest task`,
          ours: fmtMs(outcome.longestMs),
          baseline: '–',
          ratio: '–',
          budget: `≤ ${BUDGET_MS} ms, no sideways overflow`,
          status: whole && fits ? verdict(outcome.longestMs <= BUDGET_MS) : 'miss',
          note:
            `${outcome.folded ? `shown folded (${outcome.folded} "Show all"), then in full: ` : ''}` +
            `${outcome.shownChars} of ${size} characters; overflow ${outcome.overflowPx} px; ` +
            `the longest task's CPU time ${fmtMs(outcome.longestCpuMs)}`,
          data: { ...outcome, size, where, how },
        });
      }
    }
  }
  return rows;
}
