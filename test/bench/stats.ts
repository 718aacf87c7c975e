/** Small statistics helpers for the benchmarks: medians, quantiles and interleaved (ABAB) runs. */

/** The median of the values (NaN for none). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The q-quantile (0..1) of the values, linearly interpolated (NaN for none). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** The sum of the values. */
export function sum(values: readonly number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

/** The mean of the values (NaN for none). */
export function mean(values: readonly number[]): number {
  return values.length ? sum(values) / values.length : Number.NaN;
}

/** Milliseconds since an arbitrary origin, sub-millisecond. */
export function now(): number {
  return performance.now();
}

/** Samples of two contenders measured in the same run. */
export interface Paired<T> {
  ours: T[];
  baseline: T[];
}

/**
 * Runs `ours` and `baseline` alternately (AB, BA, AB, …) `rounds` times after `warmup` unmeasured
 * rounds, so drift in machine load hits both sides alike.
 */
export async function interleave<T>(
  rounds: number,
  warmup: number,
  ours: () => Promise<T>,
  baseline: () => Promise<T>,
): Promise<Paired<T>> {
  const result: Paired<T> = { ours: [], baseline: [] };
  for (let i = 0; i < warmup; i++) {
    await ours();
    await baseline();
  }
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      result.ours.push(await ours());
      result.baseline.push(await baseline());
    } else {
      result.baseline.push(await baseline());
      result.ours.push(await ours());
    }
  }
  return result;
}

/** Per-round ratios ours/baseline, then their median: robust to a slow round hitting both. */
export function medianRatio(ours: readonly number[], baseline: readonly number[]): number {
  const n = Math.min(ours.length, baseline.length);
  const ratios: number[] = [];
  for (let i = 0; i < n; i++) if (baseline[i] > 0) ratios.push(ours[i] / baseline[i]);
  return median(ratios);
}
