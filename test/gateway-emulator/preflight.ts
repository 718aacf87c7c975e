// Shared state of a running emulator and the faults that act before the first response byte.
import type { OutgoingHttpHeaders } from 'node:http';
import { isDialect, requestIdHeader, sendError, type Dialect } from './errorBodies';
import type { Exchange, TimerRegistry } from './exchange';
import type { FaultSet } from './faults';

/** Options with their defaults applied. */
export interface ResolvedOptions {
  port: number;
  chunkDelayMs: number;
  chunkSize: number;
  acceptKey: (key: string) => boolean;
  imageUrlTtlMs: number;
  stallMs: number;
  /** False: chat requests with `tools` get a 400. */
  tools: boolean;
  /** Agent-mode requests without a script explore the project (npm start). */
  agentDemo: boolean;
}

/** A url-form image served at /files/<id>.png. */
export interface StoredFile {
  /** Dropped once the link expires, so long test runs do not keep every image in memory. */
  bytes?: Buffer;
  contentType: string;
  expiresAt: number;
  faults: FaultSet;
}

/** What the handlers share. */
export interface EmulatorContext {
  options: ResolvedOptions;
  timers: TimerRegistry;
  /** Requests seen per flaky key. */
  flaky: Map<string, number>;
  files: Map<string, StoredFile>;
  port: number;
}

function statusCode(raw: string | undefined): number | undefined {
  const code = Number(raw);
  return Number.isInteger(code) && code >= 100 && code <= 999 ? code : undefined;
}

/** Checks fault arguments; returns a message for the first invalid one. */
export function faultProblem(faults: FaultSet): string | undefined {
  if (faults.unknown.length > 0) return `unknown fault spec "${faults.unknown[0]}"`;
  const status = faults.get('status');
  if (status) {
    if (statusCode(status.args[0]) === undefined)
      return `status fault needs a code 100-999, got "${status.args[0]}"`;
    const dialect = status.args[1];
    if (dialect && !isDialect(dialect)) return `unknown error dialect "${dialect}"`;
  }
  const flaky = faults.get('flaky');
  if (flaky && (statusCode(flaky.args[0]) === undefined || !(Number(flaky.args[1]) >= 0))) {
    return `flaky fault is flaky:<code>:<n>, got "flaky:${flaky.args.join(':')}"`;
  }
  for (const name of [
    'slow-first-byte',
    'big-event',
    'image-delay',
    'image-url-redirect',
    'retry-after-date',
  ]) {
    if (faults.has(name) && faults.num(name) === undefined) return `${name} needs a non-negative number`;
  }
  return undefined;
}

/**
 * Applies slow-first-byte, stall-first-byte, flaky and status faults. Returns false when the request is
 * finished (an error was sent or the client went away) and the handler must stop.
 */
export async function preflight(
  ex: Exchange,
  faults: FaultSet,
  ctx: EmulatorContext,
  model?: string,
): Promise<boolean> {
  const slow = faults.num('slow-first-byte');
  if (slow !== undefined && !(await ex.sleep(slow))) return false;
  if (faults.has('stall-first-byte') && !(await ex.sleep(ctx.options.stallMs))) return false;

  const flaky = faults.get('flaky');
  if (flaky) {
    const seen = ctx.flaky.get(flaky.source) ?? 0;
    ctx.flaky.set(flaky.source, seen + 1);
    if (seen < Number(flaky.args[1])) {
      sendError(ex, Number(flaky.args[0]), 'openai', faults, model);
      return false;
    }
  }
  const status = faults.get('status');
  if (status) {
    const dialect: Dialect = status.args[1] && isDialect(status.args[1]) ? status.args[1] : 'openai';
    sendError(ex, Number(status.args[0]), dialect, faults, model);
    return false;
  }
  return !ex.closed;
}

/** Sends 200 with `headers`, lets them reach the client, then drops the connection (reset-before-first-token). */
export async function resetAfterHeaders(
  ex: Exchange,
  headers: OutgoingHttpHeaders,
  faults: FaultSet,
): Promise<void> {
  ex.head(200, { ...headers, ...requestIdHeader(faults) });
  ex.res.flushHeaders();
  if (await ex.sleep(20)) ex.destroy();
}
