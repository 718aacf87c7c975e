// Plain HTTP helpers for the emulator tests (fetch and node:http only; no project client code).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { EMULATOR_TEST_KEY } from '../../gateway-emulator/keys';

/** The documented test key, which the emulator accepts by default. */
export const KEY = EMULATOR_TEST_KEY;
export const MODEL = 'alpha-sonnet-4-5-20250929';
export const THINKING = 'alpha-sonnet-4-5-20250929-thinking';

/** A chat request body for `text`, optionally with a system prompt. */
export function chatBody(
  text: string,
  extra: Record<string, unknown> = {},
  system?: string,
): { model: string; messages: Array<{ role: 'system' | 'user'; content: string }> } & Record<
  string,
  unknown
> {
  const messages: Array<{ role: 'system' | 'user'; content: string }> = [];
  if (system !== undefined) messages.push({ role: 'system', content: system });
  messages.push({ role: 'user', content: text });
  return { model: MODEL, messages, ...extra };
}

/** POSTs JSON with the test key; `fault` goes into X-Emulator-Fault. */
export function post(
  base: string,
  path: string,
  body: unknown,
  options: { fault?: string; key?: string | null; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.key !== null) headers.Authorization = `Bearer ${options.key ?? KEY}`;
  if (options.fault) headers['X-Emulator-Fault'] = options.fault;
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: options.signal ?? AbortSignal.timeout(15_000),
  });
}

/** One parsed SSE event. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Parses SSE text the way the spec describes (any of CRLF, LF, CR ends a line; comments skipped). */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let event: string | undefined;
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line === '') {
      if (data.length > 0) events.push({ event, data: data.join('\n') });
      data = [];
      event = undefined;
    } else if (line.startsWith(':')) continue;
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    else if (line.startsWith('event:')) event = line.slice(6).trim();
  }
  if (data.length > 0) events.push({ event, data: data.join('\n') });
  return events;
}

/** A streamed chunk as the tests read it. */
export interface Chunk {
  id?: string;
  choices: Array<{ delta?: Record<string, unknown>; finish_reason?: string | null }>;
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    completion_tokens_details?: { reasoning_tokens: number };
  };
  error?: unknown;
  [key: string]: unknown;
}

/** JSON chunks of a stream (skipping [DONE]), and whether [DONE] was seen. */
export function chunksOf(text: string): { chunks: Chunk[]; done: boolean } {
  const events = parseSse(text);
  const done = events.some((e) => e.data === '[DONE]');
  const chunks = events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as Chunk);
  return { chunks, done };
}

/** Concatenation of a delta field across chunks. */
export function concatField(chunks: Chunk[], field: string): string {
  return chunks
    .flatMap((c) => c.choices ?? [])
    .map((choice) => choice.delta?.[field])
    .filter((v): v is string => typeof v === 'string')
    .join('');
}

/** Result of a raw node:http exchange: every body read as received, plus how it ended. */
export interface RawResult {
  status: number;
  headers: IncomingHttpHeaders;
  reads: Buffer[];
  error?: Error;
}

/** POSTs with node:http and keeps each body read separately (to see how writes were split). */
export function rawPost(
  port: number,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<RawResult> {
  return rawRequest(
    {
      port,
      path,
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}`, ...headers },
    },
    timeoutMs,
  );
}

/** A node:http request to 127.0.0.1 with a bounded wait. */
export function rawRequest(
  options: { port: number; path: string; method?: string; body?: string; headers?: Record<string, string> },
  timeoutMs = 10_000,
): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`rawRequest timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: options.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const result: RawResult = { status: res.statusCode ?? 0, headers: res.headers, reads: [] };
        res.on('data', (part: Buffer) => result.reads.push(part));
        res.on('end', () => {
          clearTimeout(timer);
          resolve(result);
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          resolve({ ...result, error: err });
        });
        res.on('close', () => {
          clearTimeout(timer);
          if (!res.complete) resolve({ ...result, error: new Error('response closed before its end') });
        });
      },
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(options.body);
  });
}

export { pngSize } from '../../support/pngInfo';

/** Rejects when `promise` does not settle within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
