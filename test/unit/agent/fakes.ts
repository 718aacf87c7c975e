/** A scripted model and fake tools for the agent loop's tests. */
import { estimateTokens } from '../../../src/chat/tokens';
import type { AgentTool, RunAgentOptions } from '../../../src/agent/loop';
import type { AgentMessage, AgentToolCall, ModelStepEvent, ToolResult } from '../../../src/agent/types';

/** One scripted step: fixed events, or a stream made from the request (to react to results, or to hang). */
export type ScriptStep =
  | ModelStepEvent[]
  | ((messages: readonly AgentMessage[], signal: AbortSignal) => AsyncIterable<ModelStepEvent>);

/** A model that plays `steps` in order and records each request (a deep copy) and its signal. */
export class ScriptedModel {
  readonly requests: AgentMessage[][] = [];
  readonly signals: AbortSignal[] = [];
  private next = 0;

  constructor(private readonly steps: ScriptStep[]) {}

  get calls(): number {
    return this.requests.length;
  }

  readonly call = (messages: readonly AgentMessage[], signal: AbortSignal): AsyncIterable<ModelStepEvent> => {
    this.requests.push(structuredClone([...messages]));
    this.signals.push(signal);
    const step = this.steps[this.next++];
    if (step === undefined) throw new Error(`the script has only ${this.steps.length} steps`);
    if (typeof step === 'function') return step(messages, signal);
    return (async function* () {
      yield* step;
    })();
  };
}

let ids = 0;

/** A call event with a fresh id. */
export function call(name: string, input: Record<string, unknown>): ModelStepEvent {
  const c: AgentToolCall = { id: `call_${++ids}`, name, input };
  return { type: 'toolCall', call: c };
}

/** A text event. */
export function say(text: string): ModelStepEvent {
  return { type: 'text', text };
}

/** A tool with a `path` argument whose runs are recorded; `answer` makes its result. */
export function fakeTool(
  name: string,
  answer: (input: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult> | ToolResult = (
    input,
  ) => ({
    content: `${name} of ${String(input.path)}`,
  }),
  extra: Partial<AgentTool> = {},
): AgentTool & { runs: Array<Record<string, unknown>> } {
  const runs: Array<Record<string, unknown>> = [];
  return {
    spec: {
      name,
      description: `The ${name} tool.`,
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, startLine: { type: 'integer' } },
        required: ['path'],
        additionalProperties: false,
      },
      readOnly: true,
    },
    run: async (input, signal) => {
      runs.push(input);
      return answer(input, signal);
    },
    runs,
    ...extra,
  };
}

/** The options every test shares, with the conversation's first two messages. */
export function baseOptions(
  model: ScriptedModel,
  tools: Record<string, AgentTool>,
  more: Partial<RunAgentOptions> = {},
): RunAgentOptions {
  return {
    messages: [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Fix the bug.' },
    ],
    tools,
    callModel: model.call,
    signal: new AbortController().signal,
    contextTokens: 128_000,
    estimateTokens,
    ...more,
  };
}

/** A stream that yields `first` then waits until its signal aborts (or forever when `ignoreSignal`). */
export function hangingStream(first: ModelStepEvent[], ignoreSignal = false): ScriptStep {
  return (_messages, signal) =>
    (async function* () {
      yield* first;
      await new Promise<void>((_resolve, reject) => {
        if (!ignoreSignal)
          signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    })();
}
