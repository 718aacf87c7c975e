/**
 * One step's abort: a child of the run's signal (the user's Stop) that the model call and the tools get,
 * and a promise to race against work that may not honour the signal, so Stop ends the run at once.
 */

/** What a race against Stop yields when Stop came first. */
export const ABORTED: unique symbol = Symbol('aborted');

/** The step's signal, the promise that settles on Stop, and the clean-up of the link to the run's signal. */
export interface StepAbort {
  signal: AbortSignal;
  aborted: Promise<typeof ABORTED>;
  dispose(): void;
}

/** Links a step to the run's signal; call `dispose` when the step ends so no listener outlives it. */
export function stepAbort(parent: AbortSignal): StepAbort {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    controller.signal.addEventListener('abort', () => resolve(ABORTED), { once: true });
  });
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    aborted,
    dispose: () => parent.removeEventListener('abort', onAbort),
  };
}
