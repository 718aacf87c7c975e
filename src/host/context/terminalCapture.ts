import * as vscode from 'vscode';
import {
  OutputBuffer,
  RunHistory,
  TERMINAL_LIMITS,
  type TerminalLimits,
  type TerminalRun,
} from '../../chat/context/terminalOutput';

/**
 * Keeps the last commands of every terminal, read through shell integration. VS Code hands a command's output
 * only to readers present while it runs, so every execution is read from its start, not when attached.
 *
 * Even so, VS Code loses the output of a command that finishes at once: its start, output and end reach the
 * extension host together, and `read()` only begins listening a microtask after it is called, after the
 * output has gone by. Such a command is kept with its output marked as not captured, never as empty.
 */
export class TerminalCapture implements vscode.Disposable {
  private readonly history: RunHistory<vscode.Terminal>;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  constructor(private readonly limits: TerminalLimits = TERMINAL_LIMITS) {
    this.history = new RunHistory(limits);
    this.disposables.push(
      vscode.window.onDidStartTerminalShellExecution((event) => void this.collect(event)),
      vscode.window.onDidCloseTerminal((terminal) => this.history.delete(terminal)),
    );
  }

  /** The terminal's finished commands, oldest first (at most `limits.maxRuns`). */
  runs(terminal: vscode.Terminal): readonly TerminalRun[] {
    return this.history.list(terminal);
  }

  /** The active terminal's last command, or a sentence saying why there is none. */
  lastCommand(): { terminal: vscode.Terminal; command: TerminalRun } | { unavailable: string } {
    const terminal = vscode.window.activeTerminal;
    if (!terminal)
      return {
        unavailable: vscode.l10n.t('No terminal is open: run the command in the integrated terminal first.'),
      };
    const command = this.history.last(terminal);
    if (command) return { terminal, command };
    if (!terminal.shellIntegration) {
      return {
        unavailable: vscode.l10n.t(
          'Shell integration is not active in terminal "{0}", so its output cannot be read. Use bash, zsh, fish or PowerShell with terminal.integrated.shellIntegration.enabled on, then run the command again.',
          terminal.name,
        ),
      };
    }
    return {
      unavailable: vscode.l10n.t(
        'No command has finished in terminal "{0}" since Model Gateway started: run it again, then attach the terminal.',
        terminal.name,
      ),
    };
  }

  private async collect(event: vscode.TerminalShellExecutionStartEvent): Promise<void> {
    const run = await readExecution(event.execution, this.limits.maxOutputChars);
    if (!this.disposed) this.history.add(event.terminal, run);
  }

  dispose(): void {
    this.disposed = true;
    this.history.clear();
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

/**
 * Reads one execution to its end: its plain output (`undefined` when none arrived) and exit code. Call it as the
 * execution starts; for a command the extension runs itself, call it right after `executeCommand`, so that the
 * reader is listening before the command starts and nothing is lost. `cutOff` stops the reading with what arrived
 * so far: a killed terminal never ends its execution's stream.
 */
export async function readExecution(
  execution: vscode.TerminalShellExecution,
  maxOutputChars: number,
  cutOff?: AbortSignal,
): Promise<TerminalRun> {
  const buffer = new OutputBuffer(maxOutputChars);
  let drained!: () => void;
  const ended = exitCodeOf(execution, new Promise<void>((resolve) => (drained = resolve)));
  // `read()` is called here, synchronously: VS Code only forwards data to a stream that exists when it arrives.
  const chunks = execution.read()[Symbol.asyncIterator]();
  const cut = new Promise<'cut'>((resolve) => {
    if (cutOff?.aborted) resolve('cut');
    cutOff?.addEventListener('abort', () => resolve('cut'), { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([chunks.next(), cut]);
      if (next === 'cut' || next.done) break;
      buffer.append(next.value);
    }
  } catch {
    // A terminal killed mid-command ends the stream with an error; keep what arrived.
  }
  drained();
  return buffer.finish(execution.commandLine.value, await ended);
}

/**
 * The execution's exit code. Listened for from the start, since the end event may fire before the output stream
 * closes; once the stream is drained (`drained` resolves) it waits one more second at most.
 */
async function exitCodeOf(
  execution: vscode.TerminalShellExecution,
  drained: Promise<void>,
): Promise<number | undefined> {
  let listener: vscode.Disposable | undefined;
  let cancelWait = (): void => undefined;
  const ended = new Promise<number | undefined>((resolve) => {
    listener = vscode.window.onDidEndTerminalShellExecution((end) => {
      if (end.execution === execution) resolve(end.exitCode);
    });
  });
  const late = drained.then(
    () =>
      new Promise<undefined>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        cancelWait = () => clearTimeout(timer);
      }),
  );
  try {
    return await Promise.race([ended, late]);
  } finally {
    cancelWait();
    listener?.dispose();
  }
}
