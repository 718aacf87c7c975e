/**
 * Case 12 (the agent's tools): `search_text` on case 7's generated workspace of 50,000 files, in the real editor's
 * extension host, against the same ripgrep query run directly (agentSearchExthost.ts). Budgets from issue 26: at
 * most 1.3× the direct run, and no extension-host block over 50 ms.
 */
import type { AgentSearchJob, AgentSearchResults } from './agentSearchExthost';
import { writeWorkspace } from './contextWorkspace';
import { editorUnavailable, runInExtensionHost } from './editor';
import { type Row, fmtBytes, fmtMs, fmtRatio, skippedRow, verdict } from './report';
import type { BenchSettings } from './settings';
import { median, medianRatio } from './stats';
import { productionStage } from './stage';

const CASE = '12. Agent tools';
/** A name part in about one file in ten (thousands of hits), and a rarer one (a few hundred). */
const QUERIES = ['Service', 'paymentMapper'];

/** The hit count of the tool's first line ("Matches for "x": first 50 of 943." → "943"). */
function hitCount(head: string): string {
  return /(?:of |: )([\d,]+\+?)\.(?: |$)/.exec(head)?.[1] ?? '?';
}

/** Runs case 12. */
export async function agentSearchRows(settings: BenchSettings): Promise<Row[]> {
  const files = settings.context.files;
  const label = `${files.toLocaleString('en-US')} files`;
  const unavailable = editorUnavailable();
  if (unavailable) return [skippedRow(CASE, `${label}: search_text`, '≤ 1.3× / ≤ 50 ms', unavailable)];
  const job: AgentSearchJob = { queries: QUERIES, rounds: settings.context.rounds * 2 };
  const started = Date.now();
  const r = await runInExtensionHost<AgentSearchJob, AgentSearchResults>(
    (await productionStage()).dir,
    job,
    900_000,
    {
      name: 'agentSearchExthost',
      prepare(folder) {
        writeWorkspace(folder, files);
        console.log(`[bench]   generated ${files} files in ${Date.now() - started} ms`);
      },
    },
  );
  return r.results.flatMap((q) => {
    const ratio = medianRatio(q.ours, q.direct);
    const block = Math.max(...q.probes.map((p) => p.maxBusyDriftMs));
    return [
      {
        case: CASE,
        figure: `${label}: search_text \`${q.query}\` (${hitCount(q.hits)} hits), median of ${q.ours.length}`,
        ours: fmtMs(median(q.ours)),
        baseline: `${fmtMs(median(q.direct))} (the same rg and arguments run directly, ${fmtBytes(q.directBytes)} of JSON read)`,
        ratio: fmtRatio(ratio),
        budget: '≤ 1.3×',
        status: verdict(ratio <= 1.3),
        note: `VS Code's own ripgrep (${r.rg.replace(/^.*\/node_modules\//, 'node_modules/')}); the tool parses the JSON, keeps 50 hits and counts the rest; ratio is the median of per-round ratios`,
        data: { ours: q.ours, direct: q.direct },
      },
      {
        case: CASE,
        figure: `${label}: longest extension-host block during search_text \`${q.query}\``,
        ours: fmtMs(block),
        baseline: '–',
        ratio: '–',
        budget: '≤ 50 ms',
        status: verdict(block <= 50),
        note: 'event-loop drift net of waiting for a core (probes.ts maxBusyDriftMs)',
        data: { probes: q.probes },
      },
    ];
  });
}
