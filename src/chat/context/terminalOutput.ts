/**
 * The output of terminal commands as read through shell integration: a bounded buffer for one command, a
 * bounded history per terminal, plain-text cleaning, and the text block that carries a command to the model.
 * Used by the chat's Terminal Output attachment; written to serve any reader of terminal commands.
 */
import stripAnsi from 'strip-ansi';

/** How much is kept. */
export interface TerminalLimits {
  /** Commands kept per terminal, the newest last. */
  maxRuns: number;
  /** Characters of plain output kept per command (the end: it is the part that explains a failure). */
  maxOutputChars: number;
  /** Characters of output kept per terminal, over all its commands (the newest command is always kept). */
  maxTerminalChars: number;
}

/** The limits the extension uses. */
export const TERMINAL_LIMITS: TerminalLimits = {
  maxRuns: 10,
  maxOutputChars: 200_000,
  maxTerminalChars: 1_000_000,
};

/** One finished command of a terminal. */
export interface TerminalRun {
  commandLine: string;
  /** Plain-text output; `undefined` when none of it reached the extension (unknown, not empty). */
  output: string | undefined;
  exitCode: number | undefined;
  /** Lines cut from the start of the output to keep within the limit. */
  droppedLines: number;
}

/**
 * The raw output of one command while it runs. Keeps at most twice the plain-text limit of raw text (escape
 * sequences take room), cut at a line start so no half escape sequence is left at the front.
 */
export class OutputBuffer {
  private raw = '';
  private chunks = 0;
  private droppedLines = 0;

  constructor(private readonly maxOutputChars: number) {}

  /** Adds a chunk of raw terminal data. */
  append(data: string): void {
    this.chunks++;
    this.raw += data;
    const cap = this.maxOutputChars * 2;
    if (this.raw.length <= cap) return;
    const start = lineStartAfter(this.raw, this.raw.length - cap);
    this.droppedLines += countLines(this.raw.slice(0, start));
    this.raw = this.raw.slice(start);
  }

  /**
   * True once any data arrived. VS Code starts forwarding a command's data at the shell's "command executed"
   * mark and includes that mark itself, so a command it forwarded always yields a chunk, even with no output;
   * no chunk at all means the output was lost on the way.
   */
  get received(): boolean {
    return this.chunks > 0;
  }

  /** The finished command: plain output (or `undefined` when nothing arrived) and what was cut. */
  finish(commandLine: string, exitCode: number | undefined): TerminalRun {
    if (!this.received) return { commandLine, output: undefined, exitCode, droppedLines: 0 };
    const clean = cleanOutput(this.raw);
    const cut =
      clean.length > this.maxOutputChars ? lineStartAfter(clean, clean.length - this.maxOutputChars) : 0;
    return {
      commandLine,
      output: clean.slice(cut),
      exitCode,
      droppedLines: this.droppedLines + countLines(clean.slice(0, cut)),
    };
  }
}

/** The start of the first line at or after `from`; `from` itself when that line starts too far on. */
function lineStartAfter(text: string, from: number): number {
  if (from <= 0 || text[from - 1] === '\n') return Math.max(0, from);
  const newline = text.indexOf('\n', from);
  return newline !== -1 && newline - from < 4096 ? newline + 1 : from;
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** The last commands of each terminal (or any other key), within the limits. */
export class RunHistory<K> {
  private readonly runs = new Map<K, TerminalRun[]>();

  constructor(private readonly limits: TerminalLimits) {}

  /** Records a finished command, dropping the oldest ones beyond the limits. */
  add(key: K, run: TerminalRun): void {
    const list = [...(this.runs.get(key) ?? []), run];
    let total = list.reduce((sum, r) => sum + (r.output?.length ?? 0), 0);
    while (list.length > 1 && (list.length > this.limits.maxRuns || total > this.limits.maxTerminalChars)) {
      total -= list.shift()?.output?.length ?? 0;
    }
    this.runs.set(key, list);
  }

  /** The key's commands, oldest first. */
  list(key: K): readonly TerminalRun[] {
    return this.runs.get(key) ?? [];
  }

  /** The key's newest command. */
  last(key: K): TerminalRun | undefined {
    return this.runs.get(key)?.at(-1);
  }

  /** Forgets a key (its terminal closed). */
  delete(key: K): void {
    this.runs.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.runs.clear();
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

/** Said in the block in place of output that never reached the extension, so the model does not read it as empty. */
export const OUTPUT_NOT_CAPTURED =
  '[output not captured: the terminal showed it, but it did not reach the extension, so it is unknown here, not empty]';

/** The text of a command as the model reads it: the command line, its output (or why there is none), its exit code. */
export function formatTerminalRun(run: TerminalRun): string {
  const lines = [`$ ${run.commandLine}`];
  if (run.output === undefined) lines.push(OUTPUT_NOT_CAPTURED);
  else {
    if (run.droppedLines > 0) lines.push(`[${run.droppedLines} earlier lines of output not kept]`);
    if (run.output) lines.push(run.output);
  }
  if (run.exitCode !== undefined) lines.push(`[exit code ${run.exitCode}]`);
  return lines.join('\n');
}
