/**
 * Case 2: streaming render in headless Chromium. Our StreamRenderer against a naive renderer that
 * re-renders the whole answer on every chunk (same markdown-it + highlight.js + DOMPurify pipeline), and the
 * flat-cost, longest-task and total-time budgets on a 1 MB answer. Main-thread time is CDP's TaskDuration,
 * net of the driver's own per-chunk tasks (measured with a no-op renderer).
 */
import { chunkText, markdownAnswer } from './corpus';
import { type Row, fmtBytes, fmtMs, fmtRatio, verdict } from './report';
import type { BenchSettings } from './settings';
import type { StreamKind, StreamRunResult } from './page/benchApi';
import { mean, median, sum } from './stats';
import type { BenchPage, WebBench } from './webPage';

const CASE = '2. Streaming render';
const SINGLE_RENDERS = 3;

interface Measured {
  result: StreamRunResult;
  /** Main-thread ms (TaskDuration delta). */
  mainMs: number;
  /** Where it went (CDP deltas, ms): script, style recalculation, layout. */
  split: Split;
}

interface Split {
  scriptMs: number;
  styleMs: number;
  layoutMs: number;
}

const SPLIT = {
  scriptMs: 'ScriptDuration',
  styleMs: 'RecalcStyleDuration',
  layoutMs: 'LayoutDuration',
} as const;

async function splitNow(bp: BenchPage): Promise<Split> {
  const entries = await Promise.all(
    Object.entries(SPLIT).map(async ([key, metric]) => [key, (await bp.metric(metric)) * 1000] as const),
  );
  return Object.fromEntries(entries) as unknown as Split;
}

function splitText(s: Split): string {
  return `script ${fmtMs(s.scriptMs)}, style ${fmtMs(s.styleMs)}, layout ${fmtMs(s.layoutMs)}`;
}

async function afterFrames(bp: BenchPage): Promise<void> {
  await bp.page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Empties the page and collects its garbage, so that a run does not pay for the last one's: the 200 KB
 * case's naive renders and each earlier 1 MB run leave megabytes of detached DOM, whose collection landed
 * in whichever run came next as a single 50-120 ms pause.
 */
async function cleanSlate(bp: BenchPage): Promise<void> {
  await bp.page.evaluate(() => window.__bench.clear());
  await bp.page.evaluate(() => (window as unknown as { gc(): void }).gc());
  await afterFrames(bp);
}

async function stream(bp: BenchPage, kind: StreamKind, chunks: string[], every: number): Promise<Measured> {
  await cleanSlate(bp);
  const before = await bp.metric('TaskDuration');
  const splitBefore = await splitNow(bp);
  const args = [kind, chunks, every] as const;
  const result = await bp.page.evaluate(([k, c, e]) => window.__bench.streamRun(k, c, e), args);
  await afterFrames(bp);
  const mainMs = ((await bp.metric('TaskDuration')) - before) * 1000;
  const splitAfter = await splitNow(bp);
  const split: Split = {
    scriptMs: splitAfter.scriptMs - splitBefore.scriptMs,
    styleMs: splitAfter.styleMs - splitBefore.styleMs,
    layoutMs: splitAfter.layoutMs - splitBefore.layoutMs,
  };
  return { result, mainMs, split };
}

async function single(bp: BenchPage, text: string): Promise<number> {
  await cleanSlate(bp);
  const before = await bp.metric('TaskDuration');
  await bp.page.evaluate((t) => window.__bench.singleRender(t), text);
  await afterFrames(bp);
  return ((await bp.metric('TaskDuration')) - before) * 1000;
}

/** 200 KB in 4,000 chunks: ours against the naive full re-render, alternating. */
async function versusNaive(bp: BenchPage, settings: BenchSettings): Promise<Row> {
  const r = settings.render;
  const text = markdownAnswer(r.smallBytes, 11);
  const chunks = chunkText(text, r.smallChunks);
  const noop = (await stream(bp, 'noop', chunks, 1)).mainMs;
  const ours: number[] = [];
  const naive: number[] = [];
  for (let round = 0; round < r.smallRounds; round++) {
    const order = round % 2 === 0 ? (['ours', 'naive'] as const) : (['naive', 'ours'] as const);
    for (const kind of order) {
      const m = await stream(bp, kind, chunks, r.naiveEvery);
      if (m.result.textLength !== text.length)
        throw new Error(`${kind} rendered ${m.result.textLength} of ${text.length} chars`);
      const net = Math.max(0, m.mainMs - noop);
      (kind === 'ours' ? ours : naive).push(kind === 'naive' ? net * r.naiveEvery : net);
    }
  }
  const factor = median(naive) / median(ours);
  return {
    case: CASE,
    figure: `${fmtBytes(text.length)} answer in ${chunks.length} chunks: main-thread time`,
    ours: fmtMs(median(ours)),
    baseline: `${fmtMs(median(naive))} (naive full re-render${r.naiveEvery > 1 ? ', estimated' : ''})`,
    ratio: `${fmtRatio(factor)} less`,
    budget: '≥ 20× less',
    status: verdict(factor >= 20),
    ...(r.naiveEvery > 1
      ? {
          note: `the naive renderer ran on every ${r.naiveEvery}th chunk and its time was multiplied by ${r.naiveEvery}`,
        }
      : {}),
    data: {
      oursMs: ours,
      naiveMs: naive,
      noopMs: noop,
      naiveEvery: r.naiveEvery,
      chars: text.length,
      chunks: chunks.length,
    },
  };
}

/** 1 MB in 20,000 chunks: flat per-chunk cost, longest task, total against one render of the final text. */
async function largeAnswer(bp: BenchPage, settings: BenchSettings): Promise<Row[]> {
  const r = settings.render;
  const text = markdownAnswer(r.largeBytes, 21);
  const chunks = chunkText(text, r.largeChunks);
  const noop = (await stream(bp, 'noop', chunks, 1)).mainMs;
  const perFrame = r.chunksPerFrame;
  const noopFrames = (await stream(bp, 'noop-frames', chunks, perFrame)).mainMs;
  const runs: Measured[] = [];
  const batched: Measured[] = [];
  const singles: number[] = [];
  for (let round = 0; round < r.largeRounds; round++) {
    // One render of the final text is the yardstick of two budgets: the median of three.
    for (let i = 0; i < SINGLE_RENDERS; i++) singles.push(await single(bp, text));
    for (const kind of ['ours', 'ours-frames'] as const) {
      const m = await stream(bp, kind, chunks, kind === 'ours' ? 1 : perFrame);
      if (m.result.textLength !== text.length)
        throw new Error(`rendered ${m.result.textLength} of ${text.length} chars`);
      (kind === 'ours' ? runs : batched).push(m);
    }
  }
  const totalBatched = median(batched.map((m) => Math.max(0, m.mainMs - noopFrames)));
  const longestBatched = Math.max(
    ...batched.map((m) => Math.max(m.result.finishMs, ...m.result.times, ...m.result.longTasks)),
  );
  const tenth = Math.max(1, Math.floor(chunks.length / 10));
  const flat = runs.map((m) => mean(m.result.times.slice(-tenth)) / mean(m.result.times.slice(0, tenth)));
  const firstMs = median(runs.map((m) => mean(m.result.times.slice(0, tenth))));
  const lastMs = median(runs.map((m) => mean(m.result.times.slice(-tenth))));
  const longest = Math.max(
    ...runs.map((m) => Math.max(m.result.finishMs, ...m.result.times, ...m.result.longTasks)),
  );
  const total = median(runs.map((m) => Math.max(0, m.mainMs - noop)));
  const one = median(singles);
  const label = `${fmtBytes(text.length)} answer in ${chunks.length} chunks`;
  return [
    {
      case: CASE,
      figure: `${label}: time per chunk, last 10% vs first 10% (median of ${runs.length} runs)`,
      ours: `${fmtMs(lastMs)} / chunk`,
      baseline: `${fmtMs(firstMs)} / chunk (first 10%)`,
      ratio: fmtRatio(median(flat)),
      budget: '≤ 1.5×',
      status: verdict(median(flat) <= 1.5),
      data: { flat, firstMs, lastMs },
    },
    {
      case: CASE,
      figure: `${label}: longest task`,
      ours: fmtMs(longest),
      baseline: '–',
      ratio: '–',
      budget: '≤ 50 ms',
      status: verdict(longest <= 50),
      data: { longTasks: runs.map((m) => m.result.longTasks), finishMs: runs.map((m) => m.result.finishMs) },
    },
    {
      case: CASE,
      figure: `${label}: total main-thread time (every chunk rendered) vs one render of the final text`,
      ours: fmtMs(total),
      baseline: `${fmtMs(one)} (one render)`,
      ratio: fmtRatio(total / one),
      budget: '≤ 3×',
      status: verdict(total <= 3 * one),
      note: `main-thread time of the first run: ${splitText(runs[0].split)}`,
      data: {
        totalMs: runs.map((m) => m.mainMs),
        noopMs: noop,
        singleMs: singles,
        syncMs: runs.map((m) => sum(m.result.times)),
      },
    },
    {
      case: CASE,
      figure: `${label}, ${perFrame} chunks per frame as the view renders them (at most once per frame): total main-thread time vs one render`,
      ours: fmtMs(totalBatched),
      baseline: `${fmtMs(one)} (one render)`,
      ratio: fmtRatio(totalBatched / one),
      budget: '≤ 3×',
      status: verdict(totalBatched <= 3 * one),
      note:
        `${Math.ceil(chunks.length / perFrame)} frames (a stream of about ${Math.round((text.length / chunks.length) * perFrame * 60)} characters a second, ` +
        `faster than models answer); net of the same driver without a renderer; ${splitText(batched[0].split)}`,
      data: {
        totalMs: batched.map((m) => m.mainMs),
        noopFramesMs: noopFrames,
        perFrame,
      },
    },
    {
      case: CASE,
      figure: `${label}, ${perFrame} chunks per frame: longest task`,
      ours: fmtMs(longestBatched),
      baseline: '–',
      ratio: '–',
      budget: '≤ 50 ms',
      status: verdict(longestBatched <= 50),
      data: { longTasks: batched.map((m) => m.result.longTasks) },
    },
  ];
}

/** Runs case 2 on a fresh renderer page. */
export async function renderRows(web: WebBench, settings: BenchSettings): Promise<Row[]> {
  const bp = await web.open('render');
  try {
    return [await versusNaive(bp, settings), ...(await largeAnswer(bp, settings))];
  } finally {
    await bp.close();
  }
}
