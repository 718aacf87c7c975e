// One command sent to a terminal and read through shell integration: the execution VS Code pairs with it (or the
// one it starts instead), and whether the shell reported the command starting at all.
import * as vscode from 'vscode';
import type { TerminalRun } from '../../chat/context/terminalOutput';
import { readExecution } from '../context/terminalCapture';

/** Raw output kept while a command runs (the loop cuts the result to the token budget, keeping the end). */
const MAX_OUTPUT_CHARS = 400_000;

/**
 * Longest wait for the shell to report a command starting. VS Code waits up to 5 s for a new shell's prompt before
 * it sends the command; past this, shell integration lost track of it (VS Code's own agent meets the same).
 */
export const START_REPORT_SECONDS = 15;

/** A sent command, read through shell integration. */
export interface Followed {
  /** The command's run, once its execution ends (or `cutOff` stops the reading). */
  reading: Promise<TerminalRun>;
  /** Resolves when the shell has reported no execution starting within `START_REPORT_SECONDS`. */
  unreported: Promise<'unreported'>;
  /** How long the command took, and how long the shell took to report it (for the log). */
  timing(): string;
  dispose(): void;
}

/** Sends `command` and reads the execution the shell reports for it. */
export function follow(
  terminal: vscode.Terminal,
  shellIntegration: vscode.TerminalShellIntegration,
  command: string,
  cutOff: AbortSignal,
  log: { warn(message: string): void } | undefined,
): Followed {
  const sentAt = Date.now();
  let startedAt: number | undefined;
  const execution = shellIntegration.executeCommand(command);
  // Read now, before any await: VS Code forwards data only to a stream that exists when it arrives, and the
  // execution object exists from executeCommand on, so the reader listens before the shell can answer.
  const own = readExecution(execution, MAX_OUTPUT_CHARS, cutOff);
  let readOther: (run: Promise<TerminalRun>) => void = () => undefined;
  // VS Code pairs the shell's report with our execution by its command line; when the shell reports another
  // line, VS Code starts a new execution instead and ours never starts: read that one, rather than waiting forever.
  const reported = new Promise<TerminalRun>((resolve) => (readOther = resolve));
  const started = vscode.window.onDidStartTerminalShellExecution((e) => {
    if (e.terminal !== terminal) return;
    const first = startedAt === undefined;
    startedAt ??= Date.now();
    // Only the first report counts: a later one is another command, not this one's stand-in.
    if (e.execution === execution || !first) return;
    log?.warn(
      `run_command: the shell reported ${JSON.stringify(e.execution.commandLine.value)} starting instead of the command sent; reading that`,
    );
    readOther(readExecution(e.execution, MAX_OUTPUT_CHARS, cutOff));
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unreported = new Promise<'unreported'>((resolve) => {
    timer = setTimeout(() => {
      if (startedAt === undefined) resolve('unreported');
    }, START_REPORT_SECONDS * 1000);
  });
  return {
    reading: Promise.race([own, reported]),
    unreported,
    timing: () =>
      `ended after ${Date.now() - sentAt} ms` +
      (startedAt === undefined
        ? ' (its start never reported)'
        : ` (start reported after ${startedAt - sentAt} ms)`),
    dispose: () => {
      clearTimeout(timer);
      started.dispose();
    },
  };
}
