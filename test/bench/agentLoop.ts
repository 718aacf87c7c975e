/**
 * Case 13, the agent loop's overhead in plain Node: from a tool's result handed back to the loop to the next
 * model call, over 30-step runs with 10 KB per result (300 KB in all), the tool's own work excluded. The issue's
 * budget (5 ms median) is for the real extension host, where the request also crosses the protocol and the
 * client; this figure is the pure loop's share of it. The baseline is the least any loop does: append the
 * result and call the model with a copy of the messages.
 */
import { runAgent } from '../../src/agent/loop';
import type { AgentMessage, ModelStepEvent, ToolResult } from '../../src/agent/types';
import { estimateTokens } from '../../src/chat/tokens';
import { type Row, fmtMs } from './report';
import type { BenchSettings } from './settings';
import { interleave, median } from './stats';

const CASE = '13. Agent loop (plain Node)';
const STEPS = 30;
const RESULT_BYTES = 10_000;

/** A 10 KB source-like result, different at every step so the repeated-call rule never ends the run. */
function resultText(step: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < RESULT_BYTES; i++)
    lines.push(`  const value${step}_${i} = compute(${i}, 'item-${step}-${i}'); // line ${i + 1}`);
  return lines.join('\n').slice(0, RESULT_BYTES);
}

const results = Array.from({ length: STEPS }, (_, i) => resultText(i));

function stepEvents(step: number): ModelStepEvent[] {
  if (step === STEPS) return [{ type: 'text', text: 'Done: the files are read.' }];
  return [
    { type: 'text', text: `Reading part ${step}.` },
    { type: 'toolCall', call: { id: `call_${step}`, name: 'read_file', input: { path: `src/f${step}.ts` } } },
  ];
}

async function* stream(events: ModelStepEvent[]): AsyncGenerator<ModelStepEvent> {
  yield* events;
}

/** One 30-step run through runAgent; the gaps between each result and the next model call (case 14 compares). */
export async function loopRun(contextTokens: number, elided: { count: number }): Promise<number[]> {
  const gaps: number[] = [];
  let handedBack = 0;
  let step = 0;
  const outcome = await runAgent({
    messages: [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Read the project.' },
    ],
    tools: {
      read_file: {
        spec: {
          name: 'read_file',
          description: 'Reads a file.',
          parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
          readOnly: true,
        },
        run: async (): Promise<ToolResult> => {
          const content = results[step - 1];
          handedBack = performance.now();
          return { content };
        },
      },
    },
    callModel: (_messages, _signal) => {
      if (step > 0) gaps.push(performance.now() - handedBack);
      return stream(stepEvents(step++));
    },
    signal: new AbortController().signal,
    maxSteps: STEPS + 1,
    contextTokens,
    estimateTokens,
    onEvent: (event) => {
      if (event.type === 'elided') elided.count += event.notes.length;
    },
  });
  if (outcome.status !== 'done' || gaps.length !== STEPS)
    throw new Error(`the run ended ${outcome.status} after ${gaps.length} steps`);
  return gaps;
}

/** The floor: append the result and call the model with a copy of the messages, nothing else. */
async function handRun(): Promise<number[]> {
  const gaps: number[] = [];
  const messages: AgentMessage[] = [{ role: 'user', content: 'Read the project.' }];
  const call = (list: AgentMessage[]): void => void list;
  for (let step = 0; step < STEPS; step++) {
    const events = stepEvents(step);
    for await (const e of stream(events))
      if (e.type === 'toolCall') messages.push({ role: 'assistant', content: '', toolCalls: [e.call] });
    const content = results[step];
    const handedBack = performance.now();
    const result = await Promise.resolve({ content });
    messages.push({ role: 'tool', callId: `call_${step}`, name: 'read_file', content: result.content });
    call(messages.slice());
    gaps.push(performance.now() - handedBack);
  }
  return gaps;
}

/** Median loop overhead per step, with and without elision near the context. */
export async function agentLoopRows(settings: BenchSettings): Promise<Row[]> {
  const { runs, warmup } = settings.agent;
  const rows: Row[] = [];
  // 300 KB of results is about 75,000 estimated tokens: 200,000 never elides, 32,000 elides from step 9 on.
  for (const [contextTokens, what] of [
    [200_000, 'no elision'],
    [32_000, 'eliding near a 32k context'],
  ] as const) {
    const elided = { count: 0 };
    const paired = await interleave(runs, warmup, () => loopRun(contextTokens, elided), handRun);
    const elidedPerRun = elided.count / (runs + warmup);
    if (contextTokens < 100_000 !== elidedPerRun > 0)
      throw new Error(`${elidedPerRun} results elided per run ${what}`);
    const ours = median(paired.ours.flat());
    const hand = median(paired.baseline.flat());
    const lastSteps = median(paired.ours.map((gaps) => median(gaps.slice(-5))));
    rows.push({
      case: CASE,
      figure: `tool result in → next model call, ${what} (30 steps × 10 KB, median of ${paired.ours.flat().length})`,
      ours: fmtMs(ours),
      baseline: `${fmtMs(hand)} (append and call)`,
      ratio: '–',
      budget: '–',
      status: 'info',
      note: `last 5 steps ${fmtMs(lastSteps)}; ${elidedPerRun} results elided per run; the issue's 5 ms budget is for the real extension host, of which this is the loop's share`,
      data: { ours: paired.ours, hand: paired.baseline },
    });
  }
  return rows;
}
