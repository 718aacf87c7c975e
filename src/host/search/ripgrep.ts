import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

/** Where a caller's ripgrep comes from, and who is told when it starts (the agent's ToolEnv, the file index). */
export interface RipgrepEnv {
  /** A path to use instead of VS Code's own ripgrep; a path that does not exist means "no ripgrep". */
  ripgrepPath?: string;
  /** Told each time ripgrep starts (tests check which binary ran). */
  onSpawn?(command: string, args: readonly string[]): void;
}

/**
 * Where VS Code keeps its ripgrep, relative to `vscode.env.appRoot`: `@vscode/ripgrep-universal` (a folder per
 * platform) since 2025, `@vscode/ripgrep` before; packed apps unpack native modules next to the asar archive.
 */
export function ripgrepCandidates(
  appRoot: string,
  platform = process.platform,
  arch = process.arch,
): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  return ['node_modules', 'node_modules.asar.unpacked'].flatMap((modules) => [
    join(appRoot, modules, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, exe),
    join(appRoot, modules, '@vscode', 'ripgrep', 'bin', exe),
  ]);
}

/** The ripgrep the tools run: the injected one when it exists, else VS Code's own; undefined when there is none. */
export function findRipgrep(env: Pick<RipgrepEnv, 'ripgrepPath'>): string | undefined {
  if (env.ripgrepPath !== undefined) return existsSync(env.ripgrepPath) ? env.ripgrepPath : undefined;
  return ripgrepCandidates(vscode.env.appRoot).find((path) => existsSync(path));
}

/** How a ripgrep run ended. */
export interface RipgrepExit {
  /** 0 found, 1 found nothing, 2 an error (possibly after some results); null when it was stopped. */
  code: number | null;
  /** True when `onLine` asked to stop or the signal aborted the run. */
  stopped: boolean;
  /** The start of what ripgrep wrote to stderr (its error messages). */
  stderr: string;
}

/**
 * Runs ripgrep with `args` (no shell: each argument reaches it as is) in `cwd`, handing each line of its output to
 * `onLine`, which returns false to stop the run early. The signal kills the process. Rejects only when ripgrep could
 * not be started at all (the caller then falls back).
 */
export function runRipgrep(
  rg: string,
  args: readonly string[],
  cwd: string,
  signal: AbortSignal,
  onLine: (line: string) => boolean | void,
  env?: Pick<RipgrepEnv, 'onSpawn'>,
): Promise<RipgrepExit> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    env?.onSpawn?.(rg, args);
    let stopped = false;
    let rest = '';
    let stderr = '';
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      child.kill();
    };
    signal.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (onLine(line) === false) {
          stop();
          return;
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    child.on('error', (error) => {
      signal.removeEventListener('abort', stop);
      reject(error);
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', stop);
      if (!stopped && rest) onLine(rest);
      resolve({ code: stopped ? null : code, stopped, stderr });
    });
  });
}
