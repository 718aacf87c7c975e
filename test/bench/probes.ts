/**
 * Probes for one measured operation: peak resident memory sampled from a worker thread (which keeps
 * sampling while the main thread is blocked), peak V8 heap + external memory sampled on the main
 * thread, and how long the event loop was blocked (monitorEventLoopDelay and a setInterval drift monitor,
 * the latter also net of the time the process was waiting for a core).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

/** What a probe saw between start and stop; memory in bytes above the level at start. */
export interface ProbeResult {
  peakRssExtra: number;
  peakHeapExtra: number;
  maxLoopDelayMs: number;
  maxDriftMs: number;
  /**
   * The longest drift that the thread spent on the CPU: min(drift, its CPU time in that interval).
   * On a loaded machine a timer also runs late while the process waits for a core; that is not a block.
   */
  maxBusyDriftMs: number;
  /** Each busy drift of 20 ms or more: when it ended (performance.now()) and how long it was. */
  busyDrifts: Array<{ end: number; ms: number }>;
}

/** A running probe. */
export interface Probe {
  stop(): Promise<ProbeResult>;
}

// The worker stores the highest RSS it has seen (in KiB) into shared memory every 2 ms.
const SAMPLER = `
const { workerData } = require('node:worker_threads');
const peak = new Int32Array(workerData);
const tick = () => {
  const kib = Math.round(process.memoryUsage.rss() / 1024);
  if (kib > Atomics.load(peak, 0)) Atomics.store(peak, 0, kib);
  if (Atomics.load(peak, 1) === 0) setTimeout(tick, 2);
};
tick();
`;

const DRIFT_INTERVAL_MS = 10;

function heapNow(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * CPU time of this thread (Node 23.9+, as the extension host's Node 24) or else of the process. The process's
 * count includes other threads: a worker busy on the other core made every wait for a core look like a block.
 */
function threadCpu(since?: NodeJS.CpuUsage): NodeJS.CpuUsage {
  const own = (process as { threadCpuUsage?: (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage })
    .threadCpuUsage;
  return own ? own.call(process, since) : process.cpuUsage(since);
}

/** Collects garbage when the process runs with --expose-gc, so the starting level is a floor. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/** Starts the probes; the starting memory levels are taken once the sampler runs. */
export async function startProbe(): Promise<Probe> {
  const shared = new SharedArrayBuffer(8);
  const flags = new Int32Array(shared);
  const worker = new Worker(SAMPLER, { eval: true, workerData: shared });
  await new Promise((resolve) => setTimeout(resolve, 50));
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const rssStart = process.memoryUsage.rss();
  Atomics.store(flags, 0, Math.round(rssStart / 1024));
  const heapStart = heapNow();
  let heapPeak = heapStart;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let maxDrift = 0;
  let maxBusyDrift = 0;
  const busyDrifts: ProbeResult['busyDrifts'] = [];
  let expected = performance.now() + DRIFT_INTERVAL_MS;
  let cpu = threadCpu();
  const sample = (): void => {
    const t = performance.now();
    const drift = t - expected;
    const used = threadCpu(cpu);
    cpu = threadCpu();
    maxDrift = Math.max(maxDrift, drift);
    const busy = Math.min(drift, (used.user + used.system) / 1000);
    maxBusyDrift = Math.max(maxBusyDrift, busy);
    if (busy >= 20) busyDrifts.push({ end: t, ms: busy });
    expected = t + DRIFT_INTERVAL_MS;
    heapPeak = Math.max(heapPeak, heapNow());
  };
  const timer = setInterval(sample, DRIFT_INTERVAL_MS);
  return {
    async stop(): Promise<ProbeResult> {
      // A block that ends just before `stop` (an awaited call whose answer is handled in one go) gave the timer no
      // turn: this last sample sees it. Without it, a plain findFiles' delivery of 50,000 URIs was invisible.
      sample();
      clearInterval(timer);
      histogram.disable();
      Atomics.store(flags, 1, 1);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const peakKib = Atomics.load(flags, 0);
      await worker.terminate();
      return {
        peakRssExtra: Math.max(0, peakKib * 1024 - rssStart),
        peakHeapExtra: Math.max(0, heapPeak - heapStart),
        maxLoopDelayMs: histogram.max / 1e6,
        maxDriftMs: maxDrift,
        maxBusyDriftMs: maxBusyDrift,
        busyDrifts,
      };
    },
  };
}
