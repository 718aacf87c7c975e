/** One model call of the agent loop: streams text and reasoning to the UI and collects the calls. */
import { ABORTED, type StepAbort } from './abort';
import type { PromptMeter } from './context';
import type { RunAgentOptions } from './loopTypes';
import type { AgentMessage, AgentToolCall, ModelStepEvent, StepUsage } from './types';

type Usage = StepUsage & { estimated: boolean };

/** How a model call ended. */
export type StepOutcome =
  /** The model finished: its text and its calls in order (none: the answer), malformed ones with their problem. */
  | { kind: 'answered'; text: string; calls: AgentToolCall[]; malformed: Map<string, string>; usage: Usage }
  | { kind: 'stopped'; text: string; usage: Usage }
  | { kind: 'failed'; message: string; cause: unknown; usage: Usage };

/** Calls the model on `request` and reads its stream until it ends, fails or Stop comes. */
export async function runModelStep(
  options: RunAgentOptions,
  request: readonly AgentMessage[],
  abort: StepAbort,
  meter: PromptMeter,
): Promise<StepOutcome> {
  let text = '';
  let reasoning = '';
  const calls: AgentToolCall[] = [];
  const malformed = new Map<string, string>();
  let reported: StepUsage | undefined;
  const usage = (): Usage => {
    if (reported) return { ...reported, estimated: false };
    let completion = options.estimateTokens(text) + options.estimateTokens(reasoning);
    for (const call of calls) completion += meter.callTokens(call);
    const prompt = meter.promptTokens(request) + (options.fixedPromptTokens ?? 0);
    return { promptTokens: prompt, completionTokens: completion, estimated: true };
  };
  const onEvent = (event: ModelStepEvent): void => {
    switch (event.type) {
      case 'text':
        text += event.text;
        options.onEvent?.({ type: 'text', text: event.text });
        break;
      case 'reasoning':
        reasoning += event.text;
        options.onEvent?.({ type: 'reasoning', text: event.text });
        break;
      case 'toolCall':
        calls.push(event.call);
        break;
      case 'malformedCall': {
        const { id, name, reason, raw } = event.call;
        calls.push({ id, name: name ?? '', input: {}, raw });
        malformed.set(
          id,
          `The tool call could not be read: ${reason}. Write the call again in the required format.`,
        );
        break;
      }
      case 'usage':
        reported = event.usage;
        break;
      case 'finish':
        break;
    }
  };
  let iterator: AsyncIterator<ModelStepEvent> | undefined;
  try {
    iterator = options.callModel(request, abort.signal)[Symbol.asyncIterator]();
    for (;;) {
      // Raced against Stop: a stream that ignores its signal must not keep the run going.
      const next = await Promise.race([iterator.next(), abort.aborted]);
      if (next === ABORTED || abort.signal.aborted) {
        closeQuietly(iterator);
        return { kind: 'stopped', text, usage: usage() };
      }
      if (next.done) break;
      onEvent(next.value);
    }
  } catch (error) {
    if (abort.signal.aborted) return { kind: 'stopped', text, usage: usage() };
    return { kind: 'failed', message: errorMessage(error), cause: error, usage: usage() };
  }
  return { kind: 'answered', text, calls, malformed, usage: usage() };
}

function closeQuietly(iterator: AsyncIterator<ModelStepEvent>): void {
  // Not awaited: a generator stuck in an await only returns after it resumes.
  void Promise.resolve()
    .then(() => iterator.return?.())
    .catch(() => undefined);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
