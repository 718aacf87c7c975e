/**
 * Extension-host entry of case 9 (loaded as extensionTestsPath beside the staged production extension):
 * inline completions as VS Code itself asks for them, against the emulator started in this same process, so
 * that VS Code's call of the provider, the request leaving, the emulator's writes and the provider's answer are
 * all read from one clock. The rounds here time the request and the shown suggestion against the same request
 * by hand; completionsTyping.ts types. Writes its measurements to MODEL_GATEWAY_BENCH_RESULTS.
 */
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../src/extension';
import { contextChars } from '../../src/complete/engine';
import { Agent } from '../../src/gateway/undici';
import { EMULATOR_TEST_KEY, type RecordedRequest, startEmulator } from '../gateway-emulator';
import {
  type BenchHost,
  type CompletionJob,
  type CompletionResults,
  type CompletionRound,
  EMPTY_LINE_EVERY,
  INDENT,
  ProviderCalls,
  benchFileText,
  chatRequests,
  setSetting,
  sleep,
} from './completionsHost';
import { stormPart, throughPart } from './completionsTyping';
import {
  BENCH_CONTEXT_TOKENS,
  type SentRequest,
  clock,
  completingWrite,
  holeContext,
  sendByHand,
  suggestionThrough,
  watchSentRequests,
} from './completionsWire';

const CHAT = '/v1/chat/completions';
/** The empty lines the typing parts use; the rounds take the others. */
const STORM_LINE = 9950;
const THROUGH_LINE = 9850;

interface RoundKit {
  host: BenchHost;
  sent: SentRequest[];
  agent: InstanceType<typeof Agent>;
}

function hole(host: BenchHost, line: number) {
  const document = host.editor.document;
  const options = host.editor.options;
  return holeContext(document.getText(), document.offsetAt(new vscode.Position(line, INDENT.length)), {
    tabSize: typeof options.tabSize === 'number' ? options.tabSize : 4,
    insertSpaces: typeof options.insertSpaces === 'boolean' ? options.insertSpaces : true,
  });
}

/** The request this process sent to the emulator after `from`, and the emulator's record of it. */
async function theRequest(
  kit: RoundKit,
  sentFrom: number,
  requestsFrom: number,
): Promise<{ sent: SentRequest; record: RecordedRequest }> {
  const { emulator } = kit.host;
  const sent = kit.sent.slice(sentFrom).filter((s) => s.path === CHAT && s.origin === emulator.url);
  const records = chatRequests(emulator.requests, requestsFrom);
  if (sent.length !== 1 || records.length !== 1)
    throw new Error(`${sent.length} request(s) left and ${records.length} arrived, not one`);
  return { sent: sent[0], record: records[0] };
}

/** The provider, called by VS Code on an explicit trigger at an empty line of the 10,000-line file. */
async function viaProvider(kit: RoundKit, line: number) {
  const { editor, calls, emulator } = kit.host;
  const sentFrom = kit.sent.length;
  const requestsFrom = emulator.requests.length;
  const started = clock();
  editor.selection = new vscode.Selection(line, INDENT.length, line, INDENT.length);
  await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
  await calls.finished((c) => c.at >= started && c.invoke && c.line === line && !!c.text, 15_000, 'trigger');
  await emulator.waitFor((r) => r.slice(requestsFrom).some((x) => x.clientClosed || x.responseEnded), 5000);
  const { sent, record } = await theRequest(kit, sentFrom, requestsFrom);
  // The call that made the request is the last one to start before it left.
  const maker = calls.calls.filter((c) => c.at >= started && c.at <= sent.at).pop();
  if (!maker?.invoke || maker.text === undefined || maker.doneAt === undefined)
    throw new Error('the request was not made by the explicit call that answered');
  const writes = record.writes ?? [];
  const ctx = hole(kit.host, line);
  let needed = completingWrite(writes, ctx);
  if (needed < 0) needed = writes.length - 1;
  await vscode.commands.executeCommand('editor.action.inlineSuggest.hide');
  return {
    oursMs: sent.at - maker.at,
    oursArrivedMs: (record.bodyAt ?? Number.NaN) - maker.at,
    showMs: maker.doneAt - writes[needed].at,
    neededWrite: needed,
    writes: writes.length,
    sameText: maker.text === suggestionThrough(writes, needed, ctx),
  };
}

/** The same request by hand: the same text read from the document, the same prompt, a bare request and reader. */
async function byHand(kit: RoundKit, line: number) {
  const { editor, emulator } = kit.host;
  const sentFrom = kit.sent.length;
  const requestsFrom = emulator.requests.length;
  const controller = new AbortController();
  const started = clock();
  const document = editor.document;
  const position = new vscode.Position(line, INDENT.length);
  const offset = document.offsetAt(position);
  const chars = contextChars(BENCH_CONTEXT_TOKENS);
  const body = await sendByHand(
    kit.agent,
    emulator.url,
    EMULATOR_TEST_KEY,
    {
      fileName: vscode.workspace.asRelativePath(document.uri, false),
      languageId: document.languageId,
      before: document.getText(new vscode.Range(document.positionAt(Math.max(0, offset - chars)), position)),
      after: document.getText(new vscode.Range(position, document.positionAt(offset + chars))),
    },
    controller.signal,
  );
  const { sent, record } = await theRequest(kit, sentFrom, requestsFrom);
  const ctx = hole(kit.host, line);
  let received = 0;
  let shownAt = Number.NaN;
  let needed = -1;
  try {
    for await (const chunk of body) {
      const arrived = clock();
      received += chunk.length;
      const writes = record.writes ?? [];
      needed = completingWrite(writes, ctx);
      const upTo = writes.slice(0, needed + 1).reduce((n, w) => n + w.bytes, 0);
      if (needed >= 0 && received >= upTo) {
        shownAt = arrived;
        break;
      }
    }
  } finally {
    controller.abort();
  }
  const writes = record.writes ?? [];
  if (needed < 0) {
    // Never complete: the reader read to the end, so the last write was the one needed.
    needed = writes.length - 1;
    shownAt = clock();
  }
  return {
    handMs: sent.at - started,
    handArrivedMs: (record.bodyAt ?? Number.NaN) - started,
    handShowMs: shownAt - writes[needed].at,
  };
}

/** The empty lines the rounds use, spread over the file (37 and 98 share no factor, so none repeats). */
function roundLine(k: number): number {
  const lines = Array.from({ length: 100 }, (_, i) => i * EMPTY_LINE_EVERY + EMPTY_LINE_EVERY / 2).filter(
    (l) => l !== STORM_LINE && l !== THROUGH_LINE,
  );
  return lines[(k * 37) % lines.length];
}

/** Overhead and showing: provider and by hand at the same line, in alternating order, after warm-up rounds. */
async function roundsPart(kit: RoundKit, results: CompletionResults): Promise<void> {
  const { job } = kit.host;
  // Automatic calls (a cursor move) never reach the gateway during the rounds; the explicit trigger skips it.
  await setSetting('complete.debounceMs', 5000);
  for (let k = 0; k < job.warmup + job.rounds; k++) {
    const line = roundLine(k);
    try {
      const first = k % 2 === 0 ? await viaProvider(kit, line) : await byHand(kit, line);
      await sleep(20);
      const second = k % 2 === 0 ? await byHand(kit, line) : await viaProvider(kit, line);
      await sleep(20);
      if (k >= job.warmup) results.rounds.push({ line, ...first, ...second } as CompletionRound);
    } catch (error) {
      results.missed.push(`line ${line}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Runs one part; a failure is reported and the next part still runs. */
async function part(results: CompletionResults, name: string, run: () => Promise<void>): Promise<void> {
  const started = clock();
  try {
    await run();
  } catch (error) {
    results.failures.push(
      `${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  } finally {
    results.partMs[name] = clock() - started;
  }
}

/** The test entry VS Code calls. */
export async function run(): Promise<void> {
  const out = process.env.MODEL_GATEWAY_BENCH_RESULTS ?? '';
  const job = JSON.parse(process.env.MODEL_GATEWAY_BENCH_JOB ?? '{}') as CompletionJob;
  const results: CompletionResults = {
    node: process.version,
    vscode: vscode.version,
    rounds: [],
    missed: [],
    failures: [],
    partMs: {},
  };
  const emulator = await startEmulator({
    port: 0,
    chunkSize: job.chunkSize,
    chunkDelayMs: job.chunkDelayMs,
    recordWrites: true,
  });
  const watch = watchSentRequests();
  const agent = new Agent();
  let calls: ProviderCalls | undefined;
  try {
    await setSetting('baseUrl', emulator.url);
    const ok = await vscode.commands.executeCommand<boolean>('modelGateway.setApiKey', {
      key: EMULATOR_TEST_KEY,
    });
    if (ok !== true) throw new Error('could not set the API key');
    const api = await vscode.extensions
      .getExtension<ModelGatewayApi>('modelgateway.model-gateway')!
      .activate();
    calls = new ProviderCalls(api.completions.provider);
    // A language no extension of the editor analyses, so no language server shares the extension host's thread.
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'bench-complete.go');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${benchFileText()}\n`));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), {
      preview: false,
    });
    const host: BenchHost = { job, emulator, editor, calls, stats: api.completions.stats };
    await part(results, 'rounds', () => roundsPart({ host, sent: watch.sent, agent }, results));
    await part(results, 'storm', async () => {
      results.storm = await stormPart(host, STORM_LINE);
    });
    await part(results, 'typing through', async () => {
      results.through = await throughPart(host, THROUGH_LINE);
    });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  } catch (error) {
    results.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  } finally {
    calls?.restore();
    watch.stop();
    await agent.close();
    await emulator.close();
  }
  writeFileSync(out, JSON.stringify(results));
}
