/**
 * Case 7 (issue 14, Performance): a 2,000-line file rewritten by a streamed answer of 10,000 chunks under
 * review, against the same stream inserted without review, side by side in one extension host.
 */
import { spawnEmulator } from './children';
import { editorUnavailable, runInExtensionHost } from './editor';
import { type Row, fmtMs, fmtRatio, skippedRow, verdict } from './report';
import type { ReviewJob, ReviewMeasurement, ReviewResults } from './reviewExtHost';
import { benchAnswerLength } from './reviewFile';
import type { BenchSettings } from './settings';
import { median, medianRatio } from './stats';
import { productionStage } from './stage';

const CASE = '8. Edit review';
const LINES = 2000;
const CHUNKS = 10_000;

/** The case's rows: longest block, total time against the plain insertion, last tenth against the first. */
export async function reviewRows(settings: BenchSettings): Promise<Row[]> {
  const unavailable = editorUnavailable();
  if (unavailable)
    return [skippedRow(CASE, 'review of a streamed rewrite (all figures)', '≤ 50 ms / ≤ 1.5×', unavailable)];
  const answer = benchAnswerLength(LINES);
  const chunkSize = Math.floor(answer / CHUNKS);
  const chunks = Math.ceil(answer / chunkSize);
  const stage = await productionStage();
  const emulator = await spawnEmulator({ chunkSize });
  try {
    const job: ReviewJob = { url: emulator.info.url, lines: LINES, rounds: settings.quick ? 1 : 3 };
    const results = await runInExtensionHost<ReviewJob, ReviewResults>(stage.dir, job, 900_000, {
      name: 'reviewExtHost',
      settings: { 'modelGateway.network.retries': 0 },
    });
    const of = (kind: ReviewMeasurement['kind']) => results.runs.filter((r) => r.kind === kind);
    const review = of('review');
    const plain = of('plain');
    const what = `${LINES.toLocaleString('en-US')}-line file, ${chunks.toLocaleString('en-US')} chunks of ${chunkSize} characters, Node ${results.node}, ${review.length} round(s)`;
    const block = Math.max(...review.map((r) => r.maxBusyDriftMs));
    const plainBlock = Math.max(...plain.map((r) => r.maxBusyDriftMs));
    const total = medianRatio(
      review.map((r) => r.totalMs),
      plain.map((r) => r.totalMs),
    );
    // Rounds whose stream wrote nothing before its end (null tenths) say nothing about the growth.
    const tenthRatios = (runs: ReviewMeasurement[]): number[] =>
      runs.filter((r) => r.firstTenthMs > 0 && r.lastTenthMs >= 0).map((r) => r.lastTenthMs / r.firstTenthMs);
    const tenth = tenthRatios(review).length > 0 ? median(tenthRatios(review)) : NaN;
    const plainTenth = tenthRatios(plain).length > 0 ? median(tenthRatios(plain)) : NaN;
    const data = { chunkSize, chunks, runs: results.runs };
    const present = (values: Array<number | null>): number[] => values.filter((v): v is number => v !== null);
    const autoSaveOff = present(review.map((r) => r.autoSaveOffMs));
    const firstWrite = (runs: ReviewMeasurement[]): string => {
      const times = present(runs.map((r) => r.firstWriteMs));
      return times.length ? fmtMs(median(times)) : 'none';
    };
    return [
      {
        case: CASE,
        figure: 'longest extension-host block while the rewrite streams under review',
        ours: fmtMs(block),
        baseline: fmtMs(plainBlock),
        ratio: fmtRatio(block / plainBlock),
        budget: '≤ 50 ms',
        status: verdict(block <= 50),
        note: `${what}; the longest timer drift the process spent on the CPU (probes.ts), worst round; baseline: the same stream inserted without review`,
        data,
      },
      {
        case: CASE,
        figure: 'total time under review vs inserted without review',
        ours: fmtMs(median(review.map((r) => r.totalMs))),
        baseline: fmtMs(median(plain.map((r) => r.totalMs))),
        ratio: fmtRatio(total),
        budget: '≤ 1.5×',
        status: verdict(total <= 1.5),
        note: `${what}; median of per-round ratios, the review's final diff included`,
      },
      {
        case: CASE,
        figure:
          'under review: the start until auto-save was off for the file (the settings write its first streamed write waits for)',
        ours: autoSaveOff.length ? fmtMs(median(autoSaveOff)) : '–',
        baseline: `first streamed write ${firstWrite(plain)} (inserted without review)`,
        ratio: '–',
        budget: '–',
        status: 'info',
        note: `${what}; ${autoSaveOff.length} round(s) that changed files.autoSave; the first streamed write under review came after ${firstWrite(review)}; a review writes nothing while auto-save could still save it (issue 25 item 3)`,
      },
      {
        case: CASE,
        figure: 'last 10% of the chunks vs the first 10%, under review',
        ours: fmtRatio(tenth),
        baseline: fmtRatio(plainTenth),
        ratio: '–',
        budget: '≤ 1.5×',
        status: Number.isNaN(tenth) ? 'info' : verdict(tenth <= 1.5),
        note: `${what}; ${tenthRatios(review).length} round(s) with streamed writes; time per character while the document grows through its last tenth over its first tenth (streamed writes, the final one left out); baseline column: the same ratio without review`,
      },
    ];
  } finally {
    await emulator.stop();
  }
}
