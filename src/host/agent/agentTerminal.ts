// The integrated terminal "Model Gateway Agent" where run_command runs, with shell integration: one idle terminal is
// reused while it stays in the wanted folder; a busy one (a command still running after a kill failed) is never
// shared, and a terminal whose shell moved elsewhere (`cd`) is replaced, so a command always runs where it says.
import * as vscode from 'vscode';

/** The terminal's name (the user sees it in the terminal list). */
// l10n-exempt: the product's name, which tests and users look for
export const AGENT_TERMINAL_NAME = 'Model Gateway Agent';

/** Environment that keeps commands from waiting on a pager the model cannot answer. */
const AGENT_ENV = { PAGER: 'cat', GIT_PAGER: 'cat' };

/** A terminal ready to run one command, or why there is none. */
export type ReadyTerminal =
  | {
      terminal: vscode.Terminal;
      shellIntegration: vscode.TerminalShellIntegration;
      /** The command is over; `reusable` false for a terminal that was killed. */
      release(reusable: boolean): void;
    }
  | { unavailable: 'noShellIntegration' | 'stopped' };

/** The agent's terminals. */
export class AgentTerminals implements vscode.Disposable {
  private readonly idle = new Set<vscode.Terminal>();
  private readonly busy = new Set<vscode.Terminal>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly shellIntegrationTimeoutMs = 20_000) {
    this.disposables.push(
      vscode.window.onDidCloseTerminal((t) => {
        this.idle.delete(t);
        this.busy.delete(t);
      }),
    );
  }

  /** A terminal in `cwd` with shell integration active, marked busy until `release()`. */
  async acquire(cwd: vscode.Uri, signal: AbortSignal): Promise<ReadyTerminal> {
    let terminal = [...this.idle].find((t) => sameFolder(t.shellIntegration?.cwd, cwd));
    for (const other of this.idle) if (other !== terminal) other.dispose();
    this.idle.clear();
    const fresh = terminal === undefined;
    if (!terminal) {
      terminal = vscode.window.createTerminal({ name: AGENT_TERMINAL_NAME, cwd, env: AGENT_ENV });
      // Shown now, not when the command is sent: the panel opening resizes the terminal, bash redraws its prompt,
      // and a command typed during that redraw ran with its end never reported (about one new terminal in seven).
      terminal.show(true);
    }
    this.busy.add(terminal);
    const shellIntegration = await shellIntegrationOf(terminal, this.shellIntegrationTimeoutMs, signal);
    if (shellIntegration && fresh) await settled(terminal, shellIntegration, signal);
    const chosen = terminal;
    const release = (reusable: boolean): void => {
      if (!this.busy.delete(chosen)) return;
      if (reusable && chosen.exitStatus === undefined) this.idle.add(chosen);
    };
    if (!shellIntegration) {
      // A shell that never reported shell integration is no use to the next command either.
      release(false);
      chosen.dispose();
      // l10n-exempt: ids
      return { unavailable: signal.aborted ? 'stopped' : 'noShellIntegration' };
    }
    return { terminal, shellIntegration, release };
  }

  dispose(): void {
    for (const t of [...this.idle, ...this.busy]) t.dispose();
    this.idle.clear();
    this.busy.clear();
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

/** Longest wait for a new shell's first (empty) command to end. */
const SETTLE_TIMEOUT_MS = 5_000;

/**
 * A new shell reports its integration while it is still drawing its first prompt, and a command sent then was seen
 * to run with its output in neither the terminal nor the execution's stream (the prompt and the command interleaved).
 * So a new terminal first runs the shell's no-op `:` and the command goes after it has ended, at a drawn prompt.
 */
async function settled(
  terminal: vscode.Terminal,
  shellIntegration: vscode.TerminalShellIntegration,
  signal: AbortSignal,
): Promise<void> {
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      ended.dispose();
      closed.dispose();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, SETTLE_TIMEOUT_MS);
    const ended = vscode.window.onDidEndTerminalShellExecution((e) => {
      if (e.terminal === terminal) done();
    });
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) done();
    });
    signal.addEventListener('abort', done, { once: true });
    shellIntegration.executeCommand(':');
  });
}

function sameFolder(a: vscode.Uri | undefined, b: vscode.Uri): boolean {
  return (
    a !== undefined && a.scheme === b.scheme && a.fsPath.replace(/\/+$/, '') === b.fsPath.replace(/\/+$/, '')
  );
}

/**
 * The terminal's shell integration, waiting for a new terminal's shell to report it (bounded): a shell without it
 * never does, and a command run blind could not be read or timed.
 */
function shellIntegrationOf(
  terminal: vscode.Terminal,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<vscode.TerminalShellIntegration | undefined> {
  if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    const done = (value: vscode.TerminalShellIntegration | undefined): void => {
      clearTimeout(timer);
      listener.dispose();
      closed.dispose();
      signal.removeEventListener('abort', stopped);
      resolve(value);
    };
    const stopped = (): void => done(undefined);
    const timer = setTimeout(() => done(terminal.shellIntegration), timeoutMs);
    const listener = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal === terminal) done(e.shellIntegration);
    });
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) done(undefined);
    });
    if (signal.aborted) return done(undefined);
    signal.addEventListener('abort', stopped, { once: true });
  });
}
