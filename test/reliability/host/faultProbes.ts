// What the fault matrix observes inside the extension host, all through real paths: the workbench's log
// files (the extension's "Model Gateway" log and the extension host's own log), the process's active
// handles, and unhandled rejections as Node reports them.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { settle } from '../../support/poll';

/** The harness gives code-server HOME=<root>/home and --user-data-dir <root>/user-data. */
function userDataDir(): string {
  const home = process.env.HOME;
  assert.ok(home, 'HOME is set by the harness');
  const dir = join(dirname(home), 'user-data');
  assert.ok(existsSync(dir), `the user-data folder is next to HOME (${dir})`);
  return dir;
}

/**
 * The log folder of the newest extension host: <user-data>/logs/<session>/exthost<N>, the highest N of the newest
 * session. A window reload starts a new host (exthost2, exthost3, …) in the same session folder,
 * and the old one may live on a while, so "exthost1" is the window's host only until the first reload (a UI suite
 * read a dead host's log that way, and once, in CI, found none at all).
 */
export function extHostLogDir(userData = userDataDir()): string {
  const logs = join(userData, 'logs');
  const hosts = readdirSync(logs)
    .sort()
    .flatMap((session) =>
      entries(join(logs, session))
        .map((name) => ({ name, n: Number(/^exthost(\d+)$/.exec(name)?.[1]) }))
        .filter((host) => Number.isInteger(host.n))
        .sort((a, b) => a.n - b.n)
        .map((host) => join(logs, session, host.name)),
    );
  const newest = hosts[hosts.length - 1];
  assert.ok(
    newest !== undefined && existsSync(join(newest, 'remoteexthost.log')),
    `the newest extension host's log under ${logs} (host folders: ${hosts.map((dir) => `${dir}: [${entries(dir).join(', ')}]`).join('; ') || 'none'})`,
  );
  return newest;
}

/** The names in a folder, or none when it cannot be read. */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The folder the extension keeps its conversations in (its global storage). */
export function conversationsDir(): string {
  return join(userDataDir(), 'User', 'globalStorage', 'modelgateway.model-gateway', 'chats', 'conversations');
}

/** A log file read from a remembered offset, so each case sees only its own lines. */
export class LogTail {
  private offset: number;

  constructor(readonly path: string) {
    this.offset = this.size();
  }

  private size(): number {
    return existsSync(this.path) ? statSync(this.path).size : 0;
  }

  /** Everything written since the last `mark()` (or construction). */
  sinceMark(): string {
    if (!existsSync(this.path)) return '';
    return readFileSync(this.path).subarray(this.offset).toString('utf8');
  }

  /** Moves the offset to the end of the file. */
  mark(): void {
    this.offset = this.size();
  }

  /**
   * The complete lines written since the last `take()` or `mark()`, moving the offset just past them, so
   * successive takes see every line exactly once: nothing written between two checks is skipped, and a
   * line still being written waits for the next take.
   */
  take(): string {
    if (!existsSync(this.path)) return '';
    const bytes = readFileSync(this.path).subarray(this.offset);
    const end = bytes.lastIndexOf(0x0a) + 1;
    this.offset += end;
    return bytes.subarray(0, end).toString('utf8');
  }
}

/** The "Model Gateway" log channel's file. */
export function gatewayLog(): LogTail {
  return new LogTail(join(extHostLogDir(), 'modelgateway.model-gateway', 'Model Gateway.log'));
}

/**
 * The extension host's own log, where VS Code writes unhandled rejections and extension errors. From
 * outside the editor (UI tests), pass code-server's user-data folder.
 */
export function extHostLog(userData?: string): LogTail {
  return new LogTail(join(extHostLogDir(userData), 'remoteexthost.log'));
}

/** `[error]` entries (with their continuation lines) of a log excerpt. */
export function errorEntries(text: string): string[] {
  const entries: string[] = [];
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (/^\d{4}-\d\d-\d\d /.test(line)) {
      if (current) entries.push(current.join('\n'));
      current = line.includes('[error]') ? [line] : undefined;
    } else if (current) current.push(line);
  }
  if (current) entries.push(current.join('\n'));
  return entries;
}

/** Collects unhandled rejections of this process while installed (the extension host runs the extension here). */
export class RejectionWatch {
  readonly seen: unknown[] = [];
  private readonly listener = (reason: unknown): void => void this.seen.push(reason);

  constructor() {
    process.on('unhandledRejection', this.listener);
  }

  take(): string[] {
    return this.seen.splice(0).map((r) => (r instanceof Error ? (r.stack ?? r.message) : String(r)));
  }

  dispose(): void {
    process.off('unhandledRejection', this.listener);
  }
}

/** Counts of what keeps a Node process busy (sockets, timers…) plus process-level listeners. */
export interface ResourceCounts {
  sockets: number;
  timers: number;
  other: number;
  processListeners: number;
}

/** A snapshot of the active handles and requests of the extension host. */
export function resourceCounts(): ResourceCounts {
  const info = process.getActiveResourcesInfo();
  const sockets = info.filter((t) => t === 'TCPSocketWrap').length;
  const timers = info.filter((t) => t === 'Timeout' || t === 'Immediate').length;
  const processListeners = process
    .eventNames()
    .reduce((sum, name) => sum + process.listenerCount(name as string), 0);
  return { sockets, timers, other: info.length - sockets - timers, processListeners };
}

/**
 * Slack allowed over the baseline: one pooled keep-alive connection to the emulator (two loopback
 * socket ends, as the emulator runs in this process too) and a few timers of VS Code's own housekeeping.
 */
export const RESOURCE_SLACK: ResourceCounts = { sockets: 2, timers: 4, other: 2, processListeners: 0 };

/** Differences over the baseline beyond the slack, e.g. ["sockets 9 > 4 + 2"]; empty when none. */
export function resourceGrowth(before: ResourceCounts, after: ResourceCounts): string[] {
  return (Object.keys(before) as (keyof ResourceCounts)[])
    .filter((k) => after[k] > before[k] + RESOURCE_SLACK[k])
    .map((k) => `${k} ${after[k]} > ${before[k]} + ${RESOURCE_SLACK[k]}`);
}

/** Polls until the counts are back within the slack of `before`; returns the remaining growth (bounded). */
export function settleResources(before: ResourceCounts, timeoutMs = 6000): Promise<string[]> {
  return settle(
    () => resourceGrowth(before, resourceCounts()),
    (growth) => growth.length === 0,
    timeoutMs,
  );
}

export { waitFor } from '../../support/poll';
