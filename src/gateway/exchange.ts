/**
 * One HTTP attempt over undici: the request, its first-byte and idle timers, the caller's abort
 * signal, body reads, and the attempt's log entry. The retry loop lives in http.ts.
 */

import { EventEmitter } from 'node:events';
import type { Dispatcher } from './undici';
import { headerValue, requestIdFrom } from './errorFactory';
import { GatewayError, UserAbortError, redactError, redactSecret } from './errors';
import { type NetworkContext, networkError, timeoutError } from './networkErrors';
import type { RequestLogEntry } from './types';

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  /** Read, never changed: the client hands every request to one endpoint the same URL object. */
  readonly url: URL;
  /** What the log shows: the path only, never a query string (signed image links carry tokens). */
  logPath: string;
  headers: Record<string, string>;
  /** Parts are written one after another; their request carries a `Content-Length` (see `post` in client.ts). */
  body?: string | Uint8Array | readonly Uint8Array[];
  model?: string;
  firstByteMs: number;
  idleMs: number;
  signal?: AbortSignal;
}

export interface ExchangeEnv {
  dispatcher: Dispatcher;
  secret?: string;
  onLog?: (entry: RequestLogEntry) => void;
}

type AbortCause = 'user' | 'first_byte' | 'idle' | 'closed';

/**
 * The abort signal handed to undici, which takes an EventEmitter with an `aborted` flag as well as an
 * AbortSignal (`Dispatcher.request`'s documented `signal` option). An AbortController and undici's
 * EventTarget listener on it added measurably to every request's time to first token
 * (docs/performance.md, Design changes).
 */
class AbortEmitter extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/** One request/response exchange. Create, `open()`, read the body, and `finish()` exactly once. */
export class Exchange {
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  requestId?: string;
  /** Set once the first byte of the response body has been read: from then on, no retry. */
  bodyStarted = false;
  private readonly aborter = new AbortEmitter();
  private abortCause?: AbortCause;
  private timer?: NodeJS.Timeout;
  private iterator?: AsyncIterator<Uint8Array>;
  private pushedBack?: Uint8Array;
  private body?: { destroy(): unknown };
  private readonly started = performance.now();
  private ttfbMs?: number;
  private finished = false;
  private readonly onUserAbort = (): void => this.abort('user');

  constructor(
    private readonly env: ExchangeEnv,
    readonly req: ExchangeRequest,
    readonly attempt: number,
  ) {}

  /** Sends the request and waits for the status line and headers. */
  async open(): Promise<void> {
    const signal = this.req.signal;
    if (signal?.aborted) throw new UserAbortError();
    signal?.addEventListener('abort', this.onUserAbort, { once: true });
    this.arm('first_byte', this.req.firstByteMs);
    try {
      const url = this.req.url;
      const response = await this.env.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: this.req.method,
        headers: this.req.headers,
        // Parts are an Iterable, which undici documents as a body (Dispatcher.md) but its types leave out.
        body: this.req.body as string | Uint8Array | undefined,
        signal: this.aborter,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      this.ttfbMs = Math.round(performance.now() - this.started);
      this.status = response.statusCode;
      this.headers = response.headers;
      this.requestId = redactSecret(requestIdFrom(response.headers), this.env.secret);
      this.body = response.body;
      // Errors surface through the iterator; without a listener, destroying an unread body would
      // raise an uncaught 'error' event.
      response.body.on('error', () => undefined);
      this.iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    } catch (e) {
      throw this.mapError(e);
    }
  }

  get contentType(): string {
    return headerValue(this.headers, 'content-type') ?? '';
  }

  /** Next body chunk, or undefined at the end. The first-byte timer runs until the first chunk, then idle. */
  async read(): Promise<Uint8Array | undefined> {
    if (this.pushedBack) {
      const chunk = this.pushedBack;
      this.pushedBack = undefined;
      return chunk;
    }
    if (!this.iterator) return undefined;
    if (this.bodyStarted) this.arm('idle', this.req.idleMs);
    try {
      const next = await this.iterator.next();
      this.disarm();
      if (next.done) return undefined;
      this.bodyStarted = true;
      return next.value;
    } catch (e) {
      throw this.mapError(e);
    }
  }

  /**
   * After the logical end of an answer (`[DONE]`), gives the server up to `ms` to end the response,
   * so the socket goes back to the pool instead of being destroyed; then closes the exchange.
   */
  async settle(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    const reading = (async (): Promise<void> => {
      try {
        while (await this.read());
      } catch {
        // Whatever happens after the answer is complete does not matter to the caller.
      }
    })();
    await Promise.race([reading, waited]);
    clearTimeout(timer);
    this.close();
  }

  /** Puts a chunk back so the next `read()` returns it first. */
  unread(chunk: Uint8Array): void {
    this.pushedBack = chunk;
  }

  /** Reads the rest of the body, failing with `onTooBig()` once more than `limit` bytes arrive. */
  async readAll(limit: number, onTooBig: () => GatewayError): Promise<Buffer> {
    const parts: Uint8Array[] = [];
    let size = 0;
    for (let chunk = await this.read(); chunk; chunk = await this.read()) {
      size += chunk.length;
      if (size > limit) {
        this.close();
        throw onTooBig();
      }
      parts.push(chunk);
    }
    return Buffer.concat(parts, size);
  }

  /** Aborts the exchange; undici destroys the socket if the response has not ended. */
  close(): void {
    this.abort('closed');
  }

  /** Stops timers, detaches from the caller's signal and writes the log entry; idempotent. */
  finish(error?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.disarm();
    this.req.signal?.removeEventListener('abort', this.onUserAbort);
    if (error !== undefined || !this.bodyStarted) this.body?.destroy();
    if (!this.env.onLog) return;
    const entry: RequestLogEntry = {
      method: this.req.method,
      path: this.req.logPath,
      attempt: this.attempt,
      durationMs: Math.round(performance.now() - this.started),
    };
    if (this.req.model) entry.model = this.req.model;
    if (this.status) entry.status = this.status;
    if (this.ttfbMs !== undefined) entry.ttfbMs = this.ttfbMs;
    if (this.requestId) entry.requestId = this.requestId;
    if (error !== undefined) {
      const name = error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? error.message : String(error);
      entry.error = redactSecret(`${name}: ${message}`, this.env.secret);
    }
    try {
      this.env.onLog(entry);
    } catch {
      // A failing logger must not break the request.
    }
  }

  /** Maps whatever undici or the timers threw into the client's error classes. */
  mapError(e: unknown): GatewayError {
    this.disarm();
    if (this.abortCause === 'user' || this.abortCause === 'closed') return new UserAbortError({ cause: e });
    const ctx: NetworkContext = {
      origin: this.req.url.origin,
      firstByteMs: this.req.firstByteMs,
      idleMs: this.req.idleMs,
      bodyStarted: this.bodyStarted,
      responded: this.status > 0,
      secret: this.env.secret,
    };
    if (this.abortCause === 'first_byte' || this.abortCause === 'idle')
      return timeoutError(this.abortCause, ctx);
    if (e instanceof GatewayError) return redactError(e, this.env.secret);
    return networkError(e, ctx);
  }

  private abort(cause: AbortCause): void {
    this.abortCause ??= cause;
    this.disarm();
    this.aborter.abort();
  }

  private arm(cause: 'first_byte' | 'idle', ms: number): void {
    this.disarm();
    if (ms > 0 && Number.isFinite(ms)) this.timer = setTimeout(() => this.abort(cause), ms);
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
