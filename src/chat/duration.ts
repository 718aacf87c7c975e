/** One way to write a duration, shared by the chat view and the Markdown export. */

/**
 * "1s" (a finished duration is never "0s": anything measured took a moment), "45s", "2m 5s". A running
 * clock (`running`) counts whole elapsed seconds from "0s", in the same format.
 */
export function formatDuration(ms: number, running = false): string {
  const seconds = running ? Math.max(0, Math.floor(ms / 1000)) : Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `${minutes}m ${rest}s` : `${minutes}m`;
}
