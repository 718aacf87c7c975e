/** Client option defaults and the request bodies sent to the gateway. */

import { DEFAULT_IMAGE_MODEL } from './models';
import { DEFAULT_RETRY } from './retry';
import type {
  ChatCompletionRequest,
  ChatMessage,
  ImageGenerationRequest,
  RetryOptions,
  TimeoutOptions,
} from './types';

/** Kept in step with package.json by hand: the pure layer does not read files; the host passes its own UA. */
export const CLIENT_VERSION = '0.1.0';
export const DEFAULT_USER_AGENT = `model-gateway-vscode/${CLIENT_VERSION}`;

/** The spec advises 120 s or more for large images. */
export const MIN_IMAGE_FIRST_BYTE_MS = 120_000;

export const DEFAULT_TIMEOUTS: TimeoutOptions = {
  connectMs: 15_000,
  // Thinking models can reason for minutes before the first byte of a non-streamed answer.
  firstByteMs: 300_000,
  idleMs: 120_000,
  imageFirstByteMs: 300_000,
};

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Fills in the timeout defaults; the image first-byte limit never drops below 120 s. */
export function resolveTimeouts(options: Partial<TimeoutOptions> = {}): TimeoutOptions {
  return {
    connectMs: positive(options.connectMs, DEFAULT_TIMEOUTS.connectMs),
    firstByteMs: positive(options.firstByteMs, DEFAULT_TIMEOUTS.firstByteMs),
    idleMs: positive(options.idleMs, DEFAULT_TIMEOUTS.idleMs),
    imageFirstByteMs: Math.max(
      MIN_IMAGE_FIRST_BYTE_MS,
      positive(options.imageFirstByteMs, DEFAULT_TIMEOUTS.imageFirstByteMs),
    ),
  };
}

/** Fills in the retry defaults (2 retries, 60 s cap on Retry-After). */
export function resolveRetry(options: Partial<RetryOptions> = {}): RetryOptions {
  const maxRetries = options.maxRetries;
  return {
    maxRetries:
      typeof maxRetries === 'number' && Number.isInteger(maxRetries) && maxRetries >= 0
        ? maxRetries
        : DEFAULT_RETRY.maxRetries,
    baseDelayMs: positive(options.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: positive(options.maxDelayMs, DEFAULT_RETRY.maxDelayMs),
    maxRetryAfterMs:
      typeof options.maxRetryAfterMs === 'number' && options.maxRetryAfterMs >= 0
        ? options.maxRetryAfterMs
        : DEFAULT_RETRY.maxRetryAfterMs,
  };
}

/** One message as sent: tool fields only where they belong. */
function wireMessage(m: ChatMessage): Record<string, unknown> {
  const wire: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.role === 'assistant' && m.tool_calls?.length) {
    wire.tool_calls = m.tool_calls;
    // OpenAI's shape is null content next to tool calls; some servers reject an empty string there.
    if (!m.content) wire.content = null;
  }
  if (m.role === 'tool') wire.tool_call_id = m.tool_call_id;
  return wire;
}

/** A message's JSON with the fields it was made from, compared by identity. */
interface KeptJson {
  role: ChatMessage['role'];
  content: string;
  json: string;
}

/**
 * Each message's JSON as last sent. A chat sends the same message objects again with every question (the
 * host's MessageMemo keeps them while their turns are unchanged), and serialising a long conversation's
 * messages again was most of the body's cost. Only messages without tool fields are kept: their JSON follows
 * from role and content alone, which are compared on every use, so a changed message is serialised again.
 */
const keptJson = new WeakMap<ChatMessage, KeptJson>();

function messageJson(m: ChatMessage): string {
  if (m.role === 'tool' || (m.role === 'assistant' && m.tool_calls !== undefined) || m.content === null)
    return JSON.stringify(wireMessage(m));
  const kept = keptJson.get(m);
  if (kept && kept.role === m.role && kept.content === m.content) return kept.json;
  const json = JSON.stringify(wireMessage(m));
  keptJson.set(m, { role: m.role, content: m.content, json });
  return json;
}

/** A chat body's text in three parts: `head` + the messages' JSON joined by commas + `tail`. */
export interface ChatBodyParts {
  /** `{"model":…,"messages":[` */
  head: string;
  /** Each message's JSON, the same string objects while the messages are unchanged. */
  messages: string[];
  /** `]`, the other fields, `}` */
  tail: string;
}

/** The parts of {@link chatBody}'s text (see there). */
export function chatBodyParts(request: ChatCompletionRequest, stream: boolean): ChatBodyParts {
  const rest: Record<string, unknown> = {};
  if (request.tools?.length) {
    rest.tools = request.tools;
    // Servers reject tool options without tools (OpenAI: parallel_tool_calls "only allowed when tools are specified").
    if (request.tool_choice) rest.tool_choice = request.tool_choice;
    if (request.parallel_tool_calls !== undefined) rest.parallel_tool_calls = request.parallel_tool_calls;
  }
  if (request.max_tokens !== undefined) rest.max_tokens = request.max_tokens;
  if (request.temperature !== undefined) rest.temperature = request.temperature;
  if (request.top_p !== undefined) rest.top_p = request.top_p;
  if (request.stop !== undefined) rest.stop = request.stop;
  // validateChatRequest keeps extraBody off the fields above, so nothing here replaces them.
  if (request.extraBody) Object.assign(rest, request.extraBody);
  if (stream) rest.stream = true;
  const restJson = JSON.stringify(rest);
  return {
    head: `{"model":${JSON.stringify(request.model.trim())},"messages":[`,
    messages: request.messages.map(messageJson),
    tail: `]${restJson === '{}' ? '' : `,${restJson.slice(1, -1)}`}}`,
  };
}

/**
 * The JSON body of a chat request: only known fields and those of `extraBody`, so stray caller properties never
 * reach the wire. The same text as `JSON.stringify` of `{ model, messages, tools, tool_choice,
 * parallel_tool_calls, max_tokens, temperature, top_p, stop, ...extraBody, stream }` (absent fields left out),
 * with each message's JSON reused while the message is unchanged.
 */
export function chatBody(request: ChatCompletionRequest, stream: boolean): string {
  const { head, messages, tail } = chatBodyParts(request, stream);
  return `${head}${messages.join(',')}${tail}`;
}

/** The JSON body of an image request, with the spec's default model filled in. */
export function imageBody(request: ImageGenerationRequest): string {
  const body: Record<string, unknown> = {
    model: request.model?.trim() || DEFAULT_IMAGE_MODEL,
    prompt: request.prompt,
  };
  if (request.n !== undefined) body.n = request.n;
  if (request.size !== undefined) body.size = request.size;
  if (request.quality !== undefined) body.quality = request.quality;
  if (request.response_format !== undefined) body.response_format = request.response_format;
  return JSON.stringify(body);
}
