/**
 * Case 5 in plain Node: a 4096×4096 noise PNG as b64_json (n=1, then n=4), our client against a baseline
 * that JSON.parses, base64-decodes and writes the files. Every run is a fresh process (clean memory levels),
 * ours and baseline alternate, and the emulator runs in a process of its own.
 */
import type { ImageSize } from '../../src/gateway/types';
import { runChild, spawnEmulator } from './children';
import type { ImageJob, ImageMeasurement } from './imageWork';
import { type Row, fmtBytes, fmtMs, fmtRatio, verdict } from './report';
import type { BenchSettings } from './settings';
import { median, medianRatio } from './stats';

const CASE = '5. Large images';

/** Budgets of case 5, shared with the extension-host variant. */
export const IMAGE_BUDGET = { memory: 2.5, blockMs: 100, time: 1.5 };

/** The rows for one set of paired measurements (ours vs baseline) at `n` images. */
export function imageRows(
  where: string,
  size: string,
  n: number,
  ours: ImageMeasurement[],
  baseline: ImageMeasurement[],
): Row[] {
  const decoded = median(ours.map((m) => m.decodedBytes));
  const memory = median(ours.map((m) => m.peakRssExtra));
  const memoryBase = median(baseline.map((m) => m.peakRssExtra));
  const block = Math.max(...ours.map((m) => m.maxBusyDriftMs));
  const blockBase = Math.max(...baseline.map((m) => m.maxBusyDriftMs));
  const rawBlock = Math.max(...ours.map((m) => Math.max(m.maxLoopDelayMs, m.maxDriftMs)));
  const rawBlockBase = Math.max(...baseline.map((m) => Math.max(m.maxLoopDelayMs, m.maxDriftMs)));
  const timeRatio = medianRatio(
    ours.map((m) => m.totalMs),
    baseline.map((m) => m.totalMs),
  );
  const label = `${where}, ${size} noise PNG ×${n} (${fmtBytes(decoded)} decoded)`;
  const data = { ours, baseline };
  return [
    {
      case: CASE,
      figure: `${label}: peak extra memory (RSS)`,
      ours: fmtBytes(memory),
      baseline: fmtBytes(memoryBase),
      ratio: `${fmtRatio(memory / decoded)} decoded`,
      budget: `≤ ${IMAGE_BUDGET.memory}× decoded`,
      status: verdict(memory <= IMAGE_BUDGET.memory * decoded),
      data: { decodedBytes: decoded, peakRssExtra: memory, baselinePeakRssExtra: memoryBase },
    },
    {
      case: CASE,
      figure: `${label}: longest event-loop block`,
      ours: fmtMs(block),
      baseline: fmtMs(blockBase),
      ratio: '–',
      budget: `≤ ${IMAGE_BUDGET.blockMs} ms`,
      status: verdict(block <= IMAGE_BUDGET.blockMs),
      note:
        `the longest late timer tick (10 ms interval) counted only as far as the process used the CPU ` +
        `meanwhile; raw lateness, including waits for a core on this shared machine: ours ` +
        `${fmtMs(rawBlock)}, baseline ${fmtMs(rawBlockBase)}`,
      data: { rawBlock, rawBlockBase },
    },
    {
      case: CASE,
      figure: `${label}: total time (median of ${ours.length})`,
      ours: fmtMs(median(ours.map((m) => m.totalMs))),
      baseline: `${fmtMs(median(baseline.map((m) => m.totalMs)))} (parse+decode+write)`,
      ratio: fmtRatio(timeRatio),
      budget: `≤ ${IMAGE_BUDGET.time}×`,
      status: verdict(timeRatio <= IMAGE_BUDGET.time),
      data,
    },
  ];
}

/** Runs case 5 in plain Node for each image count of the settings. */
export async function imageNodeRows(settings: BenchSettings): Promise<Row[]> {
  const emulator = await spawnEmulator();
  const rows: Row[] = [];
  try {
    for (const n of settings.images.counts) {
      const job: ImageJob = { url: emulator.info.url, n, size: settings.images.size as ImageSize };
      const ours: ImageMeasurement[] = [];
      const baseline: ImageMeasurement[] = [];
      const once = (kind: 'ours' | 'baseline'): Promise<ImageMeasurement> =>
        runChild<ImageMeasurement>('image', [`--kind=${kind}`, `--job=${JSON.stringify(job)}`], 300_000, [
          '--expose-gc',
        ]);
      for (let round = 0; round < settings.images.rounds; round++) {
        const order: Array<'ours' | 'baseline'> =
          round % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
        for (const kind of order) (kind === 'ours' ? ours : baseline).push(await once(kind));
      }
      rows.push(...imageRows('Node, client alone', settings.images.size, n, ours, baseline));
    }
  } finally {
    await emulator.stop();
  }
  return rows;
}
