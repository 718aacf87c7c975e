/** What the bench page exposes on `window.__bench` (page/benchEntry.ts); types only, shared with Node. */

/** Per-chunk timings of one streamed render. */
export interface StreamRunResult {
  /** Synchronous time of each chunk's task: append, render, layout (ms). */
  times: number[];
  /** Time of the final finish() (ours) or last render (naive). */
  finishMs: number;
  /** Durations of the Long Tasks API entries (> 50 ms) seen during the run. */
  longTasks: number[];
  /** Rendered text length, to check the run saw everything. */
  textLength: number;
}

/**
 * ours: one chunk per task, rendered after every chunk; naive: full re-render; noop: the driver only.
 * ours-frames: `every` chunks per animation frame, rendered by the renderer's own once-per-frame batching as
 * in the real view; noop-frames: that driver only.
 */
export type StreamKind = 'ours' | 'ours-frames' | 'naive' | 'noop' | 'noop-frames';

/** The API. */
export interface BenchApi {
  /**
   * Streams chunks into a fresh container. `every`: the naive renderer renders on every `every`-th chunk;
   * the -frames kinds deliver `every` chunks per animation frame.
   */
  streamRun(kind: StreamKind, chunks: string[], every: number): Promise<StreamRunResult>;
  /** One renderMarkdownOnce of the whole text into a fresh container, with layout; returns ms. */
  singleRender(text: string): number;
  /** Removes every container the runs left. */
  clear(): void;
}

declare global {
  interface Window {
    __bench: BenchApi;
  }
}
