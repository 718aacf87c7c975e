/**
 * Extension-host entry of case 14 (loaded as extensionTestsPath in the real editor): real Agent-mode runs of the
 * chat session against the emulator in this same process (one clock), on the emulator's `long` script, which
 * reads one line of src/sample.ts per step until the step limit. The bench fills that file with 10 KB lines, so
 * each result is 10 KB, as in case 13. Per step: the end of the model's response (the emulator's last write), the
 * read_file tool's own run (timed by wrapping the run's tools from outside: the production code is not changed
 * for it), and the next request's body fully read by the emulator. Writes its measurements to
 * MODEL_GATEWAY_BENCH_RESULTS.
 */
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AssistantTurn } from '../../src/chat/types';
import type { ModelGatewayApi } from '../../src/extension';
import { EMULATOR_TEST_KEY, type RecordedRequest, startEmulator } from '../gateway-emulator';
import { waitFor } from '../support/poll';
import { timeBuiltinTools } from './agentToolTiming';

/** What the bench asks the extension host to run. */
export interface AgentLoopJob {
  /** modelGateway.agent.maxSteps: requests per run. */
  steps: number;
  runs: number;
  warmup: number;
}

/** One step k: from the end of response k to request k+1 on the wire (ms, one clock). */
export interface StepTiming {
  /** Response k's last write → request k+1's body read by the emulator. */
  gapMs: number;
  /** The read_file tool's own run, within the gap. */
  toolMs: number;
  /** The tool's result in → request k+1's body read (the loop, the posts and the client after the tool). */
  resultToWireMs: number;
  /** Response k's last write → the tool called (the stream's end read, the call parsed, the row posted). */
  beforeToolMs: number;
  /** Characters of the tool's result. */
  resultChars: number;
}

/** Result file. */
export interface AgentLoopResults {
  node: string;
  vscode: string;
  runs: StepTiming[][];
  protocol?: string;
  /** Bytes of request k+1's body, for the last step of the last run. */
  lastBodyBytes?: number;
  error?: string;
}

interface ToolRun {
  began: number;
  done: number;
  chars: number;
}

/** The chat requests of one run, in order. */
function chatRequests(all: RecordedRequest[], since: number): RecordedRequest[] {
  return all.slice(since).filter((r) => r.path.split('?')[0] === '/v1/chat/completions');
}

/** Per-step timings of one run from the emulator's records and the tools' runs. */
function stepTimings(requests: RecordedRequest[], tools: ToolRun[], steps: number): StepTiming[] {
  if (requests.length !== steps || tools.length !== steps)
    throw new Error(`a run made ${requests.length} requests and ${tools.length} tool runs, not ${steps}`);
  const out: StepTiming[] = [];
  for (let k = 0; k + 1 < steps; k++) {
    const end = requests[k].writes?.at(-1)?.at;
    const next = requests[k + 1].bodyAt;
    if (end === undefined || next === undefined) throw new Error(`step ${k + 1} has no timestamps`);
    const tool = tools[k];
    if (!(end <= tool.began && tool.done <= next))
      throw new Error(`step ${k + 1}: the tool did not run between the response and the next request`);
    out.push({
      gapMs: next - end,
      toolMs: tool.done - tool.began,
      resultToWireMs: next - tool.done,
      beforeToolMs: tool.began - end,
      resultChars: tool.chars,
    });
  }
  return out;
}

/** The test entry VS Code calls. */
export async function run(): Promise<void> {
  const out = process.env.MODEL_GATEWAY_BENCH_RESULTS ?? '';
  const job = JSON.parse(process.env.MODEL_GATEWAY_BENCH_JOB ?? '{}') as AgentLoopJob;
  const results: AgentLoopResults = { node: process.version, vscode: vscode.version, runs: [] };
  const emulator = await startEmulator({ port: 0, recordWrites: true });
  const settings = vscode.workspace.getConfiguration('modelGateway');
  let release = (): void => undefined;
  let panel: vscode.WebviewPanel | undefined;
  try {
    await settings.update('baseUrl', emulator.url, vscode.ConfigurationTarget.Global);
    await settings.update('agent.maxSteps', job.steps, vscode.ConfigurationTarget.Global);
    const ok = await vscode.commands.executeCommand<boolean>('modelGateway.setApiKey', {
      key: EMULATOR_TEST_KEY,
    });
    if (ok !== true) throw new Error('could not set the API key');
    const api = (await vscode.extensions
      .getExtension<ModelGatewayApi>('modelgateway.model-gateway')!
      .activate())!;
    const opened = await api.openChatSession();
    release = opened.release;
    const { session } = opened;
    // A webview to post to, as the chat has one: without it the run's posts (rows, deltas) would cost nothing.
    panel = vscode.window.createWebviewPanel('modelGatewayBench', 'Bench', vscode.ViewColumn.Active, {
      enableScripts: false,
    });
    panel.webview.html = '<!DOCTYPE html><html><body></body></html>';
    session.attach(panel.webview);
    const tools: ToolRun[] = [];
    timeBuiltinTools(session.agent, (run) =>
      tools.push({ began: run.began, done: run.done, chars: run.content.length }),
    );
    for (let i = 0; i < job.warmup + job.runs; i++) {
      await session.receive({ type: 'newChat' });
      await session.receive({ type: 'setMode', mode: 'agent' });
      if (session.conversation.mode !== 'agent') throw new Error('Agent mode is not available');
      const since = emulator.requests.length;
      tools.length = 0;
      await session.receive({ type: 'send', text: 'Read src/sample.ts line by line [[agent:long]]' });
      const turn = session.conversation.turns.at(-1) as AssistantTurn;
      await waitFor(() => (turn.status !== 'streaming' ? true : undefined), 'the agent run to end', 120_000);
      if (!turn.agent?.paused)
        throw new Error(
          `the run did not stop at the step limit: ${turn.status} ${JSON.stringify(turn.error)}`,
        );
      const requests = chatRequests(emulator.requests, since);
      const timings = stepTimings(requests, tools, job.steps);
      if (i >= job.warmup) results.runs.push(timings);
      results.protocol = turn.agent.protocol;
      results.lastBodyBytes = JSON.stringify(requests.at(-1)?.body ?? '').length;
      emulator.reset();
    }
    await session.receive({ type: 'newChat' });
  } catch (error) {
    results.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  } finally {
    release();
    panel?.dispose();
    await emulator.close();
  }
  writeFileSync(out, JSON.stringify(results));
}
