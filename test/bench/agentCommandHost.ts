/**
 * Case 17, a command's output reaching the model (issue 27): the shell-integration end event of a run_command →
 * the next request on the wire, over real Agent-mode runs of the chat session in the real editor
 * (agentCommandExthost.ts), the command approved by the user's allow-list. Budget from issue 27: ≤ 50 ms.
 */
import type { AgentCommandJob, AgentCommandResults } from './agentCommandExthost';
import { editorUnavailable, runInExtensionHost } from './editor';
import { type Row, fmtMs, skippedRow, verdict } from './report';
import type { BenchSettings } from './settings';
import { median } from './stats';
import { productionStage } from './stage';

const CASE = '18. Agent command: output to the model (extension host)';
const BUDGET_MS = 50;

/** Runs case 17. */
export async function agentCommandHostRows(settings: BenchSettings): Promise<Row[]> {
  const label =
    'run_command `node -e "console.log(6*7)"`: shell-integration end event → next request on the wire';
  const unavailable = editorUnavailable();
  if (unavailable) return [skippedRow(CASE, label, `≤ ${BUDGET_MS} ms`, unavailable)];
  const job: AgentCommandJob = { runs: settings.agent.hostRuns, warmup: settings.agent.hostWarmup };
  const r = await runInExtensionHost<AgentCommandJob, AgentCommandResults>(
    (await productionStage()).dir,
    job,
    600_000,
    { name: 'agentCommandExthost' },
  );
  const ours = median(r.runs.map((s) => s.endToWireMs));
  return [
    {
      case: CASE,
      figure: `${label} (median of ${r.runs.length} run${r.runs.length === 1 ? '' : 's'})`,
      ours: fmtMs(ours),
      baseline: `${fmtMs(median(r.runs.map((s) => s.toolMs)))} (the command's whole run as the tool saw it)`,
      ratio: '—',
      budget: `≤ ${BUDGET_MS} ms`,
      status: verdict(ours <= BUDGET_MS),
      note:
        `end event → tool returned ${fmtMs(median(r.runs.map((s) => s.endToToolMs)))} (output stream drained, result formatted); ` +
        `tool returned → wire ${fmtMs(median(r.runs.map((s) => s.toolToWireMs)))} (loop, row posts, client). ` +
        `Approved by modelGateway.agent.autoApprove ["node"]; the chat session in Agent mode with an empty webview attached, ` +
        `the emulator in the same process (one clock)`,
      data: { runs: r.runs },
    },
  ];
}
