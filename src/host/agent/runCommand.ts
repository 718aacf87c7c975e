// run_command: a shell command in the "Model Gateway Agent" terminal, through shell integration, after the user's
// click (Run / Skip / Always Allow <prefix>) or the user's own allow-list. Never in Restricted Mode, never outside the
// workspace, never blind (without shell integration). A timeout or Stop interrupts it with Ctrl-C, then kills the
// terminal when that is not enough.
import * as vscode from 'vscode';
import { autoApprovingEntry, commandPrefix, withAllowed } from '../../agent/commandPolicy';
import {
  COMMAND_DECLINED,
  NO_SHELL_INTEGRATION,
  commandFailed,
  commandResultText,
  type CommandEnd,
} from '../../agent/commandResult';
import type { ToolResult } from '../../agent/types';
import type { ApprovalChoice, ApprovalChoiceId } from '../../chat/agentTurn';
import type { AgentTerminals } from './agentTerminal';
import { START_REPORT_SECONDS, follow } from './followCommand';
import { refused } from './refusals';
import type { HostTool } from './types';
import { resolveWorkspacePath } from './workspaceFiles';

/** How long Ctrl-C has to end a command before its terminal is killed. */
const INTERRUPT_GRACE_MS = 3000;

/** What run_command needs from the run. */
export interface CommandEnv {
  terminals: AgentTerminals;
  /** The user's allow-list and timeout, read when a command comes (an Always Allow earlier in the run counts). */
  settings(): { autoApprove: readonly string[]; timeoutSeconds: number };
  /** Asks on the call's row; only a click resolves it (undefined on Stop). */
  ask(
    question: string,
    choices: readonly ApprovalChoice[],
    signal: AbortSignal,
  ): Promise<ApprovalChoiceId | undefined>;
  /** Adds a prefix to the user's `modelGateway.agent.autoApprove`. */
  allow(prefix: string): Promise<void>;
  log?: { info(message: string): void; warn(message: string): void };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Adds `prefix` to the user-level `modelGateway.agent.autoApprove` (a workspace cannot approve commands). */
export async function allowInUserSettings(prefix: string): Promise<void> {
  const section = vscode.workspace.getConfiguration('modelGateway');
  const current = section.inspect<unknown>('agent.autoApprove')?.globalValue;
  const list = Array.isArray(current) ? current.filter((s): s is string => typeof s === 'string') : [];
  await section.update('agent.autoApprove', withAllowed(list, prefix), vscode.ConfigurationTarget.Global);
}

/** The run_command tool. */
export function runCommandTool(env: CommandEnv): HostTool {
  return async (input, signal) => {
    const command = text(input.command).trim();
    const given = text(input.cwd).trim() || '.';
    if (!vscode.workspace.isTrusted)
      return {
        // l10n-exempt: read by the model
        content: 'Refused: the workspace is in Restricted Mode, where commands are never run.',
        isError: true,
        summary: vscode.l10n.t('Not run in Restricted Mode: {0}', command),
      };
    if (!command)
      // l10n-exempt: read by the model
      return { content: 'Error: the command is empty.', isError: true };
    const place = await resolveWorkspacePath(given, { allowRoot: true });
    if ('refusal' in place) return refused(given, place.refusal);
    const folderOk = await Promise.resolve(vscode.workspace.fs.stat(place.uri)).then(
      (s) => (s.type & vscode.FileType.Directory) !== 0,
      () => false,
    );
    if (!folderOk)
      return {
        // l10n-exempt: read by the model
        content: `Error: ${JSON.stringify(place.shown)} is not a folder of the workspace.`,
        isError: true,
      };
    const allowedBy = autoApprovingEntry(command, env.settings().autoApprove);
    if (allowedBy === undefined) {
      const folder = place.shown === '.' ? place.folder.name : place.shown;
      const answer = await askToRun(env, command, folder, signal);
      if (answer === undefined || answer === 'skip')
        return {
          content: COMMAND_DECLINED,
          isError: true,
          summary: vscode.l10n.t('Skipped: {0}', command),
        };
      if (answer === 'alwaysAllow') {
        const prefix = commandPrefix(command);
        if (prefix !== undefined) await env.allow(prefix);
      }
    } else {
      env.log?.info(`run_command auto-approved by "${allowedBy}": ${command}`);
    }
    // The timeout as it is when the command starts (the user may have changed it while the question waited).
    return run(env, command, place.uri, env.settings().timeoutSeconds, signal);
  };
}

/** Asks Run / Skip / Always Allow `<prefix>` (no Always Allow for a command that can never be allowed). */
function askToRun(
  env: CommandEnv,
  command: string,
  folder: string,
  signal: AbortSignal,
): Promise<ApprovalChoiceId | undefined> {
  const prefix = commandPrefix(command);
  const choices: ApprovalChoice[] = [
    { id: 'run', label: vscode.l10n.t('Run') },
    { id: 'skip', label: vscode.l10n.t('Skip') },
    ...(prefix !== undefined
      ? [{ id: 'alwaysAllow' as const, label: vscode.l10n.t('Always Allow {0}', prefix) }]
      : []),
  ];
  return env.ask(vscode.l10n.t('Run `{0}` in {1}?', command, folder), choices, signal);
}

/** Runs the command and reads it to its end, its timeout, Stop, or the shell never reporting it. */
async function run(
  env: CommandEnv,
  command: string,
  cwd: vscode.Uri,
  timeoutSeconds: number,
  signal: AbortSignal,
): Promise<ToolResult> {
  const ready = await env.terminals.acquire(cwd, signal);
  if ('unavailable' in ready)
    return ready.unavailable === 'stopped'
      ? { content: commandResultText({ output: '', end: { kind: 'stopped', killed: false } }), isError: true }
      : {
          content: NO_SHELL_INTEGRATION,
          isError: true,
          summary: vscode.l10n.t('Not run (no shell integration): {0}', command),
        };
  const { terminal, shellIntegration } = ready;
  terminal.show(true);
  const cutOff = new AbortController();
  env.log?.info(`run_command in ${cwd.fsPath} (timeout ${timeoutSeconds} s): ${command}`);
  const followed = follow(terminal, shellIntegration, command, cutOff.signal, env.log);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = (): void => undefined;
  const interrupted = new Promise<'timedOut' | 'stopped'>((resolve) => {
    timer = setTimeout(() => resolve('timedOut'), timeoutSeconds * 1000);
    onAbort = () => resolve('stopped');
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  let reusable = true;
  try {
    const first = await Promise.race([followed.reading, interrupted, followed.unreported]);
    let end: CommandEnd;
    let output: string | undefined;
    if (typeof first === 'object') {
      end = { kind: 'exited', exitCode: first.exitCode };
      output = first.output;
      env.log?.info(
        `run_command ${followed.timing()}, exit code ${first.exitCode ?? 'not reported'}: ${command}`,
      );
    } else if (first === 'unreported') {
      // Nothing can be read from a command the shell never reported; the terminal is left to the user, not reused.
      cutOff.abort();
      reusable = false;
      end = { kind: 'unreported', seconds: START_REPORT_SECONDS };
      env.log?.warn(
        `run_command: the shell did not report the command starting within ${START_REPORT_SECONDS} s (shell integration lost track of it); terminal "${terminal.name}" is left open and not reused: ${command}`,
      );
    } else {
      const killed = await interrupt(terminal, followed.reading, cutOff);
      reusable = !killed;
      const runSoFar = await followed.reading;
      output = runSoFar.output;
      end =
        first === 'timedOut'
          ? { kind: 'timedOut', seconds: timeoutSeconds, killed }
          : { kind: 'stopped', killed };
      env.log?.info(`run_command ${end.kind}${killed ? ' (terminal killed)' : ''}: ${command}`);
    }
    return {
      content: commandResultText({ output, end }),
      isError: commandFailed(end),
      summary: summaryOf(command, end),
    };
  } finally {
    clearTimeout(timer);
    followed.dispose();
    signal.removeEventListener('abort', onAbort);
    ready.release(reusable);
  }
}

/** Ctrl-C, then the terminal killed if the command has not ended within the grace time; true when killed. */
async function interrupt(
  terminal: vscode.Terminal,
  reading: Promise<unknown>,
  cutOff: AbortController,
): Promise<boolean> {
  terminal.sendText('\u0003', false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<'late'>(
    (resolve) => (timer = setTimeout(() => resolve('late'), INTERRUPT_GRACE_MS)),
  );
  const ended = await Promise.race([reading.then(() => 'ended' as const), grace]);
  clearTimeout(timer);
  if (ended === 'ended') return false;
  terminal.dispose();
  cutOff.abort();
  return true;
}

function summaryOf(command: string, end: CommandEnd): string {
  switch (end.kind) {
    case 'exited':
      return end.exitCode === undefined
        ? vscode.l10n.t('Ran {0}', command)
        : vscode.l10n.t('Ran {0}: exit code {1}', command, end.exitCode);
    case 'timedOut':
      return vscode.l10n.t('Ran {0}: timed out after {1} s', command, end.seconds);
    case 'stopped':
      return vscode.l10n.t('Ran {0}: stopped', command);
    case 'unreported':
      return vscode.l10n.t('Sent {0}: the shell did not report it', command);
  }
}
