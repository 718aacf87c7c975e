// Small process utilities: bounded waits, free ports, process-group control.
import { spawn, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';
import { get } from 'node:http';

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects with `message` when `promise` does not settle within `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} (after ${ms} ms)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asks the OS for a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** GETs `url` and resolves with the status code, or undefined on any connection error (bounded). */
export function httpStatus(url: string, timeoutMs = 2000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = get(url, { timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
  });
}

/** True while at least one process of the group `pgid` is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends SIGTERM to a process group, then SIGKILL after `graceMs`; resolves when the group is gone. */
export async function killGroup(pgid: number, graceMs = 5000): Promise<void> {
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-pgid, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  if (!groupAlive(pgid)) return;
  signal('SIGKILL');
  const hardDeadline = Date.now() + 5000;
  while (groupAlive(pgid) && Date.now() < hardDeadline) await sleep(100);
}

/** Result of a finished child process. */
export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a command to completion in its own process group, killing the group after `timeoutMs`. */
export function run(
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      if (child.pid) void killGroup(child.pid, 2000);
      output += `\n[harness] killed after ${options.timeoutMs} ms\n`;
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** One cleanup step. */
export type Cleanup = () => Promise<void> | void;

/** Cleanup steps run once, last-first, each bounded; both the normal path and a signal handler may call run(). */
export class Cleanups {
  private readonly steps: Cleanup[] = [];
  private running: Promise<void> | undefined;

  /** Registers a step (ignored once cleanup has started). */
  add(step: Cleanup): void {
    this.steps.push(step);
  }

  /** Runs the steps; later calls return the same promise. */
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.splice(0).reverse()) {
        await withTimeout(Promise.resolve().then(step), 20_000, 'cleanup').catch(() => undefined);
      }
    })();
    return this.running;
  }

  /** On SIGINT/SIGTERM/SIGHUP, runs the steps and exits 130; returns a function that removes the handlers. */
  onSignals(): () => void {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const handler = (signal: NodeJS.Signals): void => {
      console.error(`[harness] ${signal}: cleaning up`);
      void this.run().finally(() => process.exit(130));
    };
    for (const signal of signals) process.once(signal, handler);
    // A closed pipe on stdout (`| head`) must not crash the run before it cleans up.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
    return () => signals.forEach((signal) => process.off(signal, handler));
  }
}
