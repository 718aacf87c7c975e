/** Helper processes: the emulator runs apart from the code under measurement, so the two never share a thread. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type EmulatorOptions, startEmulator } from '../gateway-emulator';
import { flag } from '../support/args';

/** A running child that announced itself with one JSON line. */
export interface Child<T> {
  info: T;
  process: ChildProcess;
  /** Stops the child (SIGTERM, then SIGKILL after a grace period). */
  stop(): Promise<void>;
}

/** The bench's own compiled entry, which also serves as every child's entry. */
function entry(): string {
  return process.argv[1];
}

/** Spawns `node <bench entry> --child=<kind> <args>` and resolves with the first JSON line it prints. */
export function spawnChild<T>(
  kind: string,
  args: string[],
  timeoutMs = 120_000,
  nodeArgs: string[] = [],
): Promise<Child<T>> {
  const child = spawn(process.execPath, [...nodeArgs, entry(), `--child=${kind}`, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`child ${kind} printed nothing within ${timeoutMs} ms`));
    }, timeoutMs);
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve({ info: JSON.parse(line) as T, process: child, stop });
      } catch {
        void stop();
        reject(new Error(`child ${kind} printed: ${line.slice(0, 200)}`));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`child ${kind} exited (code ${code}, signal ${signal}) before reporting`));
    });
  });
}

/** Runs a one-shot child to completion and resolves with its JSON result line. */
export async function runChild<T>(
  kind: string,
  args: string[],
  timeoutMs: number,
  nodeArgs: string[] = [],
): Promise<T> {
  const child = await spawnChild<T>(kind, args, timeoutMs, nodeArgs);
  await child.stop();
  return child.info;
}

/** Starts the emulator in its own process; resolves with its URL. */
export function spawnEmulator(
  options: Pick<EmulatorOptions, 'chunkSize'> = {},
): Promise<Child<{ url: string }>> {
  return spawnChild<{ url: string }>('emulator', [`--options=${JSON.stringify(options)}`]);
}

/** Child side of spawnEmulator: starts the emulator, prints its URL and runs until killed. */
export async function emulatorChild(argv: readonly string[]): Promise<void> {
  const raw = flag('options', argv) ?? '{}';
  const options = JSON.parse(raw) as Pick<EmulatorOptions, 'chunkSize'>;
  const emulator = await startEmulator({ ...options, port: 0 });
  process.once('SIGTERM', () => void emulator.close().then(() => process.exit(0)));
  console.log(JSON.stringify({ url: emulator.url }));
}
