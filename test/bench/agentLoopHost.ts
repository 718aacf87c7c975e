/**
 * Case 14, the agent loop's overhead in the real extension host: a tool's result in → the next request on the
 * wire, the tool's own work excluded, over real Agent-mode runs of the chat session (agentLoopExthost.ts) of
 * `steps` steps with 10 KB per result, side by side with the pure loop in plain Node in the same run (case 13's
 * figure). Budget from issue 26: at most 5 ms median in the real extension host.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTEXT_TOKENS } from '../../src/gateway/models';
import { loopRun } from './agentLoop';
import type { AgentLoopJob, AgentLoopResults } from './agentLoopExthost';
import { editorUnavailable, runInExtensionHost } from './editor';
import { type Row, fmtBytes, fmtMs, fmtRatio, skippedRow, verdict } from './report';
import type { BenchSettings } from './settings';
import { median } from './stats';
import { productionStage } from './stage';

const CASE = '14. Agent loop (extension host)';
const STEPS = 30;
const LINE_CHARS = 10_000;
const BUDGET_MS = 5;

/** src/sample.ts of the `long` script: one 10 KB line per step (the script reads line k at step k). */
function sampleFile(lines: number): string {
  return Array.from({ length: lines }, (_, i) => {
    const head = `export const part${i + 1} = [`;
    let line = head;
    for (let j = 0; line.length < LINE_CHARS - 2; j++) line += `'item-${i + 1}-${j}', `;
    return `${line.slice(0, LINE_CHARS - 2)}];`;
  }).join('\n');
}

/** Runs case 14. */
export async function agentLoopHostRows(settings: BenchSettings): Promise<Row[]> {
  const label = `${STEPS}-step Agent run, 10 KB per result`;
  const unavailable = editorUnavailable();
  if (unavailable)
    return [skippedRow(CASE, `${label}: tool result in → next request`, `≤ ${BUDGET_MS} ms`, unavailable)];
  const job: AgentLoopJob = {
    steps: STEPS,
    runs: settings.agent.hostRuns,
    warmup: settings.agent.hostWarmup,
  };
  const r = await runInExtensionHost<AgentLoopJob, AgentLoopResults>(
    (await productionStage()).dir,
    job,
    600_000,
    {
      name: 'agentLoopExthost',
      prepare(folder) {
        mkdirSync(join(folder, 'src'), { recursive: true });
        writeFileSync(join(folder, 'src', 'sample.ts'), `${sampleFile(STEPS + 10)}\n`);
      },
      settings: { 'modelGateway.agent.maxSteps': STEPS },
    },
  );
  // The pure loop in plain Node, in this same run: case 13's figure (30 steps × 10 KB, no elision).
  const plain: number[][] = [];
  const elided = { count: 0 };
  for (let i = 0; i < settings.agent.warmup + settings.agent.runs; i++) {
    const gaps = await loopRun(CONTEXT_TOKENS, elided);
    if (i >= settings.agent.warmup) plain.push(gaps);
  }
  const steps = r.runs.flat();
  const overhead = median(steps.map((s) => s.gapMs - s.toolMs));
  const resultToWire = median(steps.map((s) => s.resultToWireMs));
  const beforeTool = median(steps.map((s) => s.beforeToolMs));
  const tool = median(steps.map((s) => s.toolMs));
  const gap = median(steps.map((s) => s.gapMs));
  const plainMedian = median(plain.flat());
  const chars = median(steps.map((s) => s.resultChars));
  // The request grows by a result per step: its last steps carry the largest bodies (about 300 KB).
  const lastSteps = median(r.runs.flatMap((run) => run.slice(-5).map((s) => s.gapMs - s.toolMs)));
  return [
    {
      case: CASE,
      figure: `${label}: response k ends → request k+1 on the wire, minus read_file's own run (median of ${steps.length} steps of ${r.runs.length} run${r.runs.length === 1 ? '' : 's'})`,
      ours: fmtMs(overhead),
      baseline: `${fmtMs(plainMedian)} (the pure loop in plain Node, case 13)`,
      ratio: fmtRatio(overhead / plainMedian),
      budget: `≤ ${BUDGET_MS} ms`,
      status: verdict(overhead <= BUDGET_MS),
      note:
        `last 5 steps ${fmtMs(lastSteps)}; the whole gap ${fmtMs(gap)}, of which read_file ${fmtMs(tool)} (excluded); after the result: ${fmtMs(resultToWire)} ` +
        `(loop, row posts, client, the ${fmtBytes(r.lastBodyBytes ?? 0)} body sent); before the tool: ${fmtMs(beforeTool)} ` +
        `(stream end, call parsed, row posted). Results of ${fmtBytes(chars)}, ${r.protocol ?? '?'} protocol; ` +
        `the chat session in Agent mode with an empty webview attached, the emulator in the same process (one clock)`,
      data: { runs: r.runs, plain },
    },
  ];
}
