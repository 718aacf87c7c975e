/**
 * What `run_command` tells the model: the output (plain text), then how the command ended. The end comes last
 * because a long output is cut at its start (the loop keeps the tail), and the exit code must survive the cut.
 */
import { OUTPUT_NOT_CAPTURED } from '../chat/context/terminalOutput';

/** How a command ended. */
export type CommandEnd =
  | { kind: 'exited'; exitCode: number | undefined }
  | { kind: 'timedOut'; seconds: number; killed: boolean }
  | { kind: 'stopped'; killed: boolean }
  /** The shell never reported the command starting: shell integration lost track of it, so nothing can be read. */
  | { kind: 'unreported'; seconds: number };

/** One run of a command, as the tool saw it. */
export interface CommandOutcome {
  /** The output, ANSI codes out; `undefined` when the stream never reached the extension (unknown, not empty). */
  output: string | undefined;
  end: CommandEnd;
}

/** What the model reads when the terminal has no shell integration: the command was not run blind. */
export const NO_SHELL_INTEGRATION =
  'Not run: shell integration is not available in the terminal (the shell does not support it, or it is turned off), so the command could not be run and read safely. Ask the user to run it.';

/** The sentence the model reads when the user clicks Skip. */
export const COMMAND_DECLINED = 'The user declined to run this command.';

function endLine(end: CommandEnd): string {
  const how = (killed: boolean): string =>
    killed ? 'It did not end on Ctrl-C, so its terminal was killed.' : 'It was interrupted with Ctrl-C.';
  switch (end.kind) {
    case 'exited':
      return end.exitCode === undefined
        ? '[the command ended; the shell did not report its exit code]'
        : `[exit code ${end.exitCode}]`;
    case 'timedOut':
      return `[timed out after ${end.seconds} s: ${how(end.killed)} The output so far is above.]`;
    case 'stopped':
      return `[stopped by the user: ${how(end.killed)}]`;
    case 'unreported':
      return `[the shell did not report the command starting within ${end.seconds} s: the terminal's shell integration lost track of it, so its output and exit code cannot be read. It may have run, or may still be running, in the terminal left open for the user: check its effects before running it again.]`;
  }
}

/** The result text: the output (or why there is none), then the end. */
export function commandResultText(outcome: CommandOutcome): string {
  // Nothing of an unreported command was seen, not even that it ran: the end line says it all.
  if (outcome.end.kind === 'unreported') return endLine(outcome.end);
  const body =
    outcome.output === undefined
      ? OUTPUT_NOT_CAPTURED
      : outcome.output === ''
        ? '[no output]'
        : outcome.output;
  return `${body}\n${endLine(outcome.end)}`;
}

/** True when the command did not end well: a non-zero exit code, a timeout or a stop. */
export function commandFailed(end: CommandEnd): boolean {
  return end.kind !== 'exited' || (end.exitCode !== undefined && end.exitCode !== 0);
}
