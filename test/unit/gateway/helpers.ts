// Shared helpers for the gateway client tests: collectors, a distinctive key and tiny local servers.
import * as assert from 'node:assert/strict';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestLogEntry, StreamEvent, Usage } from '../../../src/gateway/types';
import { until } from '../../support/poll';

/** Distinctive enough that finding it anywhere in a message means it leaked. */
export const KEY = 'sk-unit-K3yZ9xQ7-do-not-leak-4821';
export const TEXT_MODEL = 'alpha-sonnet-4-5-20250929';
export const THINKING_MODEL = 'alpha-sonnet-4-5-20250929-thinking';

export interface Collected {
  text: string;
  reasoning: string;
  usage?: Usage;
  finish?: string;
  events: StreamEvent[];
  toolCalls: Extract<StreamEvent, { type: 'toolCall' }>[];
  error?: unknown;
}

/** Drains a stream, keeping everything that arrived before an error (which is returned, not thrown). */
export async function collect(stream: AsyncIterable<StreamEvent>): Promise<Collected> {
  const out: Collected = { text: '', reasoning: '', events: [], toolCalls: [] };
  try {
    for await (const event of stream) {
      out.events.push(event);
      if (event.type === 'text') out.text += event.text;
      else if (event.type === 'reasoning') out.reasoning += event.text;
      else if (event.type === 'retractReasoning') out.reasoning = '';
      else if (event.type === 'usage') out.usage = event.usage;
      else if (event.type === 'toolCall') out.toolCalls.push(event);
      else out.finish = event.reason;
    }
  } catch (e) {
    out.error = e;
  }
  return out;
}

/** Awaits a promise that must reject, and returns the rejection. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected the promise to reject');
}

/** Builds a one-message chat request, optionally with a fault marker in it. */
export function chat(
  content: string,
  model = TEXT_MODEL,
): { model: string; messages: { role: 'user'; content: string }[] } {
  return { model, messages: [{ role: 'user', content }] };
}

/** Asserts that the key appears nowhere in an error (message, stack, fields) or log entries. */
export function assertNoKey(value: unknown, key = KEY): void {
  const seen = new Set<unknown>();
  const texts: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || v === undefined || seen.has(v)) return;
    if (typeof v === 'string') return void texts.push(v);
    if (typeof v !== 'object') return;
    seen.add(v);
    if (v instanceof Error) texts.push(v.message, v.stack ?? '', String(v));
    for (const k of Object.getOwnPropertyNames(v)) walk((v as Record<string, unknown>)[k], depth + 1);
  };
  walk(value, 0);
  for (const text of texts) assert.ok(!text.includes(key), `key leaked in: ${text.slice(0, 300)}`);
}

/** A log collector for `onRequestLog`. */
export function logSink(): { entries: RequestLogEntry[]; onRequestLog: (e: RequestLogEntry) => void } {
  const entries: RequestLogEntry[] = [];
  return { entries, onRequestLog: (e) => entries.push(e) };
}

export interface TinyServer {
  url: string;
  origin: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  closed: number;
  close(): Promise<void>;
}

/** A throwaway node:http server on 127.0.0.1 for behaviours the emulator does not have. */
export async function tinyServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  host = '127.0.0.1',
): Promise<TinyServer> {
  const sockets = new Set<Socket>();
  const state: TinyServer = {
    url: '',
    origin: '',
    requests: [],
    closed: 0,
    close: () => closeServer(server, sockets),
  };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
    res.on('close', () => {
      if (!res.writableFinished) state.closed++;
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://${host}:${port}`;
  state.url = state.origin;
  return state;
}

/** Closes a server and destroys its sockets so tests never hang on keep-alive. */
export async function closeServer(server: Server, sockets: Set<Socket>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const s of sockets) s.destroy();
  await closed;
}

/** An async iterable over the given byte chunks, as a response body would deliver them. */
export async function* bytesOf(...chunks: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield typeof c === 'string' ? new TextEncoder().encode(c) : c;
}

export { until };
