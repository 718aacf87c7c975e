/**
 * Case 10: a conversation showing four 4096×4096 images in the production webview bundle. Measured side by
 * side with the same conversation without its image turn: the longest gap between two animation frames while
 * the thumbnails load and while the transcript scrolls top to bottom, and the webview's JS heap. A frame gap
 * sees every stall of the page, however short (a frame is 16.7 ms); the Long Tasks API reports only tasks
 * over 50 ms, so a figure read from it showed 0 for anything under the budget.
 */
import type { Conversation, ImageTurn } from '../../src/chat/types';
import type { ChatViewState } from '../../src/protocol';
import { quadrantPng } from '../gateway-emulator/png';
import { conversation } from './corpus';
import { type Row, fmtBytes, fmtMs, fmtRatio, verdict } from './report';
import type { BenchPage, WebBench } from './webPage';

const CASE = '10. Images in the chat';
const SIDE = 4096;
const COUNT = 4;
// A short conversation, so the figure is the images' cost; case 3 measures long text histories.
const MESSAGES = 12;
/**
 * The loading phase lasts this many frames at least (half a second), with images or without: the same
 * conversation without images has nothing to load, and its row would otherwise read a gap of no frames.
 */
const MIN_LOAD_FRAMES = 30;

/** The four served images: real 4096×4096 PNGs of different colours (decoded to 64 MB each). */
export function benchImageFiles(): Record<string, { body: Buffer; type: string }> {
  const files: Record<string, { body: Buffer; type: string }> = {};
  for (let i = 0; i < COUNT; i++) {
    const c = (k: number) => [(i * 60 + k * 40) % 256, (k * 70) % 256, (i * 90) % 256] as const;
    files[`/images/${i}.png`] = {
      body: quadrantPng(SIDE, SIDE, [c(0), c(1), c(2), c(3)]),
      type: 'image/png',
    };
  }
  return files;
}

function imageTurn(): ImageTurn {
  return {
    id: 'img-bench',
    role: 'image',
    content: `/image A lighthouse at dusk --size ${SIDE}x${SIDE} --n ${COUNT}`,
    prompt: 'A lighthouse at dusk',
    model: 'alpha-image-1',
    options: {
      size: `${SIDE}x${SIDE}` as ImageTurn['options']['size'],
      quality: 'high',
      n: COUNT,
      responseFormat: 'b64_json',
    },
    status: 'complete',
    images: Array.from({ length: COUNT }, (_, i) => ({
      path: `assets/generated/lighthouse-${i}.png`,
      revisedPrompt: 'A detailed rendering of a lighthouse at dusk',
    })),
    durationMs: 90_000,
    createdAt: Date.UTC(2025, 0, 1),
  };
}

/** Twelve text messages (24 KB), with the image turn before the last question and answer when `withImages`. */
function stateOf(withImages: boolean): ChatViewState {
  const base = conversation(MESSAGES, 24_000);
  const turns = [...base.turns];
  if (withImages) turns.splice(turns.length - 2, 0, imageTurn());
  const c: Conversation = { ...base, turns };
  return {
    conversation: c,
    models: [{ id: c.model, label: 'Alpha Sonnet 4.5', thinking: false, extra: false }],
    history: [],
    onboarding: { hasApiKey: true, hasBaseUrl: true },
    busy: false,
    agent: { enabled: true },
  };
}

interface Measured {
  /** The longest gap between two animation frames (ms) while the images load, and while scrolling. */
  loadGap: number;
  scrollGap: number;
  /** Frames seen in each phase, so that a gap is read against how many there were. */
  loadFrames: number;
  scrollFrames: number;
  loaded: number;
  /** Every long task seen (over 50 ms), with its phase and the scroll position (for reading a miss). */
  tasks: string[];
  heap: number;
  heapAfterGc: number;
}

/** Opens the conversation, posts the image sources as the host does, waits for every decode, then scrolls. */
async function measure(bp: BenchPage, withImages: boolean): Promise<Measured> {
  const sources = withImages
    ? { 'img-bench': Array.from({ length: COUNT }, (_, i) => `/images/${i}.png`) }
    : {};
  const phases = await bp.page.evaluate(
    ([state, src, count, minFrames]) =>
      new Promise<Omit<Measured, 'heap' | 'heapAfterGc'>>((resolve, reject) => {
        const scroller = document.querySelector<HTMLElement>('.transcript');
        if (!scroller) return reject(new Error('no transcript'));
        let phase: 'open' | 'load' | 'scroll' | 'done' = 'open';
        const gaps = { open: 0, load: 0, scroll: 0, done: 0 };
        const frames = { open: 0, load: 0, scroll: 0, done: 0 };
        const tasks: string[] = [];
        const observer = new PerformanceObserver((list) =>
          list.getEntries().forEach((e) => {
            tasks.push(`${phase} ${Math.round(e.duration)} ms at scrollTop ${scroller?.scrollTop}`);
          }),
        );
        observer.observe({ type: 'longtask', buffered: false });
        // Every frame's time against the one before: a gap is counted in the phase its frame ends in.
        let lastFrameAt = performance.now();
        let stopped = false;
        const tick = (at: number): void => {
          gaps[phase] = Math.max(gaps[phase], at - lastFrameAt);
          frames[phase]++;
          lastFrameAt = at;
          if (!stopped) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
        const enter = (next: typeof phase): void => {
          phase = next;
          // The wait before a phase is not part of it: its first gap is counted from now.
          lastFrameAt = performance.now();
        };
        window.postMessage({ type: 'state', state }, '*');
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        const decoded = () =>
          [...document.querySelectorAll<HTMLImageElement>('.turn img')].filter(
            (img) => img.complete && img.naturalWidth > 0,
          ).length;
        void (async () => {
          // Opening the conversation is case 3's figure; the images' own work starts when the host posts their
          // URIs, after the state (ChatImages.postSources).
          await new Promise((r) => setTimeout(r, 500));
          await frame();
          enter('load');
          window.postMessage({ type: 'imageSources', sources: src }, '*');
          // Loading: bring each thumbnail near the viewport (they are lazy), and wait until all have decoded.
          const deadline = performance.now() + 60_000;
          while (decoded() < count || frames.load < minFrames) {
            if (performance.now() > deadline) return reject(new Error(`only ${decoded()} images decoded`));
            const waiting = [...document.querySelectorAll<HTMLImageElement>('.turn img')].find(
              (img) => !(img.complete && img.naturalWidth > 0),
            );
            // An image turn not built yet (long histories build upward as they scroll): scroll up to it.
            if (waiting) waiting.scrollIntoView({ block: 'center' });
            else scroller.scrollTop -= 300;
            await frame();
          }
          enter('done');
          await new Promise((r) => setTimeout(r, 200));
          // Scrolling as a user does, from where the loading left it: up to the top, then down to the bottom,
          // 120 px per frame (no jumps, which would be case 3's opening work again).
          enter('scroll');
          for (const step of [-120, 120]) {
            for (let i = 0; i < 600; i++) {
              scroller.scrollTop += step;
              await frame();
              if (step > 0 && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight) break;
              if (step < 0 && scroller.scrollTop <= 0) break;
            }
          }
          await new Promise((r) => setTimeout(r, 100));
          enter('done');
          stopped = true;
          observer.disconnect();
          resolve({
            loadGap: gaps.load,
            scrollGap: gaps.scroll,
            loadFrames: frames.load,
            scrollFrames: frames.scroll,
            loaded: decoded(),
            tasks,
          });
        })();
      }),
    [stateOf(withImages), sources, withImages ? COUNT : 0, MIN_LOAD_FRAMES] as const,
  );
  const heap = await bp.metric('JSHeapUsedSize');
  await bp.cdp.send('HeapProfiler.collectGarbage');
  return { ...phases, heap, heapAfterGc: await bp.metric('JSHeapUsedSize') };
}

/** Runs case 10: the conversation with its four images, then without, each in a fresh page. */
export async function chatImageRows(web: WebBench): Promise<Row[]> {
  const run = async (withImages: boolean): Promise<Measured> => {
    const bp = await web.open('webview');
    try {
      return await measure(bp, withImages);
    } finally {
      await bp.close();
    }
  };
  const images = await run(true);
  const plain = await run(false);
  const label = `${COUNT} images of ${SIDE}×${SIDE} among ${MESSAGES} messages`;
  const all = images.loaded === COUNT;
  const ratio = images.heapAfterGc / plain.heapAfterGc;
  const gapRow = (what: string, ours: number, baseline: number, frames: number): Row => ({
    case: CASE,
    figure: `${label}: longest gap between animation frames while ${what}`,
    ours: fmtMs(ours),
    baseline: `${fmtMs(baseline)} (no images)`,
    ratio: '–',
    budget: '≤ 100 ms',
    status: all ? verdict(ours <= 100) : 'miss',
    note:
      `${frames} frames (a frame is 16.7 ms at 60 Hz)` +
      (all ? '' : `; ${images.loaded} of ${COUNT} images decoded`),
    data: { images, plain },
  });
  return [
    gapRow('they load', images.loadGap, plain.loadGap, images.loadFrames),
    gapRow('scrolling', images.scrollGap, plain.scrollGap, images.scrollFrames),
    {
      case: CASE,
      figure: `${label}: webview JS heap after GC, against the same conversation without images`,
      ours: `${fmtBytes(images.heapAfterGc)} (${fmtBytes(images.heap)} before GC)`,
      baseline: `${fmtBytes(plain.heapAfterGc)} (${fmtBytes(plain.heap)} before GC)`,
      ratio: fmtRatio(ratio),
      budget: '≤ 1.5×',
      status: verdict(ratio <= 1.5),
      data: { images, plain },
    },
  ];
}
