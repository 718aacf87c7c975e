// One request/response pair with the bookkeeping every handler needs: recording, bounded sleeps, safe writes.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** What the emulator records about each request. */
export interface RecordedRequest {
  id: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw string when not JSON; undefined until the body has been read (or when empty). */
  body: unknown;
  receivedAt: number;
  /** The client's port of the connection the request came on (finds the process that sent it). */
  clientPort?: number;
  /**
   * When the whole body had been read, and when the first response body bytes were handed to the socket, in
   * epoch milliseconds with a sub-millisecond fraction (`performance.timeOrigin + performance.now()`), for
   * timing figures that `receivedAt`'s whole milliseconds cannot carry.
   */
  bodyAt?: number;
  firstWriteAt?: number;
  /**
   * Every body write, when the emulator was started with `recordWrites`: when it was handed to the socket (same
   * clock as `bodyAt`), its size and its text (a benchmark finds the write that held a given byte).
   */
  writes?: Array<{ at: number; bytes: number; text: string }>;
  /** The client closed the socket before the response ended. */
  clientClosed: boolean;
  responseEnded: boolean;
  status?: number;
}

/** Every pending timer of the emulator, so close() can clear them all. */
export class TimerRegistry {
  private readonly pending = new Map<NodeJS.Timeout, () => void>();
  private closed = false;

  /** Runs `fn` after `ms` unless cleared; `onCancel` runs instead when the registry closes. */
  set(ms: number, fn: () => void, onCancel: () => void = () => undefined): () => void {
    if (this.closed) {
      onCancel();
      return () => undefined;
    }
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      fn();
    }, ms);
    this.pending.set(timer, onCancel);
    return () => {
      if (this.pending.delete(timer)) clearTimeout(timer);
    };
  }

  /** Clears every timer and runs their cancel callbacks. */
  close(): void {
    this.closed = true;
    for (const [timer, onCancel] of this.pending) {
      clearTimeout(timer);
      onCancel();
    }
    this.pending.clear();
  }
}

/** Request, response and record, with helpers that stop quietly once the response is closed. */
export class Exchange {
  /** Set when the server itself destroys the connection (a reset fault or close()), not the client. */
  serverClosed = false;
  private readonly closeWaiters = new Set<() => void>();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly record: RecordedRequest,
    private readonly timers: TimerRegistry,
    private readonly notify: () => void,
  ) {
    res.on('error', () => undefined);
    res.on('finish', () => {
      // Node may still emit 'finish' after the peer vanished mid-write; a dead socket means it did not end.
      if (res.socket?.destroyed) {
        if (!this.serverClosed) record.clientClosed = true;
      } else record.responseEnded = true;
      notify();
    });
    res.on('close', () => {
      if (!res.writableFinished && !this.serverClosed) record.clientClosed = true;
      for (const wake of this.closeWaiters) wake();
      this.closeWaiters.clear();
      notify();
    });
  }

  /** True once the response can no longer be written (client gone, server reset or emulator closed). */
  get closed(): boolean {
    const socket = this.res.socket;
    return this.res.destroyed || this.res.writableEnded || socket === null || socket.destroyed;
  }

  /** Sends the status line and headers, and records the status. */
  head(status: number, headers: OutgoingHttpHeaders = {}): void {
    if (this.closed || this.res.headersSent) return;
    this.record.status = status;
    this.res.writeHead(status, headers);
    this.notify();
  }

  /** Waits `ms`; resolves false when the response closed (or the emulator stopped) meanwhile. */
  sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      let cancelTimer: () => void = () => undefined;
      const onClose = (): void => {
        cancelTimer();
        resolve(false);
      };
      this.closeWaiters.add(onClose);
      cancelTimer = this.timers.set(
        ms,
        () => {
          this.closeWaiters.delete(onClose);
          resolve(!this.closed);
        },
        () => {
          this.closeWaiters.delete(onClose);
          resolve(false);
        },
      );
    });
  }

  /** Writes and waits until the bytes are handed to the socket; false when the response is closed. */
  write(data: string | Buffer): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    const at = performance.timeOrigin + performance.now();
    this.record.firstWriteAt ??= at;
    this.record.writes?.push({
      at,
      bytes: Buffer.byteLength(data),
      text: typeof data === 'string' ? data : data.toString('utf8'),
    });
    return new Promise((resolve) => {
      const onClose = (): void => resolve(false);
      this.closeWaiters.add(onClose);
      this.res.write(data, (err) => {
        this.closeWaiters.delete(onClose);
        resolve(!err && !this.closed);
      });
    });
  }

  /** Ends the response (optionally with a last piece of body). */
  end(data?: string | Buffer): void {
    if (this.closed) return;
    if (data === undefined) this.res.end();
    else this.res.end(data);
  }

  /** Sends a complete response in one go. */
  send(status: number, headers: OutgoingHttpHeaders, body?: string | Buffer): void {
    const length = body === undefined ? 0 : Buffer.byteLength(body);
    this.head(status, { ...headers, 'Content-Length': String(length) });
    this.end(body);
  }

  /** Sends a JSON body. */
  json(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
    this.send(status, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(body));
  }

  /** Destroys the connection from the server side (not recorded as a client close). */
  destroy(): void {
    this.serverClosed = true;
    this.res.socket?.destroy();
    this.res.destroy();
  }
}
