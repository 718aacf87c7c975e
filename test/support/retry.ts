// Retrying a UI step that a focus change can undo (a palette closed under it, a key press that went elsewhere).

/**
 * Runs `step(attempt)` until it resolves, at most `attempts` times; after a failed try, `between()` (an Escape,
 * say) runs before the next. Rethrows the last try's error. To wait for a condition, use `until` instead.
 */
export async function retrying<T>(
  attempts: number,
  step: (attempt: number) => Promise<T>,
  between?: () => Promise<unknown>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step(attempt);
    } catch (error) {
      if (attempt >= attempts) throw error;
      await between?.();
    }
  }
}
