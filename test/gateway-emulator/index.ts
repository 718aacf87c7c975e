// The Model Gateway emulator: a real node:http server on 127.0.0.1 with scriptable faults (see CONTRACT.md).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleChat } from './chat';
import { openAiError, sendEmulatorError } from './errorBodies';
import { Exchange, TimerRegistry, type RecordedRequest } from './exchange';
import { handleImages, serveFile } from './images';
import { type ServedModel, defaultServedModels, handleModels } from './models';
import { DEFAULT_KEYS } from './keys';
import type { EmulatorContext, ResolvedOptions } from './preflight';

export type { RecordedRequest } from './exchange';
export type { ServedModel } from './models';
export {
  answerHeadline,
  expectedAnswer,
  expectedChatAnswer,
  expectedCode,
  expectedReasoning,
  expectedUsage,
  fixedAnswer,
} from './answers';
export { expectedStreamText, keptAnswerText } from './streamPlan';
export { chatRequestIn } from './chat';
export { collectFaults } from './faults';
export { DEFAULT_KEYS, EMULATOR_KEY, EMULATOR_TEST_KEY } from './keys';

/** Options of startEmulator; every field is optional. */
export interface EmulatorOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Pacing between SSE chunks, default 0. */
  chunkDelayMs?: number;
  /** Characters (code points) of answer text per chunk, default 8. */
  chunkSize?: number;
  /** Keys accepted (exact match), default `DEFAULT_KEYS` (`sk-emulator-local`, `sk-emulator-test`). */
  keys?: readonly string[];
  /** Overrides `keys` entirely when given (for tests that need a rule rather than a list). */
  acceptKey?: (key: string) => boolean;
  /** Lifetime of url-form image links, default 60_000. */
  imageUrlTtlMs?: number;
  /** How long a stall fault holds, default 60_000 (tests close the emulator instead of waiting). */
  stallMs?: number;
  /**
   * What `GET /v1/models` lists, default the spec's text models; `false` answers 404 like a server without
   * the endpoint. Changeable later through `Emulator.models`.
   */
  models?: readonly ServedModel[] | false;
  /** False makes the emulator answer 400 to any chat request with `tools` (a server without tool calling). */
  tools?: boolean;
  /**
   * A streamed request that offers the agent's tools and names no `[[agent:…]]` script explores the project with
   * them (see agentDemo.ts): what `npm start` shows in Agent mode. Default false.
   */
  agentDemo?: boolean;
  /** Records every body write of every request in `RecordedRequest.writes` (for benchmarks; small answers only). */
  recordWrites?: boolean;
}

/** A running emulator. */
export interface Emulator {
  /** `http://127.0.0.1:PORT`, without `/v1`. */
  url: string;
  port: number;
  /** Every request received, in order, including image downloads. */
  requests: RecordedRequest[];
  /** The accepted keys; tests add their own distinctive key here (ignored when `acceptKey` was given). */
  keys: Set<string>;
  /** What `GET /v1/models` lists now; `false` answers 404. */
  models: readonly ServedModel[] | false;
  /** Resolves once `pred(requests)` holds; rejects after `timeoutMs` (default 5000) or on close(). */
  waitFor(pred: (r: RecordedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Clears the recorded requests and the flaky counters. */
  reset(): void;
  /** Stops listening, destroys open sockets and clears every timer. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 100 * 1024 * 1024;

interface Waiter {
  pred: (r: RecordedRequest[]) => boolean;
  resolve: () => void;
  reject: (err: Error) => void;
  cancel: () => void;
}

/** Reads the request body; undefined when the client went away or the body is too large. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (part: Buffer) => {
      size += part.length;
      if (size <= MAX_BODY_BYTES) parts.push(part);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(parts) : undefined));
    req.on('error', () => resolve(undefined));
    req.on('close', () => resolve(undefined));
  });
}

/** Parsed JSON, or the raw text when it is not JSON (undefined for an empty body). */
function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The bearer key of a request, if any. */
function bearerKey(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

/** Sends the OpenAI-style 401 for a missing or rejected key. */
function sendUnauthorized(ex: Exchange, key: string | undefined): void {
  const message = key
    ? `Incorrect API key provided: ${key.slice(0, 3)}****${key.slice(-4)}. You can find your API key in your account settings.`
    : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
  const { type } = openAiError(401);
  ex.json(401, { error: { message, type, param: null, code: 'invalid_api_key' } });
}

/** Starts the emulator on 127.0.0.1 and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const keys = new Set(options.keys ?? DEFAULT_KEYS);
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    chunkDelayMs: options.chunkDelayMs ?? 0,
    chunkSize: options.chunkSize ?? 8,
    acceptKey: options.acceptKey ?? ((key) => keys.has(key)),
    imageUrlTtlMs: options.imageUrlTtlMs ?? 60_000,
    stallMs: options.stallMs ?? 60_000,
    tools: options.tools ?? true,
    agentDemo: options.agentDemo ?? false,
  };
  const served = { models: options.models ?? defaultServedModels() };
  const timers = new TimerRegistry();
  const ctx: EmulatorContext = { options: resolved, timers, flaky: new Map(), files: new Map(), port: 0 };
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const exchanges = new Set<Exchange>();
  const waiters = new Set<Waiter>();
  let nextId = 1;
  let closing = false;

  const holds = (pred: (r: RecordedRequest[]) => boolean): boolean => {
    try {
      return pred(requests);
    } catch {
      return false; // a predicate reading a half-filled record just tries again on the next change
    }
  };
  const notify = (): void => {
    for (const w of waiters) {
      if (holds(w.pred)) {
        waiters.delete(w);
        w.cancel();
        w.resolve();
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const record: RecordedRequest = {
      id: nextId++,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: undefined,
      receivedAt: Date.now(),
      clientPort: req.socket.remotePort,
      clientClosed: false,
      responseEnded: false,
    };
    if (options.recordWrites) record.writes = [];
    requests.push(record);
    const ex = new Exchange(req, res, record, timers, notify);
    exchanges.add(ex);
    res.on('close', () => exchanges.delete(ex));
    notify();

    const raw = await readBody(req);
    if (raw === undefined) {
      if (!ex.closed) sendEmulatorError(ex, 413, 'request body too large or incomplete');
      return;
    }
    record.bodyAt = performance.timeOrigin + performance.now();
    record.body = parseBody(raw);
    notify();

    const path = record.path.split('?')[0];
    const file = /^\/files\/([0-9a-f]+)\.png$/.exec(path);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) return serveFile(ex, file[1], ctx);
    const routes: Record<string, (e: Exchange, b: unknown, c: EmulatorContext) => Promise<void>> = {
      '/v1/chat/completions': handleChat,
      '/v1/images/generations': handleImages,
    };
    if (path === '/v1/models' && served.models !== false) {
      if (req.method !== 'GET') return sendEmulatorError(ex, 405, `${path} takes GET`);
      const key = bearerKey(req);
      if (key === undefined || !resolved.acceptKey(key)) return sendUnauthorized(ex, key);
      return handleModels(ex, served.models);
    }
    const route = routes[path];
    if (!route) return sendEmulatorError(ex, 404, `no route for ${req.method} ${path}`);
    if (req.method !== 'POST') return sendEmulatorError(ex, 405, `${path} takes POST`);
    const key = bearerKey(req);
    if (key === undefined || !resolved.acceptKey(key)) return sendUnauthorized(ex, key);
    await route(ex, record.body, ctx);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`emulator error: ${String(err)}`);
    });
  });
  server.on('connection', (socket) => {
    if (closing) return void socket.destroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('emulator: no TCP address');
  ctx.port = address.port;

  return {
    url: `http://127.0.0.1:${ctx.port}`,
    port: ctx.port,
    requests,
    keys,
    get models() {
      return served.models;
    },
    set models(list) {
      served.models = list;
    },
    waitFor(pred, timeoutMs = 5000) {
      if (holds(pred)) return Promise.resolve();
      if (closing) return Promise.reject(new Error('emulator: closed'));
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { pred, resolve, reject, cancel: () => undefined };
        waiter.cancel = timers.set(
          timeoutMs,
          () => {
            waiters.delete(waiter);
            reject(
              new Error(
                `emulator: waitFor timed out after ${timeoutMs} ms (${requests.length} requests recorded)`,
              ),
            );
          },
          () => {
            waiters.delete(waiter);
            reject(new Error('emulator: closed while waiting'));
          },
        );
        waiters.add(waiter);
      });
    },
    reset() {
      requests.length = 0;
      ctx.flaky.clear();
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const ex of exchanges) ex.serverClosed = true;
      timers.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await closed;
      ctx.files.clear();
    },
  };
}
