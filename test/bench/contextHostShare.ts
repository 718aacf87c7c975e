/**
 * Case 7, the extension's own share of the send path, inside the real extension host with the staged production
 * extension: a `send` message handed to the chat session as the webview's message arrives (`ChatSession.receive`)
 * → the request's body read by a server in this same process (one clock). code-server's relay between the
 * webview and the extension host is not in it; contextSend.ts measures the whole way from Enter.
 *
 * The session is attached to a webview (an empty panel), so its posts (the user turn with its attachments, the
 * answer's turn, the chips, the history) cost what they cost in the real chat. Each send is split into phases by
 * wrapping a few of the session's methods from outside (the production code is not changed for it), and with
 * `profile` set, the sends run under the V8 sampling profiler.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { Agent, request } from 'undici';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../src/extension';
import { conversation } from './corpus';
import { type CpuProfile, type SampledTime, type Window, nowUs, timeInWindows } from './profileWindows';
import { LEDGER_FILES } from './contextWorkspace';
import { sleep } from '../support/poll';

/** One send: until the request's first bytes, and until its whole body, arrived at the server (ms). */
export interface HostShare {
  headersMs: number;
  bodyMs: number;
  /**
   * Until the extension's client had written the whole request to the socket (undici's `bodySent`): its share
   * in a deployment, where the gateway is another process. What follows until `bodyMs` is the extension host's
   * work after the request left (the question's save, the posts' relay) and the server's reading, on one thread.
   */
  sentMs: number;
  /**
   * The transport floor: the same body and headers posted again by a bare undici request to the same server,
   * until the body is read (ms): what any client pays to move this body through the socket. The second of two
   * such posts right after the send, so the send's own finishing work (the answer saved) is mostly behind it.
   */
  floorMs: number;
  /** Where the time went (ms from the `send` handed to the session), when the phases could be seen. */
  phases?: SendPhases;
}

/** Marks inside one send, each in ms from the `send` message handed to the session. */
export interface SendPhases {
  /** The composer's attachments read again (`ChatContext.snapshot` resolved). */
  snapshotAt: number;
  /** The client asked to stream (`streamChatCompletion` called): the session's work before the request is done. */
  streamAt: number;
  /** Synchronous time spent before `streamAt` in the session's posts to the webview. */
  postMs: number;
  /** Synchronous time spent before `streamAt` in the store's scheduleSave (serialising the conversation). */
  saveMs: number;
  /** Synchronous time spent before `streamAt` in the history update (touched). */
  touchedMs: number;
}

/** Longer than the store's save interval (500 ms): see `sendOnce`. */
const PAUSE_BEFORE_SEND_MS = 600;

/** A minimal OpenAI-style stream: one token, then the end. */
function answer(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [] as unknown[],
  };
  chunk.choices = [{ index: 0, delta: { content: 'Ok.' }, finish_reason: null }];
  res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  chunk.choices = [{ index: 0, delta: {}, finish_reason: 'stop' }];
  res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
}

type Opened = Awaited<ReturnType<ModelGatewayApi['openChatSession']>>;
type BenchSession = Opened['session'];

/** What the phases are taken from: the session's hub and its posts, reached as the running code has them. */
interface Internals {
  chat: {
    scheduleSave(conversation: unknown): void;
    touched(conversation: unknown): void;
    gateway: { current(): { streamChatCompletion: (...args: unknown[]) => unknown } };
  };
  post(message: unknown): void;
}

/** Wraps the session's methods so each send records its phases; returns a function that starts a send's record. */
function tracePhases(session: BenchSession): (started: number) => SendPhases {
  let record: SendPhases = { snapshotAt: 0, streamAt: 0, postMs: 0, saveMs: 0, touchedMs: 0 };
  let started = 0;
  let streaming = false;
  const timed = <A extends unknown[], R>(
    fn: (...args: A) => R,
    add: (ms: number) => void,
  ): ((...args: A) => R) => {
    return (...args: A): R => {
      const t = performance.now();
      try {
        return fn(...args);
      } finally {
        if (!streaming) add(performance.now() - t);
      }
    };
  };
  const inner = session as unknown as Internals;
  const chat = inner.chat;
  inner.post = timed(inner.post.bind(session), (ms) => (record.postMs += ms));
  chat.scheduleSave = timed(chat.scheduleSave.bind(chat), (ms) => (record.saveMs += ms));
  chat.touched = timed(chat.touched.bind(chat), (ms) => (record.touchedMs += ms));
  const snapshot = session.context.snapshot.bind(session.context);
  session.context.snapshot = async () => {
    const result = await snapshot();
    record.snapshotAt = performance.now() - started;
    return result;
  };
  const wrapped = new WeakSet<object>();
  const current = chat.gateway.current.bind(chat.gateway);
  chat.gateway.current = () => {
    const client = current();
    if (!wrapped.has(client)) {
      wrapped.add(client);
      const stream = client.streamChatCompletion.bind(client);
      client.streamChatCompletion = (...args: unknown[]) => {
        if (!streaming) record.streamAt = performance.now() - started;
        streaming = true;
        return stream(...args);
      };
    }
    return client;
  };
  return (at) => {
    started = at;
    streaming = false;
    record = { snapshotAt: 0, streamAt: 0, postMs: 0, saveMs: 0, touchedMs: 0 };
    return record;
  };
}

/**
 * The V8 sampling profiler of this process, around `work`; the profile is written to `file` and returned (undefined
 * without a file: no profiler).
 */
async function profiled(
  file: string | undefined,
  work: () => Promise<void>,
): Promise<CpuProfile | undefined> {
  if (!file) {
    await work();
    return undefined;
  }
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  let taken: CpuProfile;
  try {
    await work();
  } finally {
    taken = ((await post('Profiler.stop')) as { profile: CpuProfile }).profile;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(taken));
    session.disconnect();
  }
  return taken;
}

/** What the profiler saw inside the long sends' windows (`send` handled → body read), with `--cpu-prof`. */
export interface InWindows {
  totalMs: number;
  windows: number;
  functions: SampledTime[];
}

/** Measures `rounds` sends of a 400-message conversation with three files, and of an empty one. */
export async function measureHostShare(
  rounds: number,
  messages: number,
  profile?: string,
): Promise<{ long: HostShare[]; empty: HostShare[]; inWindows?: InWindows }> {
  interface Arrival {
    headersAt: number;
    bodyAt?: number;
    body?: Buffer;
    headers?: Record<string, string>;
  }
  let arrived: Arrival | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const seen: Arrival = { headersAt: performance.now() };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.bodyAt = performance.now();
      if (req.url?.endsWith('/chat/completions')) {
        seen.body = Buffer.concat(chunks);
        seen.headers = {
          authorization: String(req.headers.authorization),
          'content-type': String(req.headers['content-type']),
          accept: String(req.headers.accept),
        };
        arrived = seen;
        answer(res);
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[]}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = vscode.workspace.getConfiguration('modelGateway');
  const previous = settings.get<string>('baseUrl');
  await settings.update('baseUrl', url, vscode.ConfigurationTarget.Workspace);
  process.env.MODEL_GATEWAY_API_KEY ||= 'bench-key';
  const folder = vscode.workspace.workspaceFolders![0].uri;
  const uris = LEDGER_FILES.map((name) => vscode.Uri.joinPath(folder, 'ledgers', name));
  const api = (await vscode.extensions
    .getExtension<ModelGatewayApi>('modelgateway.model-gateway')!
    .activate())!;
  const opened = await api.openChatSession();
  const session = opened.session;
  // A webview to post to, as the chat has one: without it every post of the session would cost nothing.
  const panel = vscode.window.createWebviewPanel('modelGatewayBench', 'Bench', vscode.ViewColumn.Active, {
    enableScripts: false,
  });
  panel.webview.html = '<!DOCTYPE html><html><body></body></html>';
  session.attach(panel.webview);
  const begin = tracePhases(session);
  const bare = new Agent();
  /** The floor: `sent`'s body and headers posted by bare undici, until the server has read the body (ms). */
  const floorOf = async (sent: Arrival): Promise<number> => {
    arrived = undefined;
    const started = performance.now();
    const response = await request(`${url}/v1/chat/completions`, {
      method: 'POST',
      dispatcher: bare,
      headers: sent.headers,
      body: sent.body,
    });
    for await (const _ of response.body) void _;
    const got = arrived as Arrival | undefined;
    if (got?.bodyAt === undefined) throw new Error('the bare request did not reach the server');
    return got.bodyAt - started;
  };
  const windows: Window[] = [];
  let sentAt: number | undefined;
  const onBodySent = (message: unknown): void => {
    const path = (message as { request?: { path?: string } }).request?.path ?? '';
    if (sentAt === undefined && path.endsWith('/chat/completions')) sentAt = performance.now();
  };
  subscribe('undici:request:bodySent', onBodySent);
  const sendOnce = async (attach: boolean): Promise<HostShare> => {
    if (attach) await session.context.addUris(uris);
    // A person's pause before Enter: the store saved the last answer and is idle, so this send saves its question
    // at once (the store's leading save), as every send typed by a person does. Back-to-back sends hid that cost:
    // the save was then folded into the store's next interval, after the request.
    await sleep(PAUSE_BEFORE_SEND_MS);
    arrived = undefined;
    sentAt = undefined;
    const startedUs = nowUs();
    const started = performance.now();
    const phases = begin(started);
    await session.receive({ type: 'send', text: 'How do these ledgers add up totals?' });
    const got = arrived as Arrival | undefined;
    if (got?.bodyAt === undefined) throw new Error('the send did not reach the server');
    const sent = sentAt as number | undefined;
    if (sent === undefined) throw new Error("undici's bodySent was not seen for the send");
    windows.push({ fromUs: startedUs, toUs: startedUs + (got.bodyAt - started) * 1000 });
    // Twice, the second counted: the first may still share the thread with this send's own finishing work.
    await floorOf(got);
    const floorMs = await floorOf(got);
    return {
      headersMs: got.headersAt - started,
      bodyMs: got.bodyAt - started,
      sentMs: sent - started,
      floorMs,
      phases,
    };
  };
  try {
    const long: HostShare[] = [];
    const empty: HostShare[] = [];
    session.conversation = conversation(messages, 300_000);
    // One unmeasured send warms the path up (the connection, the code); the conversation then grows by a turn
    // pair per send, as a real one does.
    await sendOnce(true);
    windows.length = 0;
    const taken = await profiled(profile, async () => {
      for (let i = 0; i < rounds; i++) long.push(await sendOnce(true));
    });
    const inWindows = taken && { ...timeInWindows(taken, windows), windows: windows.length };
    for (let i = 0; i <= rounds; i++) {
      await session.receive({ type: 'newChat' });
      const sent = await sendOnce(false);
      if (i > 0) empty.push(sent);
    }
    return { long, empty, ...(inWindows ? { inWindows } : {}) };
  } finally {
    session.detach();
    panel.dispose();
    opened.release();
    unsubscribe('undici:request:bodySent', onBodySent);
    await bare.close();
    await settings.update('baseUrl', previous, vscode.ConfigurationTarget.Workspace);
    server.close();
  }
}
