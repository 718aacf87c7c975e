// Plans a streamed completion as a list of SSE items (pure), so the server and tests share one source of truth.
import {
  codePoints,
  expectedAnswer,
  expectedReasoning,
  expectedUsage,
  reasoningTokens,
  type AnswerRequest,
  type WireUsage,
} from './answers';
import { chunkBase, choiceChunk, type StreamItem } from './chunks';
import { collectFaults, FaultSet } from './faults';

export type { StreamItem } from './chunks';

/** Identity of the completion, shared by every chunk. */
export interface PlanIdentity {
  id: string;
  created: number;
}

/** Which delta field carries reasoning (`reasoning-field` fault, default `reasoning_content`). */
export function reasoningField(faults: FaultSet): 'reasoning' | 'reasoning_content' {
  return faults.arg('reasoning-field') === 'reasoning' ? 'reasoning' : 'reasoning_content';
}

/** The think-tag pair of a `think-tags` fault, or undefined when reasoning goes in a delta field (or nowhere). */
export function thinkTags(faults: FaultSet): { open: string; close: string } | undefined {
  const variant = faults.arg('think-tags', 'think');
  if (variant === undefined || variant === 'none') return undefined;
  if (variant === 'thinking') return { open: '<thinking>', close: '</thinking>' };
  return { open: variant === 'no-open' ? '' : '<think>', close: '</think>' };
}

/** The reasoning a thinking model sends: none under `think-tags:none` (it answers untagged, in content only). */
export function sentReasoning(request: AnswerRequest, faults: FaultSet): string {
  return faults.arg('think-tags') === 'none' ? '' : expectedReasoning(request);
}

/** Cuts text into pieces of `size` code points. */
export function splitText(text: string, size: number): string[] {
  const points = codePoints(text);
  const pieces: string[] = [];
  const step = Math.max(1, Math.floor(size));
  for (let i = 0; i < points.length; i += step) pieces.push(points.slice(i, i + step).join(''));
  return pieces;
}

/** Splits a tag in two so that no single chunk holds it whole. */
function halves(tag: string): string[] {
  if (tag.length < 2) return tag ? [tag] : [];
  const mid = Math.floor(tag.length / 2);
  return [tag.slice(0, mid), tag.slice(mid)];
}

/** Reasoning inline in content: tag halves are glued to neighbouring reasoning text, as real servers do. */
function taggedPieces(reasoning: string, tags: { open: string; close: string }, size: number): string[] {
  const pieces = splitText(reasoning, size);
  const [openA, openB] = halves(tags.open);
  const [closeA, closeB] = halves(tags.close);
  if (openB !== undefined) pieces[0] = openB + (pieces[0] ?? '');
  if (openA !== undefined) pieces.unshift(openA);
  pieces[pieces.length - 1] += closeA;
  pieces.push(closeB);
  return pieces;
}

const EXTRA_TOP = {
  system_fingerprint: 'fp_emulator',
  provider: 'Emulator',
  x_emulator: { shard: 3, tags: ['a'] },
};

/** The in-stream error step for the `in-stream-error` variant. */
function errorItem(variant: string, base: Record<string, unknown>): StreamItem {
  if (variant === 'flat') {
    const body = {
      error: {
        message: 'The server had an error while processing your request.',
        type: 'server_error',
        param: null,
        code: 'internal_error',
      },
    };
    return { kind: 'raw', lines: [`data: ${JSON.stringify(body)}`] };
  }
  if (variant === 'event') {
    const body = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
    return { kind: 'raw', lines: ['event: error', `data: ${JSON.stringify(body)}`] };
  }
  const error = {
    message: 'Upstream provider error: connection lost',
    code: 502,
    metadata: { provider_name: 'Emulator' },
  };
  return choiceChunk(base, { content: '' }, 'error', {}, { error });
}

/** The usage object streamed with the finish chunk (or the usage chunk). */
function streamUsage(request: AnswerRequest, answer: string, reasoning: string, details: boolean): WireUsage {
  const usage = expectedUsage(request, answer);
  if (details || reasoning)
    return { ...usage, completion_tokens_details: { reasoning_tokens: reasoningTokens(reasoning) } };
  return usage;
}

/** Plans the SSE items of a streamed answer to `request` under `faults`. */
export function planStream(
  request: AnswerRequest,
  faults: FaultSet,
  chunkSize: number,
  identity: PlanIdentity = { id: 'chatcmpl-emu', created: 0 },
): StreamItem[] {
  const answer = expectedAnswer(request);
  const reasoning = sentReasoning(request, faults);
  const extra = faults.has('extra-fields');
  const base = chunkBase({ ...identity, model: request.model });
  if (extra) Object.assign(base, EXTRA_TOP);
  const items: StreamItem[] = [];
  let roleSent = false;
  const push = (
    delta: Record<string, unknown>,
    finish: string | null = null,
    more: Record<string, unknown> = {},
  ): void => {
    const d = roleSent ? delta : { role: 'assistant', ...delta };
    roleSent = true;
    const choiceExtra = extra ? { logprobs: null, native_finish_reason: finish } : {};
    items.push(choiceChunk(base, d, finish, choiceExtra, more));
  };

  if (faults.has('role-first')) push({ content: '' });
  const tags = thinkTags(faults);
  if (reasoning && tags) {
    for (const piece of taggedPieces(reasoning, tags, chunkSize)) push({ content: piece });
  } else if (reasoning) {
    const field = reasoningField(faults);
    for (const piece of splitText(reasoning, chunkSize)) push({ [field]: piece });
  }
  const big = faults.num('big-event');
  if (big !== undefined) push({ content: 'x'.repeat(Math.floor(big)) });

  const pieces = splitText(answer, chunkSize);
  const cut = Math.min(2, pieces.length);
  for (let i = 0; i < pieces.length; i++) {
    push({ content: pieces[i] });
    if (i === 0 && faults.has('malformed-chunk')) {
      items.push({
        kind: 'raw',
        lines: ['data: {"id":"broken","choices":[{"index":0,"delta":{"content":"lost'],
      });
    }
    if (i === 0 && extra)
      items.push({ kind: 'data', chunk: { ...base, choices: [{ index: 0, finish_reason: null }] } });
    if (i + 1 !== cut) continue;
    if (faults.has('in-stream-error')) {
      items.push(errorItem(faults.arg('in-stream-error', 'chunk') ?? 'chunk', base));
      return items;
    }
    if (faults.has('reset-mid-stream')) {
      items.push({ kind: 'reset' });
      return items;
    }
    if (faults.has('stall-mid-stream')) items.push({ kind: 'stall' });
  }
  if (faults.has('no-done-no-finish')) return items;

  const usageChunk = faults.has('usage-chunk');
  const usage = streamUsage(request, answer, reasoning, usageChunk);
  push({}, faults.arg('finish', 'stop') ?? 'stop', usageChunk ? {} : { usage });
  if (usageChunk) items.push({ kind: 'data', chunk: { ...base, choices: [], usage } });
  if (!faults.has('no-done')) items.push({ kind: 'done' });
  return items;
}

/** What a correct client reads from a planned stream: the content, the reasoning, the finish reason. */
export interface StreamText {
  content: string;
  reasoning: string;
  finishReason?: string;
  done: boolean;
}

/**
 * Replays a plan the way a client would, for tests that need the expected text under faults. With
 * `stopAtFailure`, the replay ends at the first item a client fails on (a reset, a raw malformed or error
 * event, a stall longer than its idle time-out, an error chunk): the text a client keeps when it stops there.
 */
export function expectedStreamText(
  request: AnswerRequest,
  faults: FaultSet,
  chunkSize = 8,
  stopAtFailure = false,
): StreamText {
  const out: StreamText = { content: '', reasoning: '', done: false };
  for (const item of planStream(request, faults, chunkSize)) {
    if (item.kind === 'reset') break;
    if (stopAtFailure && (item.kind === 'raw' || item.kind === 'stall')) break;
    if (stopAtFailure && item.kind === 'data' && 'error' in item.chunk) break;
    if (item.kind === 'done') out.done = true;
    if (item.kind !== 'data') continue;
    const choices = item.chunk.choices as Array<{
      delta?: Record<string, unknown>;
      finish_reason?: string | null;
    }>;
    for (const choice of choices) {
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string') out.content += delta.content;
      for (const field of ['reasoning', 'reasoning_content']) {
        if (typeof delta[field] === 'string') out.reasoning += delta[field];
      }
      if (choice.finish_reason) out.finishReason = choice.finish_reason;
    }
  }
  return out;
}

/**
 * The answer text a client keeps from the emulator's stream for `request` (faults from its markers),
 * stopping where it fails: exactly the text that arrived before the fault.
 */
export function keptAnswerText(request: AnswerRequest, chunkSize = 8): string {
  const faults = collectFaults(
    undefined,
    request.messages.map((m) => m.content),
  );
  return expectedStreamText(request, faults, chunkSize, true).content;
}
