/** Coalesces frequent "please save" calls into at most one save per key per interval. */

/**
 * Keeps the latest value per key and hands it to `save` once the interval after the first request
 * has passed. Streaming asks for a save on every token; this turns that into a couple of writes a
 * second, so a crash loses at most one interval of text.
 */
export class Coalescer<T> {
  private readonly pending = new Map<string, { value: T; timer: ReturnType<typeof setTimeout> }>();

  /** `save` runs on the timer; its failures go to `onError`, since nobody awaits a timer. */
  constructor(
    private readonly intervalMs: number,
    private readonly save: (key: string, value: T) => Promise<void>,
    private readonly onError: (error: unknown, key: string) => void,
  ) {}

  /** Requests a save of `value`; within the interval, a later request only replaces the value. */
  schedule(key: string, value: T): void {
    const entry = this.pending.get(key);
    if (entry) {
      entry.value = value;
      return;
    }
    const timer = setTimeout(() => {
      const current = this.take(key);
      if (current !== undefined) this.save(key, current).catch((error: unknown) => this.onError(error, key));
    }, this.intervalMs);
    this.pending.set(key, { value, timer });
  }

  /** Cancels the pending save of `key` and returns the value it would have saved. */
  take(key: string): T | undefined {
    const entry = this.pending.get(key);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.pending.delete(key);
    return entry.value;
  }

  /** The value waiting to be saved for `key`, if any. */
  peek(key: string): T | undefined {
    return this.pending.get(key)?.value;
  }

  /** Keys with a pending save. */
  keys(): string[] {
    return [...this.pending.keys()];
  }
}
