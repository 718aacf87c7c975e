import { spawn } from 'node:child_process';

/** How a streamed ripgrep run ended. */
export interface RipgrepEnd {
  /** 0 found, 1 found nothing, 2 an error (possibly after some results); null when it was stopped. */
  code: number | null;
  /** True when the signal aborted the run or the caller left the loop early. */
  stopped: boolean;
  /** The start of what ripgrep wrote to stderr (its error messages). */
  stderr: string;
}

/**
 * Runs ripgrep with `args` (no shell) in `cwd` and yields its output's lines, one pipe chunk (about 64 KB) at a
 * time. The pipe is read only as fast as the caller asks for chunks, so a caller that yields to the event loop
 * holds ripgrep back instead of piling its output up in memory. Leaving the loop early, or the signal, kills
 * ripgrep. Throws when it could not be started at all; the generator's return value says how it ended.
 * Free of the vscode API, so it is unit-tested with any program in ripgrep's place.
 */
export async function* ripgrepLines(
  rg: string,
  args: readonly string[],
  cwd: string,
  signal: AbortSignal,
  onSpawn?: (command: string, args: readonly string[]) => void,
): AsyncGenerator<string[], RipgrepEnd, undefined> {
  signal.throwIfAborted();
  const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  onSpawn?.(rg, args);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  const ended = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  // Awaited when the run goes to its end; a run left early, or whose output failed, never awaits it.
  ended.catch(() => undefined);
  let stopped = false;
  let closed = false;
  void ended.then(
    () => (closed = true),
    () => (closed = true),
  );
  const stop = (): void => {
    stopped = true;
    if (!closed) child.kill();
  };
  signal.addEventListener('abort', stop, { once: true });
  try {
    child.stdout.setEncoding('utf8');
    let rest = '';
    for await (const chunk of child.stdout as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      if (lines.length) yield lines;
      if (stopped) break;
    }
    if (rest && !stopped) yield [rest];
    const code = await ended;
    return { code: stopped ? null : code, stopped, stderr };
  } finally {
    signal.removeEventListener('abort', stop);
    // The caller left the loop (or an error ended it) while ripgrep still runs: nobody reads its output now.
    if (!closed) stop();
  }
}
