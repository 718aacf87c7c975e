// The soak's memory check beyond a flat band: a least-squares line through the heap samples over the run,
// whose slope is the heap growth per conversation. A steady leak shows as a slope long before it leaves
// a ±10% band (1,000 chats leaking 3 KB each stay within 10% of a 40 MB heap).

/** One heap sample: after how many conversations, and the heap used after full collections. */
export interface HeapSample {
  chats: number;
  heapUsed: number;
}

/** Heap growth per conversation above which the soak fails (bytes). */
export const MAX_GROWTH_PER_CHAT = 2048;

/** The least-squares slope of heapUsed over chats, in bytes per conversation (0 for fewer than 2 samples). */
export function growthPerChat(samples: readonly HeapSample[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const meanX = samples.reduce((sum, s) => sum + s.chats, 0) / n;
  const meanY = samples.reduce((sum, s) => sum + s.heapUsed, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const s of samples) {
    covariance += (s.chats - meanX) * (s.heapUsed - meanY);
    variance += (s.chats - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

/** Why the samples show a steady growth above the bound, or undefined when they do not. */
export function steadyGrowth(
  samples: readonly HeapSample[],
  bound = MAX_GROWTH_PER_CHAT,
): string | undefined {
  const slope = growthPerChat(samples);
  if (slope <= bound) return undefined;
  const first = samples[0];
  const last = samples[samples.length - 1];
  return (
    `the heap grows ${(slope / 1024).toFixed(1)} KB per conversation (bound ${(bound / 1024).toFixed(1)} KB) ` +
    `over ${samples.length} samples from ${first.chats} to ${last.chats} chats`
  );
}
