/**
 * Browser bundle of the rendering benchmark: the real StreamRenderer and renderMarkdownOnce from
 * src/webview, a naive renderer that re-renders the whole answer with the same pipeline on every chunk,
 * and a driver that delivers each chunk in a task of its own, as postMessage deltas arrive.
 */
import { renderMarkdownOnce, StreamRenderer } from '../../../src/webview/streamRenderer';
import type { BenchApi, StreamKind, StreamRunResult } from './benchApi';

const channel = new MessageChannel();
const waiting: Array<() => void> = [];
channel.port1.onmessage = () => waiting.shift()?.();

/** Yields to the event loop: the next chunk runs in a new task, so the browser may lay out and paint between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
}

/** A scrolling host like the transcript's, so layout costs what it costs in the real view. */
function freshHost(): { host: HTMLElement; container: HTMLElement } {
  const host = document.createElement('div');
  host.className = 'bench-host';
  host.style.cssText = 'height:600px;width:400px;overflow:auto;font:13px sans-serif';
  const container = document.createElement('div');
  container.className = 'markdown';
  host.append(container);
  document.body.append(host);
  return { host, container };
}

/** Collects Long Tasks API entries (> 50 ms) until `stop()`, which waits for late deliveries. */
function watchLongTasks(): { durations: number[]; stop(): Promise<void> } {
  const durations: number[] = [];
  const observer = new PerformanceObserver((list) =>
    list.getEntries().forEach((e) => durations.push(e.duration)),
  );
  observer.observe({ type: 'longtask', buffered: false });
  return {
    durations,
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
    },
  };
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/** `perFrame` chunks per animation frame; the renderer renders once per frame, as in the real view. */
async function framesRun(kind: StreamKind, chunks: string[], perFrame: number): Promise<StreamRunResult> {
  const longTasks = watchLongTasks();
  const { host, container } = freshHost();
  const renderer = kind === 'ours-frames' ? new StreamRenderer(container) : undefined;
  const times: number[] = [];
  let length = 0;
  for (let i = 0; i < chunks.length; i += perFrame) {
    await nextFrame();
    const started = performance.now();
    for (const chunk of chunks.slice(i, i + perFrame)) {
      renderer?.append(chunk);
      length += chunk.length;
    }
    times.push(performance.now() - started);
  }
  await nextFrame();
  await nextFrame();
  const started = performance.now();
  renderer?.finish();
  void host.scrollHeight;
  const finishMs = performance.now() - started;
  await longTasks.stop();
  const textLength = renderer ? renderer.text.length : length;
  return { times, finishMs, longTasks: longTasks.durations, textLength };
}

async function streamRun(kind: StreamKind, chunks: string[], naiveEvery: number): Promise<StreamRunResult> {
  if (kind === 'ours-frames' || kind === 'noop-frames') return framesRun(kind, chunks, naiveEvery);
  const longTasks = watchLongTasks();
  const { host, container } = freshHost();
  const renderer = kind === 'ours' ? new StreamRenderer(container) : undefined;
  const times = new Array<number>(chunks.length).fill(0);
  let text = '';
  for (let i = 0; i < chunks.length; i++) {
    await nextTask();
    const started = performance.now();
    if (renderer) {
      renderer.append(chunks[i]);
      // Render now rather than on the next frame: the strictest case, every chunk rendered.
      renderer.flush();
    } else {
      text += chunks[i];
      if (kind === 'naive' && i % naiveEvery === 0) renderMarkdownOnce(container, text);
    }
    // No forced layout here: like the transcript (a ResizeObserver), layout happens once per frame.
    times[i] = performance.now() - started;
  }
  await nextTask();
  const started = performance.now();
  if (renderer) renderer.finish();
  else if (kind === 'naive') renderMarkdownOnce(container, text);
  void host.scrollHeight;
  const finishMs = performance.now() - started;
  await longTasks.stop();
  const textLength = renderer ? renderer.text.length : text.length;
  return { times, finishMs, longTasks: longTasks.durations, textLength };
}

function singleRender(text: string): number {
  const { host, container } = freshHost();
  const started = performance.now();
  renderMarkdownOnce(container, text);
  void host.scrollHeight;
  return performance.now() - started;
}

const api: BenchApi = {
  streamRun,
  singleRender,
  clear: () => document.querySelectorAll('.bench-host').forEach((e) => e.remove()),
};
window.__bench = api;
