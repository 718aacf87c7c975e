/**
 * Extension-host entry of case 18 (loaded as extensionTestsPath in the real editor): real Agent-mode runs of the
 * chat session on the emulator's `command-print` script, whose one run_command (`node -e "console.log(6*7)"`) the
 * user's own allow-list approves (`modelGateway.agent.autoApprove: ["node"]`), so no click is in the way. Per run:
 * the shell-integration end event of the command (heard by a listener of this process, one clock with the
 * emulator), the run_command tool's return (timed by wrapping the run's tools from outside), and the next request's
 * body fully read by the emulator. Writes its measurements to MODEL_GATEWAY_BENCH_RESULTS.
 */
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { AssistantTurn } from '../../src/chat/types';
import type { ModelGatewayApi } from '../../src/extension';
import { EMULATOR_TEST_KEY, startEmulator } from '../gateway-emulator';
import { waitFor } from '../support/poll';
import { clock, timeBuiltinTools } from './agentToolTiming';

/** What the bench asks the extension host to run. */
export interface AgentCommandJob {
  runs: number;
  warmup: number;
}

/** One run: from the command's end event to the next request on the wire (ms, one clock). */
export interface CommandTiming {
  /** The end event → request 2's body read by the emulator. */
  endToWireMs: number;
  /** The end event → the run_command tool returned (the output stream drained, the result formatted). */
  endToToolMs: number;
  /** The tool returned → request 2's body read (the loop, the row posts, the client). */
  toolToWireMs: number;
  /** The command's whole run as the tool saw it: executeCommand → returned. */
  toolMs: number;
}

/** Result file. */
export interface AgentCommandResults {
  node: string;
  vscode: string;
  runs: CommandTiming[];
  error?: string;
}

/** The test entry VS Code calls. */
export async function run(): Promise<void> {
  const out = process.env.MODEL_GATEWAY_BENCH_RESULTS ?? '';
  const job = JSON.parse(process.env.MODEL_GATEWAY_BENCH_JOB ?? '{}') as AgentCommandJob;
  const results: AgentCommandResults = { node: process.version, vscode: vscode.version, runs: [] };
  const emulator = await startEmulator({ port: 0, recordWrites: true });
  const settings = vscode.workspace.getConfiguration('modelGateway');
  // Every end event with its command line: the line shell integration reports for a terminal's first command
  // can differ from the one sent (a run once saw no event with the exact line), so the command's end is the last
  // event before the tool returned, which waits for it.
  const ends: Array<{ at: number; line: string }> = [];
  const listener = vscode.window.onDidEndTerminalShellExecution((e) => {
    ends.push({ at: clock(), line: e.execution.commandLine.value });
  });
  let release = (): void => undefined;
  let panel: vscode.WebviewPanel | undefined;
  try {
    await settings.update('baseUrl', emulator.url, vscode.ConfigurationTarget.Global);
    await settings.update('agent.autoApprove', ['node'], vscode.ConfigurationTarget.Global);
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
    panel = vscode.window.createWebviewPanel('modelGatewayBench', 'Bench', vscode.ViewColumn.Active, {
      enableScripts: false,
    });
    panel.webview.html = '<!DOCTYPE html><html><body></body></html>';
    session.attach(panel.webview);
    const tools: Array<{ began: number; done: number; content: string }> = [];
    timeBuiltinTools(session.agent, (run) => tools.push(run), ['run_command']);
    for (let i = 0; i < job.warmup + job.runs; i++) {
      await session.receive({ type: 'newChat' });
      await session.receive({ type: 'setMode', mode: 'agent' });
      if (session.conversation.mode !== 'agent') throw new Error('Agent mode is not available');
      const since = emulator.requests.length;
      tools.length = 0;
      ends.length = 0;
      await session.receive({ type: 'send', text: 'Run it [[agent:command-print]]' });
      const turn = session.conversation.turns.at(-1) as AssistantTurn;
      await waitFor(() => (turn.status !== 'streaming' ? true : undefined), 'the agent run to end', 60_000);
      const requests = emulator.requests
        .slice(since)
        .filter((r) => r.path.split('?')[0] === '/v1/chat/completions');
      const next = requests[1]?.bodyAt;
      const [tool] = tools;
      const end = tool && ends.filter((e) => e.at <= tool.done && e.line !== ':').at(-1)?.at;
      if (requests.length !== 2 || next === undefined || !tool || end === undefined)
        throw new Error(
          `run ${i + 1}: ${requests.length} requests, ${tools.length} command(s), end events ${JSON.stringify(ends.map((e) => e.line))}; ${turn.status} ${JSON.stringify(turn.error)}`,
        );
      if (!tool.content.startsWith('42\n'))
        throw new Error(`run ${i + 1}: the output was ${JSON.stringify(tool.content)}`);
      if (i >= job.warmup)
        results.runs.push({
          endToWireMs: next - end,
          endToToolMs: tool.done - end,
          toolToWireMs: next - tool.done,
          toolMs: tool.done - tool.began,
        });
      emulator.reset();
    }
    await session.receive({ type: 'newChat' });
  } catch (error) {
    results.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  } finally {
    listener.dispose();
    release();
    panel?.dispose();
    await settings.update('agent.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    await emulator.close();
  }
  writeFileSync(out, JSON.stringify(results));
}
