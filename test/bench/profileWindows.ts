/**
 * Reads a V8 CPU profile inside given time windows only: where a measured operation's own time went, without the
 * work around it (set-up, the answers, what runs between two sends). The profile's timestamps and
 * `process.hrtime` read the same monotonic clock, in microseconds here.
 */

/** The parts of a `Profiler.stop` result used here. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A window on the monotonic clock, in microseconds (`process.hrtime.bigint() / 1000n`). */
export interface Window {
  fromUs: number;
  toUs: number;
}

/** The clock the profile's timestamps read, in microseconds. */
export function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** One function's sampled time inside the windows. */
export interface SampledTime {
  /** `name file:line`, or a V8 category such as `(garbage collector)`. */
  where: string;
  /** Self time (ms), summed over the windows. */
  selfMs: number;
}

/**
 * Self time per function inside `windows`, largest first, with the windows' total sampled time. A sample counts
 * for the interval up to the next one, as DevTools counts it.
 */
export function timeInWindows(
  profile: CpuProfile,
  windows: Window[],
): { totalMs: number; functions: SampledTime[] } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let totalUs = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const span = profile.timeDeltas[i + 1] ?? 0;
    if (!windows.some((w) => at >= w.fromUs && at < w.toUs)) continue;
    const frame = nodes.get(profile.samples[i])?.callFrame;
    if (!frame) continue;
    const file = frame.url.split('/').pop() ?? '';
    const where = file
      ? `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`
      : frame.functionName;
    self.set(where, (self.get(where) ?? 0) + span);
    totalUs += span;
  }
  const functions = [...self]
    .map(([where, us]) => ({ where, selfMs: us / 1000 }))
    .sort((a, b) => b.selfMs - a.selfMs);
  return { totalMs: totalUs / 1000, functions };
}
