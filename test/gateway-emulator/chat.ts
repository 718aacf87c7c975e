// POST /v1/chat/completions: the JSON completion and the SSE writer that plays a planned stream.
import {
  expectedAnswer,
  expectedUsage,
  reasoningTokens,
  type AnswerRequest,
  type WireUsage,
} from './answers';
import { demoAgentAction } from './agentDemo';
import { agentRunOf, nextAgentAction, planAgentStream } from './agentRuns';
import { requestIdHeader, sendEmulatorError } from './errorBodies';
import type { Exchange } from './exchange';
import { collectFaults, type FaultSet } from './faults';
import { faultProblem, preflight, resetAfterHeaders, type EmulatorContext } from './preflight';
import { planStream, reasoningField, sentReasoning, thinkTags, type StreamItem } from './streamPlan';
import { planText, planToolCall, requestedTool, toolRequestOf, toolResultAnswer } from './tools';

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};
const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** Text of a message content: a string, or the text parts of a content array. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const text = typeof part === 'object' && part !== null ? (part as { text?: unknown }).text : undefined;
      return typeof text === 'string' ? text : '';
    })
    .join('');
}

/** Validates a chat body; returns the request, or a message for a 400. */
export function parseChatBody(body: unknown): (AnswerRequest & { stream: boolean }) | string {
  if (typeof body !== 'object' || body === null) return 'body must be a JSON object';
  const { model, messages, stream } = body as { model?: unknown; messages?: unknown; stream?: unknown };
  if (typeof model !== 'string' || model === '') return '`model` must be a non-empty string';
  if (!Array.isArray(messages) || messages.length === 0) return '`messages` must be a non-empty array';
  const parsed: Array<{ role: string; content: string }> = [];
  for (const m of messages as unknown[]) {
    const role = typeof m === 'object' && m !== null ? (m as { role?: unknown }).role : undefined;
    if (typeof role !== 'string') return 'every message needs a string `role`';
    parsed.push({ role, content: contentText((m as { content?: unknown }).content) });
  }
  return { model, messages: parsed, stream: stream === true };
}

/** The last chat request among recorded ones, as the answer rules see it (tests compute answers from it). */
export function chatRequestIn(requests: ReadonlyArray<{ path: string; body: unknown }>): AnswerRequest {
  const record = requests.filter((r) => r.path.split('?')[0] === '/v1/chat/completions').at(-1);
  const parsed = parseChatBody(record?.body);
  if (typeof parsed === 'string') throw new Error(`no valid chat request recorded: ${parsed}`);
  return { model: parsed.model, messages: parsed.messages };
}

/** The non-streamed completion object for a request under its faults. */
export function completionBody(
  request: AnswerRequest,
  faults: FaultSet,
  id: string,
): Record<string, unknown> {
  const answer = expectedAnswer(request);
  const reasoning = sentReasoning(request, faults);
  const message: Record<string, unknown> = { role: 'assistant', content: answer };
  const tags = thinkTags(faults);
  if (reasoning && tags) message.content = `${tags.open}${reasoning}${tags.close}${answer}`;
  else if (reasoning) message[reasoningField(faults)] = reasoning;
  let usage: WireUsage = expectedUsage(request, answer);
  if (reasoning)
    usage = { ...usage, completion_tokens_details: { reasoning_tokens: reasoningTokens(reasoning) } };
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, finish_reason: faults.arg('finish', 'stop') ?? 'stop' }],
    usage,
  };
}

/** Serialises one stream item as an SSE event (without the terminating blank line). */
function eventText(item: StreamItem, eol: string): string {
  switch (item.kind) {
    case 'data':
      return `data: ${JSON.stringify(item.chunk)}`;
    case 'raw':
      return item.lines.join(eol);
    default:
      return 'data: [DONE]';
  }
}

/** Writes an event in two pieces cut inside its first multi-byte character, with a pause between. */
async function writeSplit(ex: Exchange, text: string, pauseMs: number): Promise<boolean> {
  const bytes = Buffer.from(text, 'utf8');
  const cut = bytes.findIndex((b) => (b & 0xc0) === 0x80);
  if (cut < 0) return ex.write(bytes);
  if (!(await ex.write(bytes.subarray(0, cut)))) return false;
  if (!(await ex.sleep(pauseMs))) return false;
  return ex.write(bytes.subarray(cut));
}

/** Plays a planned stream with pacing, keep-alive comments, line-ending and UTF-8 splitting faults. */
export async function writeStream(
  ex: Exchange,
  items: StreamItem[],
  faults: FaultSet,
  ctx: EmulatorContext,
): Promise<void> {
  const eol = faults.has('crlf') ? '\r\n' : faults.has('cr') ? '\r' : '\n';
  const comment = `: keep-alive${eol}${eol}`;
  const keepalive = faults.has('keepalive');
  const split = faults.has('split-utf8');
  const delay = ctx.options.chunkDelayMs;
  ex.head(200, { ...SSE_HEADERS, ...requestIdHeader(faults) });
  if (keepalive && !(await ex.write(comment))) return;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (i > 0) {
      if (delay > 0 && !(await ex.sleep(delay))) return;
      if (keepalive && !(await ex.write(comment))) return;
    }
    if (item.kind === 'reset') {
      ex.destroy();
      return;
    }
    if (item.kind === 'stall') {
      if (!(await ex.sleep(ctx.options.stallMs))) return;
      continue;
    }
    const event = `${eventText(item, eol)}${eol}${eol}`;
    const ok = split ? await writeSplit(ex, event, Math.max(delay, 3)) : await ex.write(event);
    if (!ok) return;
  }
  ex.end();
}

/** Handles POST /v1/chat/completions after authentication. */
export async function handleChat(ex: Exchange, body: unknown, ctx: EmulatorContext): Promise<void> {
  const request = parseChatBody(body);
  if (typeof request === 'string') return sendEmulatorError(ex, 400, request);
  const faults = collectFaults(
    ex.req.headers['x-emulator-fault'],
    request.messages.map((m) => m.content),
  );
  const problem = faultProblem(faults);
  if (problem) return sendEmulatorError(ex, 400, problem);
  const tooling = toolRequestOf(body, request.messages.at(-1)?.content ?? '');
  if (tooling.tools.length && (!ctx.options.tools || faults.has('no-tools')))
    return sendEmulatorError(ex, 400, '`tools` is not supported by this server');
  const agentRun = request.stream ? agentRunOf(body) : undefined;
  const demo = request.stream && !agentRun && ctx.options.agentDemo ? demoAgentAction(body) : undefined;
  if (agentRun || demo) {
    if (!(await preflight(ex, faults, ctx, request.model))) return;
    const identity = {
      id: `chatcmpl-emu-${ex.record.id}`,
      created: Math.floor(Date.now() / 1000),
      model: request.model,
    };
    const items = planAgentStream(
      agentRun ? nextAgentAction(agentRun) : demo!.action,
      (agentRun ?? demo!.state).protocol,
      identity,
      ctx.options.chunkSize,
    );
    return writeStream(ex, items, faults, ctx);
  }
  const tool = requestedTool(tooling);
  const toolAnswer = toolResultAnswer(tooling);
  if (request.stream && (tool || toolAnswer !== undefined)) {
    if (!(await preflight(ex, faults, ctx, request.model))) return;
    const identity = {
      id: `chatcmpl-emu-${ex.record.id}`,
      created: Math.floor(Date.now() / 1000),
      model: request.model,
    };
    const size = ctx.options.chunkSize;
    const items = tool
      ? planToolCall(tool, tooling.last.content, identity, size)
      : planText(toolAnswer ?? '', identity, size);
    return writeStream(ex, items, faults, ctx);
  }
  try {
    expectedAnswer(request);
  } catch (err) {
    return sendEmulatorError(ex, 400, (err as Error).message);
  }
  if (!(await preflight(ex, faults, ctx, request.model))) return;

  const id = `chatcmpl-emu-${ex.record.id}`;
  const stream = request.stream && !faults.has('json-instead-of-sse');
  if (faults.has('reset-before-first-token'))
    return resetAfterHeaders(ex, stream ? SSE_HEADERS : JSON_HEADERS, faults);
  if (!stream) return ex.json(200, completionBody(request, faults, id), requestIdHeader(faults));
  const items = planStream(request, faults, ctx.options.chunkSize, {
    id,
    created: Math.floor(Date.now() / 1000),
  });
  await writeStream(ex, items, faults, ctx);
}
