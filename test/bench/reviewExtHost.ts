/**
 * Extension-host entry of case 7 (loaded as extensionTestsPath in the real editor): a 2,000-line file
 * rewritten by a streamed answer of 10,000 chunks, once under review (the extension's Apply, which merges
 * through the model and shows the streaming diff) and once inserted without review (the same request, the
 * same client and the same InlineEdit writes, nothing else), under the probes. Writes its measurements to
 * MODEL_GATEWAY_BENCH_RESULTS.
 */
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { extractCode } from '../../src/chat/codeExtract';
import { createGatewayClient } from '../../src/gateway';
import { InlineEdit } from '../../src/host/editor/inlineEdit';
import { mergeMessages } from '../../src/review/mergePrompt';
import { EMULATOR_KEY } from '../gateway-emulator/keys';
import { startProbe } from './probes';
import { benchBlock, benchFile } from './reviewFile';

/** What the bench asks the extension host to run. */
export interface ReviewJob {
  url: string;
  lines: number;
  rounds: number;
}

/** One run: total time, the longest block, and the time of the first and last tenth of the stream. */
export interface ReviewMeasurement {
  kind: 'review' | 'plain';
  totalMs: number;
  maxBusyDriftMs: number;
  maxLoopDelayMs: number;
  firstTenthMs: number;
  lastTenthMs: number;
  /**
   * Under review, from the start until `files.autoSave` changed (the review's settings write that turns auto-save
   * off for the file's language took effect); null when it did not change (auto-save already off) or for `plain`.
   */
  autoSaveOffMs: number | null;
  /** From the start until the document's first change (the first streamed write); null when none came. */
  firstWriteMs: number | null;
}

/** Result file. */
export interface ReviewResults {
  node: string;
  runs: ReviewMeasurement[];
  error?: string;
}

const EDIT_INTERVAL_MS = 50;
const MODEL = 'alpha-haiku-4-5-20251001';

/** Follows the document's length from its first change; the tenths are read from these samples. */
function trackLength(document: vscode.TextDocument): { samples: Array<[number, number]>; stop(): void } {
  let length = document.getText().length;
  const samples: Array<[number, number]> = [];
  const subscription = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document !== document) return;
    for (const c of e.contentChanges) length += c.text.length - c.rangeLength;
    samples.push([performance.now(), length]);
  });
  return { samples, stop: () => subscription.dispose() };
}

/**
 * Time per character of the first and of the last tenth of the stream, from the document's growth: the
 * writes come every 50 ms, so each tenth spans a few of them and is measured as a rate. The last write
 * (the whole answer, after the stream) is left out. NaN (null in the results) with fewer than three streamed
 * writes, or writes too sparse to bound a tenth (a streamed write is dropped when a later one overtakes it, so a
 * loaded machine writes seldom).
 */
function tenths(samples: Array<[number, number]>): { firstTenthMs: number; lastTenthMs: number } {
  const streamed = samples.slice(0, -1);
  // The review writes nothing while VS Code turns auto-save off; on a loaded machine the stream can end first.
  if (streamed.length < 3) return { firstTenthMs: NaN, lastTenthMs: NaN };
  const final = streamed[streamed.length - 1][1];
  const rate = (a: [number, number], b: [number, number]): number => (b[0] - a[0]) / Math.max(1, b[1] - a[1]);
  const firstEnd = streamed.find(([, l], i) => i > 0 && l >= final * 0.1) ?? streamed[1];
  const lastStart = [...streamed].reverse().find(([, l], i) => i > 0 && l <= final * 0.9) ?? streamed[0];
  // Writes so far apart that a window spans a quarter of the text compare halves, not tenths: not measured.
  if (firstEnd[1] > final * 0.25 || lastStart[1] < final * 0.75)
    return { firstTenthMs: NaN, lastTenthMs: NaN };
  // Both as milliseconds per tenth of the text.
  return {
    firstTenthMs: rate(streamed[0], firstEnd) * final * 0.1,
    lastTenthMs: rate(lastStart, streamed[streamed.length - 1]) * final * 0.1,
  };
}

async function openBenchFile(name: string, text: string): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders![0].uri;
  const uri = vscode.Uri.joinPath(folder, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
}

/** The same stream without review: the same request and client, written as Apply writes it. */
async function insertPlain(job: ReviewJob, editor: vscode.TextEditor, file: string): Promise<void> {
  const client = createGatewayClient({ baseUrl: job.url, apiKey: () => EMULATOR_KEY, userAgent: 'bench' });
  const messages = mergeMessages({
    fileName: vscode.workspace.asRelativePath(editor.document.uri),
    languageId: editor.document.languageId,
    fileText: file,
    block: benchBlock(job.lines),
  });
  const whole = new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(file.length));
  const edit = new InlineEdit(editor, whole, file, () => undefined);
  let text = '';
  let lastEdit = 0;
  for await (const event of client.streamChatCompletion({ model: MODEL, messages, temperature: 0 })) {
    if (event.type !== 'text') continue;
    text += event.text;
    if (Date.now() - lastEdit >= EDIT_INTERVAL_MS) {
      lastEdit = Date.now();
      void edit.setCode(extractCode(text, false));
    }
  }
  const merged = extractCode(text, true);
  await edit.setCode(file.endsWith('\n') ? `${merged}\n` : merged, true);
  edit.dispose();
}

async function measure(job: ReviewJob, kind: 'review' | 'plain', round: number): Promise<ReviewMeasurement> {
  const file = benchFile(job.lines);
  const editor = await openBenchFile(`bench-${kind}-${round}.ts`, file);
  const track = trackLength(editor.document);
  let autoSaveOffAt: number | undefined;
  const settings = vscode.workspace.onDidChangeConfiguration((e) => {
    if (autoSaveOffAt === undefined && e.affectsConfiguration('files.autoSave', editor.document))
      autoSaveOffAt = performance.now();
  });
  const probe = await startProbe();
  const started = performance.now();
  try {
    if (kind === 'review') {
      const result = await vscode.commands.executeCommand<{ status: string; message?: string }>(
        'modelGateway.applyCodeBlock',
        { code: benchBlock(job.lines), target: vscode.workspace.asRelativePath(editor.document.uri) },
      );
      if (result?.status !== 'review')
        throw new Error(`Apply ended ${result?.status}: ${result?.message ?? ''}`);
    } else {
      await insertPlain(job, editor, file);
    }
  } finally {
    track.stop();
    settings.dispose();
  }
  const totalMs = performance.now() - started;
  const since = (at: number | undefined): number | null => (at === undefined ? null : at - started);
  const firstWriteMs = since(track.samples[0]?.[0]);
  const autoSaveOffMs = kind === 'review' ? since(autoSaveOffAt) : null;
  const probed = await probe.stop();
  if (kind === 'review') await vscode.commands.executeCommand('modelGateway.acceptEdit');
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return { kind, totalMs, ...probed, ...tenths(track.samples), autoSaveOffMs, firstWriteMs };
}

/** The test entry VS Code calls. */
export async function run(): Promise<void> {
  const out = process.env.MODEL_GATEWAY_BENCH_RESULTS ?? '';
  const job = JSON.parse(process.env.MODEL_GATEWAY_BENCH_JOB ?? '{}') as ReviewJob;
  const results: ReviewResults = { node: process.version, runs: [] };
  try {
    const ok = await vscode.commands.executeCommand<boolean>('modelGateway.setApiKey', { key: EMULATOR_KEY });
    if (ok !== true) throw new Error('could not set the API key');
    await measure(job, 'plain', -1); // unmeasured warm-up of both paths
    await measure(job, 'review', -1);
    for (let round = 0; round < job.rounds; round++) {
      const order = round % 2 === 0 ? (['review', 'plain'] as const) : (['plain', 'review'] as const);
      for (const kind of order) results.runs.push(await measure(job, kind, round));
    }
  } catch (error) {
    results.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  writeFileSync(out, JSON.stringify(results));
}
