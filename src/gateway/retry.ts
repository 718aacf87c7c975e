/** Retry policy helpers: Retry-After parsing, backoff with jitter, and an abortable sleep. */

import type { RetryOptions } from './types';

type HeaderMap = Record<string, string | string[] | undefined>;

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

function first(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/**
 * How long the server asks us to wait, in ms: `retry-after-ms`, then `Retry-After` as seconds
 * (fractions allowed) or as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderMap, now: number = Date.now()): number | undefined {
  const ms = first(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = first(headers, 'retry-after');
  if (value === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Exponential backoff for retry number `retry` (1-based), capped, with jitter between 50 % and 100 %. */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const exponential = options.baseDelayMs * 2 ** Math.max(0, retry - 1);
  const capped = Math.min(options.maxDelayMs, exponential);
  // Jitter spreads out clients that failed together so they do not retry in lockstep.
  return Math.round(capped * (0.5 + random() / 2));
}

/** Statuses worth another attempt: the server may well answer differently in a moment. */
export function isRetryableStatus(status: number): boolean {
  return (
    status === 408 || status === 409 || status === 429 || (status >= 500 && status !== 501 && status !== 505)
  );
}

/** Waits `ms`, rejecting with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
