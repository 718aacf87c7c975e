/** Wire and client types for the Model Gateway /v1 API (chat completions and image generation). */

import type { DiscoveredModel } from './discovery';

/** A tool call as an assistant message carries it back to the server. */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** Instructions for the model. */
export interface SystemMessage {
  role: 'system';
  content: string;
}

/** What the user asked. */
export interface UserMessage {
  role: 'user';
  content: string;
}

/**
 * An assistant message. A turn that called tools carries them in `tool_calls`; its `content` may then be
 * null, OpenAI's own shape of such a turn (an empty string is sent as null too: some servers reject it).
 */
export type AssistantMessage =
  | { role: 'assistant'; content: string; tool_calls?: WireToolCall[] }
  | { role: 'assistant'; content: null; tool_calls: WireToolCall[] };

/** The result of one tool call, sent back after the assistant message that made it. */
export interface ToolMessage {
  role: 'tool';
  content: string;
  /** Which call this is the result of. */
  tool_call_id: string;
}

/** One message of the conversation sent to the gateway. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A message of text alone, with no tool fields: what the chat, completion and review prompts send. */
export interface TextMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A function the model may call (OpenAI `tools` entry). */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: object };
}

/** Whether and which tool the model must call: a mode, or one named function. */
export type ToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };

/** Body of POST /v1/chat/completions, less `stream`, which the client sets itself. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string | string[];
  /** Sent only with a non-empty list; so are `tool_choice` and `parallel_tool_calls`. */
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
  /**
   * Fields the client does not model (e.g. `seed`, `response_format`, a server's own options), sent as
   * given at the top level of the body. A field the client sets itself cannot be given here.
   */
  extraBody?: Record<string, unknown>;
}

/** Token accounting as the gateway reports it. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** From `completion_tokens_details.reasoning_tokens`, when the server sends it. */
  reasoning_tokens?: number;
}

/** The non-streamed chat completion object. */
export interface ChatCompletion {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: { role: 'assistant'; content: string; reasoning?: string };
    finish_reason: string | null;
  }>;
  usage?: Usage;
}

interface StreamEventBase {
  /** The completion id from the chunks (empty string when the server sent none). */
  id: string;
  /** The model the server reported (falls back to the requested model). */
  model: string;
}

/** Normalised events of a streamed completion, whatever dialect the server speaks. */
export type StreamEvent =
  | (StreamEventBase & { type: 'text'; text: string })
  /**
   * `presumed`: untagged content of a thinking model, streamed as reasoning before a closing tag confirms
   * it; a `retractReasoning` may still take it back. Consumers that cannot take back what they showed
   * read the stream through `settledReasoning`.
   */
  | (StreamEventBase & { type: 'reasoning'; text: string; presumed?: true })
  /**
   * Everything sent as `reasoning` so far in this answer was not reasoning after all (a thinking
   * model that answered without think tags): discard it. The same text follows as `text` events.
   */
  | (StreamEventBase & { type: 'retractReasoning' })
  | (StreamEventBase & { type: 'usage'; usage: Usage })
  /** One complete tool call, arguments parsed; comes after the answer's text, before usage and finish. */
  | (StreamEventBase & { type: 'toolCall'; callId: string; name: string; input: Record<string, unknown> })
  | (StreamEventBase & { type: 'finish'; reason: string });

/** Every image size the gateway accepts, in the order a picker shows them. */
export const IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', '2048x2048', '4096x4096'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];
/** Every image quality the gateway accepts. */
export const IMAGE_QUALITIES = ['auto', 'high', 'medium', 'low'] as const;
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];
/** Every way the gateway can return images; the first is the advised one. */
export const IMAGE_RESPONSE_FORMATS = ['b64_json', 'url'] as const;
export type ImageResponseFormat = (typeof IMAGE_RESPONSE_FORMATS)[number];

/** Body of POST /v1/images/generations. */
export interface ImageGenerationRequest {
  prompt: string;
  model?: string;
  n?: number;
  size?: ImageSize;
  quality?: ImageQuality;
  response_format?: ImageResponseFormat;
}

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** One generated image, already as bytes (base64 decoded, or downloaded from its url). */
export interface GeneratedImage {
  bytes: Uint8Array;
  format: ImageFormat;
  revisedPrompt?: string;
  /** The url it was downloaded from, when the gateway answered with a link. */
  sourceUrl?: string;
}

export interface ImageGenerationResult {
  created: number;
  images: GeneratedImage[];
}

/** Per-call options. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** One line of the request log, given to `GatewayClientOptions.onRequestLog`. Never holds the key or prompt. */
export interface RequestLogEntry {
  method: string;
  path: string;
  model?: string;
  status?: number;
  attempt: number;
  ttfbMs?: number;
  durationMs: number;
  requestId?: string;
  /** The error's class name and message, when the attempt failed. */
  error?: string;
}

export interface TimeoutOptions {
  /** Time to establish the TCP/TLS connection. */
  connectMs: number;
  /** Time from sending the request to the first byte of the response (chat). */
  firstByteMs: number;
  /** Longest silence allowed between two reads of a response body. */
  idleMs: number;
  /** Time to the first byte for image generation (at least 120 s; 4096x4096 takes minutes). */
  imageFirstByteMs: number;
}

export interface RetryOptions {
  /** How many times a failed attempt is retried (default 2). */
  maxRetries: number;
  /** First backoff delay; doubled each retry, with jitter. */
  baseDelayMs: number;
  /** Cap on one backoff delay. */
  maxDelayMs: number;
  /** A Retry-After longer than this is reported to the caller instead of slept through. */
  maxRetryAfterMs: number;
}

export interface GatewayClientOptions {
  /** With or without a trailing `/v1` or slash. */
  baseUrl: string;
  /** The key, or an async getter called for each request. */
  apiKey: string | (() => Promise<string | undefined> | string | undefined);
  timeouts?: Partial<TimeoutOptions>;
  retry?: Partial<RetryOptions>;
  /** Explicit proxy URL. When absent, HTTPS_PROXY/HTTP_PROXY/NO_PROXY from the environment apply. */
  proxy?: string;
  /** e.g. `model-gateway-vscode/0.1.0`. */
  userAgent?: string;
  /** Cap on one downloaded image (bytes). */
  maxImageBytes?: number;
  onRequestLog?: (entry: RequestLogEntry) => void;
  /**
   * Extra headers for every gateway request (`modelGateway.network.headers`). The client's own headers
   * (Authorization, Content-Type, Accept, User-Agent) win; validate with `validateCustomHeaders` first.
   */
  headers?: Record<string, string>;
}

/** Options of `listModels`. */
export interface ListModelsOptions extends RequestOptions {
  /** How long the server gets to answer, default 10 s: discovery is a background nicety. */
  timeoutMs?: number;
}

export interface GatewayClient {
  /** POST /v1/chat/completions without streaming. */
  createChatCompletion(request: ChatCompletionRequest, options?: RequestOptions): Promise<ChatCompletion>;
  /** POST /v1/chat/completions with `stream: true`; breaking out of the loop aborts the request. */
  streamChatCompletion(request: ChatCompletionRequest, options?: RequestOptions): AsyncIterable<StreamEvent>;
  /** POST /v1/images/generations; every image comes back as bytes with its detected format. */
  generateImages(request: ImageGenerationRequest, options?: RequestOptions): Promise<ImageGenerationResult>;
  /** GET /v1/models, parsed (see discovery.ts); throws the usual typed errors (404, 401, timeout, malformed). */
  listModels(options?: ListModelsOptions): Promise<DiscoveredModel[]>;
  /** Closes pooled connections; requests in progress are aborted. */
  close(): Promise<void>;
  /** Refuses new requests, and closes the connections once the requests in progress have ended. */
  retire(): Promise<void>;
}
