/**
 * Extension-host entry of case 7 (loaded as extensionTestsPath in the real editor, in a generated workspace of
 * 50,000 files). Picker: the production FileIndex behind the production ChatContext (the `#` picker's query
 * path), cold and warm, against a plain `workspace.findFiles('**\/*')`. Large attachment: a 1 MB file read
 * through the production reader, formatted by withAttachments and sent to the emulator with the production
 * client, against a plain read + fetch of the same bytes; both under the event-loop probes.
 * Writes its measurements to MODEL_GATEWAY_BENCH_RESULTS.
 */
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { withAttachments } from '../../src/chat/context';
import type { ContextHostMessage } from '../../src/contextProtocol';
import { createGatewayClient } from '../../src/gateway/client';
import { DEFAULT_CHAT_MODEL } from '../../src/gateway/models';
import { ChatContext } from '../../src/host/context/chatContext';
import { FileIndex } from '../../src/host/context/fileIndex';
import { readContextSettings } from '../../src/host/context/contextSettings';
import { readFileAttachment } from '../../src/host/context/readers';
import { TerminalCapture } from '../../src/host/context/terminalCapture';
import { SETTINGS } from '../../src/host/settings';
import { EMULATOR_TEST_KEY } from '../gateway-emulator/keys';
import { type HostShare, type InWindows, measureHostShare } from './contextHostShare';
import { type ProbeResult, startProbe } from './probes';

/** What the bench asks the extension host to run. */
export interface ContextJob {
  url: string;
  files: number;
  queries: string[];
  rounds: number;
  /** Workspace-relative path of the large file. */
  largePath: string;
  sendRounds: number;
  /** `hostShare`: only the extension's share of the send path (the bench's `--send-path`). */
  only?: 'hostShare';
  /** Where the host share writes a CPU profile of its sends (the bench's `--cpu-prof`). */
  profile?: string;
}

/** One timed operation and what the probes saw meanwhile. */
export interface Timed {
  ms: number;
  probe: ProbeResult;
  /** Files listed or results shown. */
  count: number;
}

/**
 * A fresh index's first query; `ownBlockMs`: the longest block of the index's own work (after findFiles' answer was
 * delivered when it listed with findFiles, all of them when it listed with ripgrep).
 */
export interface ColdTimed extends Timed {
  listMs: number;
  ownBlockMs: number;
  /** How the index listed the workspace (from its log line). */
  listedWith: 'ripgrep' | 'findFiles';
}

/** One send of the large attachment. */
export interface SendTimed extends Timed {
  /** Until the reader returned the attachment. */
  readMs: number;
  /** Until the first answer event came back. */
  firstEventMs: number;
  /** Characters of the user message sent. */
  chars: number;
}

/** Result file. */
export interface ContextResults {
  node: string;
  baseline: Timed[];
  cold: ColdTimed[];
  warm: Array<{ query: string; ms: number; count: number }>;
  ours: SendTimed[];
  plain: SendTimed[];
  /** The extension's own share of the send path (contextHostShare.ts). */
  hostShare?: { long: HostShare[]; empty: HostShare[]; inWindows?: InWindows };
  /** Set by the bench: the host share ran under the profiler, on the development build. */
  profiled?: boolean;
  error?: string;
}

/** A picker as the chat has one: a ChatContext over `files`, its posts recorded. */
function picker(files: FileIndex): { context: ChatContext; posted: ContextHostMessage[]; dispose(): void } {
  const posted: ContextHostMessage[] = [];
  const terminals = new TerminalCapture();
  const context = new ChatContext(
    { files, terminals, apiKey: () => Promise.resolve(undefined), settings: readContextSettings },
    (m) => posted.push(m),
    () => 200_000,
  );
  return { context, posted, dispose: () => (context.dispose(), terminals.dispose()) };
}

let requestId = 0;

/** Types `query` into the picker; resolves with the number of file rows of its final (not pending) answer. */
async function query(context: ChatContext, posted: ContextHostMessage[], q: string): Promise<number> {
  const id = ++requestId;
  await context.handle({ type: 'contextQuery', requestId: id, mode: 'all', query: q });
  const answer = posted.find((m) => m.type === 'contextResults' && m.requestId === id && !m.pending);
  if (answer?.type !== 'contextResults') throw new Error(`the picker did not answer "${q}"`);
  return answer.items.filter((i) => i.key.startsWith('file:')).length;
}

async function baselineListing(): Promise<Timed> {
  const probe = await startProbe();
  const started = performance.now();
  const found = await vscode.workspace.findFiles('**/*');
  const ms = performance.now() - started;
  return { ms, probe: await probe.stop(), count: found.length };
}

/**
 * A fresh index: the first query lists the workspace (in slices) and answers. The probes watch the listing
 * alone (`load()`, as the picker starts it), so its longest block is not the search's.
 */
async function coldQuery(q: string): Promise<ColdTimed> {
  const logged: string[] = [];
  const log = { info: (m: string) => void logged.push(m), warn: (m: string) => void logged.push(m) };
  const files = new FileIndex(log);
  const p = picker(files);
  // The time findFiles' answer reached the extension host, when the index used it: the block that holds it is
  // findFiles' own delivery (the plain listing has it too), those that start after it are the index's work.
  const workspace = vscode.workspace as { findFiles: typeof vscode.workspace.findFiles };
  const realFindFiles = workspace.findFiles;
  let answeredAt = -Infinity;
  workspace.findFiles = (...args) =>
    realFindFiles(...args).then((found) => ((answeredAt = performance.now()), found));
  try {
    const probe = await startProbe();
    const started = performance.now();
    await files.load();
    const listMs = performance.now() - started;
    const probed = await probe.stop();
    // Blocks before the answer are VS Code's own search in the extension host (the plain listing's too).
    const ownBlockMs = Math.max(
      0,
      ...probed.busyDrifts.filter((d) => d.end - d.ms > answeredAt).map((d) => d.ms),
    );
    const searched = performance.now();
    const count = await query(p.context, p.posted, q);
    const ms = listMs + performance.now() - searched;
    const listedWith = logged.some((m) => m.includes('with ripgrep')) ? 'ripgrep' : 'findFiles';
    return { ms, listMs, probe: probed, count, ownBlockMs, listedWith };
  } finally {
    workspace.findFiles = realFindFiles;
    p.dispose();
    files.dispose();
  }
}

async function measurePicker(job: ContextJob, results: ContextResults): Promise<void> {
  await baselineListing(); // Unmeasured: warms the search service and the file system cache for both.
  for (let round = 0; round < job.rounds; round++) {
    const q = job.queries[round % job.queries.length];
    if (round % 2 === 0) {
      results.cold.push(await coldQuery(q));
      results.baseline.push(await baselineListing());
    } else {
      results.baseline.push(await baselineListing());
      results.cold.push(await coldQuery(q));
    }
  }
  const files = new FileIndex();
  const p = picker(files);
  try {
    await query(p.context, p.posted, 'warm up');
    for (const q of job.queries) {
      const started = performance.now();
      const count = await query(p.context, p.posted, q);
      results.warm.push({ query: q, ms: performance.now() - started, count });
    }
  } finally {
    p.dispose();
    files.dispose();
  }
}

const QUESTION = 'Summarize what this module computes.';

/** Ours: the production reader, withAttachments and the production client, streaming the answer. */
async function sendOurs(job: ContextJob, uri: vscode.Uri): Promise<SendTimed> {
  const client = createGatewayClient({ baseUrl: job.url, apiKey: EMULATOR_TEST_KEY });
  const settings = {
    exclude: SETTINGS['context.exclude'].default,
    // The largest the setting allows: the whole megabyte travels (the default would cut it to 20,000 tokens).
    maxFileTokens: SETTINGS['context.maxFileTokens'].maximum,
    suggestCurrentFile: false,
  };
  try {
    const probe = await startProbe();
    const started = performance.now();
    const read = await readFileAttachment(uri, { settings, apiKey: EMULATOR_TEST_KEY });
    if (!read.ok) throw new Error(read.message);
    const readMs = performance.now() - started;
    const content = withAttachments(QUESTION, [read.attachment]);
    let firstEventMs = 0;
    let count = 0;
    const request = { model: DEFAULT_CHAT_MODEL, messages: [{ role: 'user' as const, content }] };
    for await (const event of client.streamChatCompletion(request)) {
      if (count++ === 0) firstEventMs = performance.now() - started;
      void event;
    }
    const ms = performance.now() - started;
    return { ms, readMs, firstEventMs, chars: content.length, count, probe: await probe.stop() };
  } finally {
    await client.close();
  }
}

/** Baseline: read the bytes, wrap them in a message and POST it with fetch, reading the whole stream. */
async function sendPlain(job: ContextJob, uri: vscode.Uri): Promise<SendTimed> {
  const probe = await startProbe();
  const started = performance.now();
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  const readMs = performance.now() - started;
  const content = `${text}\n\n${QUESTION}`;
  const response = await fetch(`${job.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${EMULATOR_TEST_KEY}` },
    body: JSON.stringify({ model: DEFAULT_CHAT_MODEL, stream: true, messages: [{ role: 'user', content }] }),
  });
  if (!response.ok || !response.body) throw new Error(`the plain request failed: ${response.status}`);
  let firstEventMs = 0;
  let count = 0;
  const reader = response.body.getReader();
  while (!(await reader.read()).done) if (count++ === 0) firstEventMs = performance.now() - started;
  const ms = performance.now() - started;
  return { ms, readMs, firstEventMs, chars: content.length, count, probe: await probe.stop() };
}

async function measureSend(job: ContextJob, results: ContextResults): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('no workspace folder');
  const uri = vscode.Uri.joinPath(folder, job.largePath);
  await sendOurs(job, uri); // Unmeasured warm-up of both paths.
  await sendPlain(job, uri);
  for (let round = 0; round < job.sendRounds; round++) {
    const order = round % 2 === 0 ? (['ours', 'plain'] as const) : (['plain', 'ours'] as const);
    for (const kind of order) {
      if (kind === 'ours') results.ours.push(await sendOurs(job, uri));
      else results.plain.push(await sendPlain(job, uri));
    }
  }
}

/** The test entry VS Code calls. */
export async function run(): Promise<void> {
  const out = process.env.MODEL_GATEWAY_BENCH_RESULTS ?? '';
  const job = JSON.parse(process.env.MODEL_GATEWAY_BENCH_JOB ?? '{}') as ContextJob;
  const results: ContextResults = {
    node: process.version,
    baseline: [],
    cold: [],
    warm: [],
    ours: [],
    plain: [],
  };
  try {
    if (job.only !== 'hostShare') {
      await measurePicker(job, results);
      await measureSend(job, results);
    }
    results.hostShare = await measureHostShare(job.rounds * 2, 400, job.profile);
  } catch (error) {
    results.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  writeFileSync(out, JSON.stringify(results));
}
