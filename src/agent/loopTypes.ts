/** The agent loop's options, events and result (src/agent/loop.ts). */
import type { KeepEnd, ResultCut } from './truncate';
import type {
  AgentMessage,
  AgentToolCall,
  AgentToolSpec,
  ModelStepEvent,
  StepUsage,
  ToolResult,
} from './types';

/** A tool the loop can run. */
export interface AgentTool {
  spec: AgentToolSpec;
  /** Runs the call; `signal` is aborted on Stop, and the loop no longer waits for the tool then. */
  run(input: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
  /** Which end of a result over the budget is kept: the head (reads, the default) or the tail (command output). */
  keep?: KeepEnd;
  /** The sentence in the cut marker that says how to get the rest (e.g. read_file's next `startLine`). */
  howToGetRest?(cut: ResultCut): string;
}

/** Tokens of a run so far: the server's figures where it gave them, estimates for the other steps. */
export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  /** True when at least one step's figures were estimated. */
  estimated: boolean;
}

/** Adds one step's usage to the run's. */
export function runUsageAdd(total: RunUsage, step: StepUsage & { estimated: boolean }): RunUsage {
  return {
    promptTokens: total.promptTokens + step.promptTokens,
    completionTokens: total.completionTokens + step.completionTokens,
    estimated: total.estimated || step.estimated,
  };
}

/** What the UI hears while the run goes. */
export type AgentEvent =
  /** A model call begins (1-based, counted within this run or continuation). */
  | { type: 'step'; step: number }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** A call is about to run (or to be answered with an error: malformed, unknown tool, invalid input). */
  | { type: 'toolStart'; call: AgentToolCall }
  /** Its result, as the model will read it; `cut` when the result was cut to size; `stopped` when Stop came first. */
  | { type: 'toolEnd'; call: AgentToolCall; result: ToolResult; cut?: ResultCut; stopped?: boolean }
  /** After each model call: the run's tokens so far, and this request's prompt against the context. */
  | { type: 'usage'; usage: RunUsage; promptTokens: number; contextTokens: number }
  /** The oldest tool results were replaced by notes to stay within the context. */
  | { type: 'elided'; notes: string[]; promptTokensBefore: number; promptTokensAfter: number };

/** How to run the agent. */
export interface RunAgentOptions {
  /** The conversation so far: system prompt, history and the user's message. */
  messages: readonly AgentMessage[];
  tools: ReadonlyMap<string, AgentTool> | Readonly<Record<string, AgentTool>>;
  /** One model step over these messages; it must stop (and its request be aborted) when `signal` is. */
  callModel(messages: readonly AgentMessage[], signal: AbortSignal): AsyncIterable<ModelStepEvent>;
  /** The user's Stop. */
  signal: AbortSignal;
  /** Model calls before the run pauses with 'stepLimit' (default 25). */
  maxSteps?: number;
  /** A tool result over this is cut with a marker (default 8,000). */
  maxToolResultTokens?: number;
  /** The model's context, in tokens. */
  contextTokens: number;
  /** Share of the context above which the oldest tool results are elided (default 0.85). */
  elideAt?: number;
  /** Tokens every request adds to the messages (tool definitions, the text protocol's instructions). */
  fixedPromptTokens?: number;
  estimateTokens(text: string): number;
  onEvent?(event: AgentEvent): void;
}

/** Counters that carry over when a run is continued. */
export interface LoopState {
  badCallsInARow: number;
  /** The last few calls that ran, as keys of their input and of their result. */
  recentCalls: Array<{ call: string; result: string }>;
}

/** Why a run failed. */
export interface AgentRunError {
  kind: 'model' | 'malformedCalls' | 'repeatedCall';
  message: string;
  /** The model call's error, for the host's error handling. */
  cause?: unknown;
}

/** How a run ended. */
export interface AgentRunResult {
  status: 'done' | 'stopped' | 'stepLimit' | 'failed';
  /** The whole conversation: the options' messages, then the run's. */
  messages: AgentMessage[];
  usage: RunUsage;
  /** Model calls made by this run (or continuation). */
  steps: number;
  /** For `continueAgent`. */
  state: LoopState;
  error?: AgentRunError;
}
