// The one polling helper of the test suites: bounded waits for a condition, a value or a passing assertion.

/** What a wait is for, named in its timeout error. */
export type What = string | (() => string);

/** Waits `ms` milliseconds: for pacing (a typist, a stream), never to wait for a condition (use {@link until}). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls `get` until it returns a value other than undefined; errors it throws count as "not yet".
 * The interval starts at 10 ms and doubles up to 200 ms: quick conditions are seen at once, slow ones
 * (a page query in the workbench) are not polled hot. Resolves with the value, or rejects after the timeout
 * with `{ last }`, the last error `get` threw.
 */
async function poll<T>(
  get: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
): Promise<{ value: T } | { last: unknown }> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let interval = 10; ; interval = Math.min(interval * 2, 200)) {
    try {
      const value = await get();
      if (value !== undefined) return { value };
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) return { last };
    await sleep(interval);
  }
}

function timedOut(what: What, timeoutMs: number, last: unknown): Error {
  const named = typeof what === 'function' ? what() : what;
  const cause = last === undefined ? '' : `: ${last instanceof Error ? last.message : String(last)}`;
  return new Error(`timed out after ${timeoutMs} ms waiting for ${named}${cause}`);
}

/** Waits until `get` returns a value (not undefined) and resolves with it (bounded). */
export async function waitFor<T>(
  get: () => T | undefined | Promise<T | undefined>,
  what: What = 'a value',
  timeoutMs = 15_000,
): Promise<T> {
  const result = await poll(get, timeoutMs);
  if ('value' in result) return result.value;
  throw timedOut(what, timeoutMs, result.last);
}

/** Waits until `check` is true (bounded). */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what: What = 'condition',
): Promise<void> {
  await waitFor(async () => ((await check()) ? true : undefined), what, timeoutMs);
}

/** Waits until `check` stops throwing (bounded); rethrows its last error, so an assertion's diff is kept. */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 15_000): Promise<void> {
  const result = await poll(async () => {
    await check();
    return true;
  }, timeoutMs);
  if ('last' in result) throw result.last ?? timedOut('an assertion', timeoutMs, undefined);
}

/** Polls `measure` until `done(value)` or the timeout, and returns the last value (never throws on timeout). */
export async function settle<T>(
  measure: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  let value = await measure();
  await poll(async () => {
    value = await measure();
    return done(value) ? true : undefined;
  }, timeoutMs).catch(() => undefined);
  return value;
}
