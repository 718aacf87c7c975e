/**
 * The agent loop, protocol-neutral: a step is one model call; the calls it makes run in order and their
 * results are appended; the run ends when the model answers without a call, at the step limit (resumable),
 * on Stop, or when the model goes wrong in a way that more steps would not fix (bad calls in a row, the same
 * call over and over). Messages only grow between steps, so a gateway's prompt cache can hit, except when
 * the oldest results are elided near the context.
 */
import { PromptMeter, elideOldToolResults } from './context';
import {
  type AgentRunError,
  type AgentRunResult,
  type AgentTool,
  type LoopState,
  type RunAgentOptions,
  type RunUsage,
  runUsageAdd,
} from './loopTypes';
import { type StepOutcome, runModelStep } from './modelStep';
import { ABORTED, type StepAbort, stepAbort } from './abort';
import { truncateToolResult } from './truncate';
import type { AgentMessage, AgentToolCall, ToolResult } from './types';
import { inputProblems } from './validate';

export * from './loopTypes';

/** Bad calls (malformed, unknown tool, invalid input) in a row that end the run. */
export const MAX_BAD_CALLS_IN_A_ROW = 3;
/** The same call with the same result this many times in a row ends the run. */
export const MAX_IDENTICAL_CALLS = 3;
const DEFAULT_MAX_STEPS = 25;
const DEFAULT_MAX_TOOL_RESULT_TOKENS = 8000;
/** Above this share of the context, the oldest tool results are elided before the next request. */
const DEFAULT_ELIDE_AT = 0.85;

/** Runs the agent on a conversation that ends with the user's message. */
export function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const state: LoopState = { badCallsInARow: 0, recentCalls: [] };
  return loop(
    options,
    [...options.messages],
    { promptTokens: 0, completionTokens: 0, estimated: false },
    state,
  );
}

/** Resumes a run that stopped at the step limit, for up to `maxSteps` more steps. */
export function continueAgent(
  previous: AgentRunResult,
  options: Omit<RunAgentOptions, 'messages'>,
): Promise<AgentRunResult> {
  const state: LoopState = {
    badCallsInARow: previous.state.badCallsInARow,
    recentCalls: [...previous.state.recentCalls],
  };
  return loop(
    { ...options, messages: previous.messages },
    [...previous.messages],
    { ...previous.usage },
    state,
  );
}

async function loop(
  options: RunAgentOptions,
  messages: AgentMessage[],
  usage: RunUsage,
  state: LoopState,
): Promise<AgentRunResult> {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const meter = new PromptMeter(options.estimateTokens);
  const emit = options.onEvent ?? (() => undefined);
  const end = (status: AgentRunResult['status'], steps: number, error?: AgentRunError): AgentRunResult => ({
    status,
    messages,
    usage,
    steps,
    state,
    ...(error ? { error } : {}),
  });
  // Results from this index on have not been read by the model yet, so elision leaves them alone.
  let unread = messages.length;
  for (let step = 1; ; step++) {
    if (options.signal.aborted) return end('stopped', step - 1);
    messages = elideIfNeeded(options, messages, meter, unread);
    const abort = stepAbort(options.signal);
    try {
      emit({ type: 'step', step });
      const request = messages.slice();
      const outcome = await runModelStep(options, request, abort, meter);
      usage = runUsageAdd(usage, outcome.usage);
      emit({
        type: 'usage',
        usage,
        promptTokens: outcome.usage.promptTokens,
        contextTokens: options.contextTokens,
      });
      if (outcome.kind === 'stopped') {
        if (outcome.text !== '') messages.push({ role: 'assistant', content: outcome.text });
        return end('stopped', step);
      }
      if (outcome.kind === 'failed')
        return end('failed', step, { kind: 'model', message: outcome.message, cause: outcome.cause });
      const calls = outcome.calls;
      messages.push(
        calls.length
          ? { role: 'assistant', content: outcome.text, toolCalls: calls }
          : { role: 'assistant', content: outcome.text },
      );
      if (calls.length === 0) return end('done', step);
      unread = messages.length;
      const stopped = await runCalls(options, calls, outcome, messages, state, abort);
      if (stopped) return end(stopped.status, step, stopped.error);
      if (step >= maxSteps) return end('stepLimit', step);
    } finally {
      abort.dispose();
    }
  }
}

function elideIfNeeded(
  options: RunAgentOptions,
  messages: AgentMessage[],
  meter: PromptMeter,
  unread: number,
): AgentMessage[] {
  // An unknown context (0) gives no ground for eliding anything.
  if (!(options.contextTokens > 0)) return messages;
  const limit = options.contextTokens * (options.elideAt ?? DEFAULT_ELIDE_AT);
  const elision = elideOldToolResults(messages, meter, limit, unread, options.fixedPromptTokens ?? 0);
  if (!elision) return messages;
  options.onEvent?.({
    type: 'elided',
    notes: elision.notes,
    promptTokensBefore: elision.promptTokensBefore,
    promptTokensAfter: elision.promptTokensAfter,
  });
  return elision.messages;
}

type CallsEnd = { status: 'stopped' | 'failed'; error?: AgentRunError } | undefined;

/** Runs one step's calls in order, appending a result for every call (also those not run, so each call is answered). */
async function runCalls(
  options: RunAgentOptions,
  calls: AgentToolCall[],
  outcome: Extract<StepOutcome, { kind: 'answered' }>,
  messages: AgentMessage[],
  state: LoopState,
  abort: StepAbort,
): Promise<CallsEnd> {
  let ended: CallsEnd;
  for (const call of calls) {
    if (ended) {
      messages.push(toolMessage(call, { content: notRun(ended), isError: true }));
      continue;
    }
    if (options.signal.aborted) {
      ended = { status: 'stopped' };
      messages.push(toolMessage(call, { content: notRun(ended), isError: true }));
      continue;
    }
    options.onEvent?.({ type: 'toolStart', call });
    const problem = call.raw !== undefined ? outcome.malformed.get(call.id) : callProblem(options, call);
    if (problem !== undefined) {
      const result: ToolResult = { content: problem, isError: true, summary: 'Tool call not understood' };
      messages.push(toolMessage(call, result));
      options.onEvent?.({ type: 'toolEnd', call, result });
      state.badCallsInARow++;
      if (state.badCallsInARow >= MAX_BAD_CALLS_IN_A_ROW)
        ended = {
          status: 'failed',
          error: {
            kind: 'malformedCalls',
            message: `The run stopped: the model made ${MAX_BAD_CALLS_IN_A_ROW} tool calls in a row that could not be used (the last: ${problem})`,
          },
        };
      continue;
    }
    state.badCallsInARow = 0;
    const tool = toolNamed(options, call.name) as AgentTool;
    const raw = await runTool(tool, call, abort);
    if (raw === ABORTED) {
      ended = { status: 'stopped' };
      const result = { content: 'Stopped by the user before the tool finished.', isError: true };
      messages.push(toolMessage(call, result));
      options.onEvent?.({ type: 'toolEnd', call, result, stopped: true });
      continue;
    }
    const cut = truncateToolResult(raw.content, {
      maxTokens: options.maxToolResultTokens ?? DEFAULT_MAX_TOOL_RESULT_TOKENS,
      keep: tool.keep ?? tool.spec.keep ?? 'head',
      estimateTokens: options.estimateTokens,
      howToGetRest: tool.howToGetRest,
    });
    const result: ToolResult = cut.cut ? { ...raw, content: cut.text } : raw;
    messages.push(toolMessage(call, result));
    options.onEvent?.({ type: 'toolEnd', call, result, ...(cut.cut ? { cut: cut.cut } : {}) });
    if (isRepeating(state, call, result))
      ended = {
        status: 'failed',
        error: {
          kind: 'repeatedCall',
          message: `The run stopped: the model called ${call.name} ${MAX_IDENTICAL_CALLS} times in a row with the same input and got the same result each time.`,
        },
      };
  }
  return ended;
}

function notRun(ended: NonNullable<CallsEnd>): string {
  return ended.status === 'stopped' ? 'Not run: the user stopped the run.' : 'Not run: the run stopped.';
}

function toolMessage(call: AgentToolCall, result: ToolResult): AgentMessage {
  return {
    role: 'tool',
    callId: call.id,
    name: call.name,
    content: result.content,
    ...(result.isError ? { isError: true } : {}),
  };
}

function toolNamed(options: RunAgentOptions, name: string): AgentTool | undefined {
  const tools = options.tools;
  if (isToolMap(tools)) return tools.get(name);
  return Object.hasOwn(tools, name) ? tools[name] : undefined;
}

function toolNames(options: RunAgentOptions): string[] {
  return isToolMap(options.tools) ? [...options.tools.keys()] : Object.keys(options.tools);
}

function isToolMap(tools: RunAgentOptions['tools']): tools is ReadonlyMap<string, AgentTool> {
  return tools instanceof Map;
}

/** Why a well-formed call cannot run (unknown tool, invalid input), in words the model can act on. */
function callProblem(options: RunAgentOptions, call: AgentToolCall): string | undefined {
  const tool = toolNamed(options, call.name);
  if (!tool) {
    return `Unknown tool "${call.name}". The tools are: ${toolNames(options).join(', ')}.`;
  }
  const problems = inputProblems(call.input, tool.spec.parameters);
  if (problems.length === 0) return undefined;
  return `Invalid input for ${call.name}: ${problems.join('; ')}. Call it again with valid input.`;
}

/** The tool's result, an error result when it threw, or ABORTED when Stop came first (the tool has the signal). */
async function runTool(
  tool: AgentTool,
  call: AgentToolCall,
  abort: StepAbort,
): Promise<ToolResult | typeof ABORTED> {
  const running = (async () => tool.run(call.input, abort.signal))().then(
    (result) => result,
    (error: unknown): ToolResult => ({
      content: `The tool failed: ${error instanceof Error ? error.message : String(error)}`,
      isError: true,
    }),
  );
  const first = await Promise.race([running, abort.aborted]);
  return first === ABORTED || abort.signal.aborted ? ABORTED : first;
}

/** Records the call; true when it is the same call with the same result MAX_IDENTICAL_CALLS times in a row. */
function isRepeating(state: LoopState, call: AgentToolCall, result: ToolResult): boolean {
  const entry = {
    call: `${call.name}\u0000${stableJson(call.input)}`,
    result: `${result.isError ? 'error' : 'ok'}\u0000${result.content}`,
  };
  const recent = state.recentCalls;
  recent.push(entry);
  if (recent.length > MAX_IDENTICAL_CALLS) recent.splice(0, recent.length - MAX_IDENTICAL_CALLS);
  return (
    recent.length === MAX_IDENTICAL_CALLS &&
    recent.every((e) => e.call === entry.call && e.result === entry.result)
  );
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same input. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
