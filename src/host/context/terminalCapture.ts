import stripAnsi from 'strip-ansi';
import * as vscode from 'vscode';

/** Output beyond this is dropped from the start: the end of a long build log is the part that explains it. */
const MAX_OUTPUT_CHARS = 200_000;

/** The last finished command of a terminal, with its output as plain text. */
export interface TerminalCommand {
  commandLine: string;
  output: string;
  exitCode: number | undefined;
}

/**
 * Keeps the output of the last command of every terminal, read through shell integration. Output can only be
 * read while a command runs, so it is collected from the start of each execution, not on request.
 */
export class TerminalCapture implements vscode.Disposable {
  private readonly last = new WeakMap<vscode.Terminal, TerminalCommand>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.disposables.push(
      vscode.window.onDidStartTerminalShellExecution((event) => void this.collect(event)),
    );
  }

  /** The active terminal's last command, or a sentence saying why there is none. */
  lastCommand(): { terminal: vscode.Terminal; command: TerminalCommand } | { unavailable: string } {
    const terminal = vscode.window.activeTerminal;
    if (!terminal)
      return {
        unavailable: vscode.l10n.t('No terminal is open: run the command in the integrated terminal first.'),
      };
    const command = this.last.get(terminal);
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
    let drained!: () => void;
    const ended = exitCodeOf(event, new Promise<void>((resolve) => (drained = resolve)));
    let raw = '';
    try {
      for await (const data of event.execution.read()) {
        raw += data;
        if (raw.length > MAX_OUTPUT_CHARS * 2) raw = raw.slice(-MAX_OUTPUT_CHARS * 2);
      }
    } catch {
      // A terminal killed mid-command ends the stream with an error; keep what arrived.
    }
    drained();
    const output = cleanOutput(raw).slice(-MAX_OUTPUT_CHARS);
    const exit = await ended;
    this.last.set(event.terminal, { commandLine: event.execution.commandLine.value, output, exitCode: exit });
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

/** Escape sequences out, carriage-return overwrites resolved to their last state, line ends normalised. */
export function cleanOutput(raw: string): string {
  return stripAnsi(raw)
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1))
    .join('\n')
    .trimEnd();
}

/**
 * The execution's exit code. Listened for from the start, since the end event may fire before the output stream
 * closes; once the stream is drained (`drained` resolves) it waits one more second at most.
 */
async function exitCodeOf(
  event: vscode.TerminalShellExecutionStartEvent,
  drained: Promise<void>,
): Promise<number | undefined> {
  let listener: vscode.Disposable | undefined;
  const ended = new Promise<number | undefined>((resolve) => {
    listener = vscode.window.onDidEndTerminalShellExecution((end) => {
      if (end.execution === event.execution) resolve(end.exitCode);
    });
  });
  const late = drained.then(
    () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000)),
  );
  try {
    return await Promise.race([ended, late]);
  } finally {
    listener?.dispose();
  }
}
