/**
 * Case 9, inline completions. The figures of the issue are measured in the real extension host
 * (completionsExthost.ts, run by `completionExtHostRows`). `completionRows` keeps one figure in plain Node, the
 * engine (src/complete) and the real gateway client alone, without the editor, to tell their share of the
 * overhead from the editor's; it has no budget of its own.
 */
import { CompletionEngine, type CompletionQuery, contextChars } from '../../src/complete/engine';
import { buildHolePrompt } from '../../src/complete/prompt';
import { answerText } from '../../src/complete/stream';
import { createGatewayClient } from '../../src/gateway';
import type { ChatCompletionRequest } from '../../src/gateway/types';
import { EMULATOR_TEST_KEY, startEmulator } from '../gateway-emulator';
import type { CompletionJob, CompletionResults } from './completionsHost';
import { editorUnavailable, runInExtensionHost } from './editor';
import { type Row, fmtMs, fmtRatio, skippedRow, verdict } from './report';
import type { BenchSettings } from './settings';
import { productionStage } from './stage';
import { median, medianRatio, quantile } from './stats';

const CASE = '9. Inline completions';
const MODEL = 'alpha-haiku-4-5-20251001';

function bigFile(): string {
  return Array.from(
    { length: 10_000 },
    (_, i) => `  const value${i} = compute(${i}, 'item-${i}'); // line ${i}`,
  ).join('\n');
}

function queryAt(text: string, offset: number, explicit: boolean): CompletionQuery {
  const chars = contextChars(4000);
  return {
    document: 'file:///bench/big.ts',
    fileName: 'big.ts',
    languageId: 'typescript',
    offset,
    before: text.slice(Math.max(0, offset - chars), offset),
    after: text.slice(offset, offset + chars),
    tabSize: 2,
    insertSpaces: true,
    eol: '\n',
    explicit,
  };
}

/** The engine and the client alone in plain Node: provider call → request handed to the client, vs by hand. */
export async function completionRows(settings: BenchSettings): Promise<Row[]> {
  const emulator = await startEmulator({ port: 0, chunkSize: 8, chunkDelayMs: 2 });
  const client = createGatewayClient({
    baseUrl: emulator.url,
    apiKey: EMULATOR_TEST_KEY,
    retry: { maxRetries: 0 },
  });
  let leftAt = 0;
  const stream = (request: ChatCompletionRequest, signal: AbortSignal): AsyncIterable<string> => {
    leftAt = performance.now();
    return answerText(client, request, signal);
  };
  const engineSettings = { model: MODEL, contextTokens: 4000, debounceMs: 300 };
  const engine = new CompletionEngine({ settings: () => engineSettings, stream });
  try {
    const text = bigFile();
    const ours: number[] = [];
    const hand: number[] = [];
    for (let i = 0; i < settings.completions.plainRounds; i++) {
      const offset = text.indexOf('\n', Math.floor(text.length / 2) + i * 97) + 3;
      const started = performance.now();
      await engine.provide(queryAt(text, offset, true), new AbortController().signal);
      ours.push(leftAt - started);
      const byHand = performance.now();
      const messages = buildHolePrompt({
        fileName: 'big.ts',
        languageId: 'typescript',
        before: text.slice(offset - 12_000, offset),
        after: text.slice(offset, offset + 4_000),
        contextTokens: 4000,
      }).messages;
      const handLeft = performance.now();
      for await (const _ of answerText(
        client,
        { model: MODEL, messages, max_tokens: 256 },
        new AbortController().signal,
      ))
        break;
      hand.push(handLeft - byHand);
    }
    const o = median(ours);
    const h = median(hand);
    return [
      {
        case: CASE,
        figure: `engine alone in plain Node: call → request handed to the client (10,000 lines, median of ${ours.length})`,
        ours: fmtMs(o),
        baseline: `${fmtMs(h)} (prompt by hand)`,
        ratio: fmtRatio(o / Math.max(h, 1e-6)),
        budget: '–',
        status: 'info',
        note: "src/complete and the real client without the editor, string slices for the document: the engine's share of the extension-host figure",
        data: { ours, hand },
      },
    ];
  } finally {
    await client.close();
    await emulator.close();
  }
}

/** The emulator's pacing in the extension-host part: a chunk of 8 characters every 10 ms, as a fast model sends. */
const CHUNK_SIZE = 8;
const CHUNK_DELAY_MS = 10;
/** Keys typed through the suggestion go this far apart. */
const CHAR_GAP_MS = 30;

function roundRows(r: CompletionResults, what: string): Row[] {
  const rounds = r.rounds;
  // Not one round measured: the provider never answered a trigger with a request of its own, a failure.
  if (!rounds.length)
    return [
      {
        ...skippedRow(
          CASE,
          'overhead and showing (extension host)',
          '≤ 5 ms / ≤ 16 ms',
          `no round measured: ${r.missed.join('; ')}`,
        ),
        status: 'error',
      },
    ];
  const ours = rounds.map((x) => x.oursMs);
  const hand = rounds.map((x) => x.handMs);
  const show = rounds.map((x) => x.showMs);
  const handShow = rounds.map((x) => x.handShowMs);
  const o = median(ours);
  const s = median(show);
  const missed = r.missed.length
    ? `; ${r.missed.length} round(s) measured nothing: ${r.missed.join('; ')}`
    : '';
  const mismatched = rounds.filter((x) => !x.sameText).length;
  return [
    {
      case: CASE,
      figure: `extension overhead: VS Code's call of the provider → request sent, 10,000-line file (median of ${rounds.length})`,
      ours: fmtMs(o),
      baseline: `${fmtMs(median(hand))} (same request by hand)`,
      ratio: fmtRatio(medianRatio(ours, hand)),
      budget: '≤ 5 ms',
      status: verdict(o <= 5),
      note: `${what}; explicit trigger on an empty line, the provider called by VS Code; sent = undici's bodySent (the whole body handed to the socket). By hand: the same windows read from the same TextDocument, buildHolePrompt, JSON, a bare undici request. Per round, ours minus by hand: median ${fmtMs(median(rounds.map((x) => x.oursMs - x.handMs)))}, slowest round ${fmtMs(Math.max(...ours))}; until the emulator had read the body: ${fmtMs(median(rounds.map((x) => x.oursArrivedMs)))} vs ${fmtMs(median(rounds.map((x) => x.handArrivedMs)))}${missed}`,
      data: { rounds, missed: r.missed },
    },
    {
      case: CASE,
      figure: `showing the suggestion: the gateway's last needed byte → the provider's answer to VS Code (median of ${rounds.length})`,
      ours: fmtMs(s),
      baseline: `${fmtMs(median(handShow))} (bare reader has the byte)`,
      ratio: fmtRatio(medianRatio(show, handShow)),
      budget: '≤ 16 ms',
      status: verdict(s <= 16 && mismatched === 0),
      note: `${what}; the emulator (same process, one clock) timestamps each write as it hands it to the socket; the needed write is the first after which the engine's own post-processing calls the 5-line suggestion complete (write ${median(rounds.map((x) => x.neededWrite + 1))}, median; the emulator made ${median(rounds.map((x) => x.writes))} before it saw the client close the stream); p90 ${fmtMs(quantile(show, 0.9))}, slowest ${fmtMs(Math.max(...show))}${mismatched ? `; ${mismatched} answer(s) differed from the post-processed stream` : ''}`,
    },
  ];
}

function typingRows(r: CompletionResults, what: string): Row[] {
  const rows: Row[] = [];
  const storm = r.storm;
  if (storm)
    rows.push({
      case: CASE,
      figure: `keystroke storm (${storm.keys} keys, ${storm.gapMs} ms apart, then a pause): requests at the gateway`,
      ours: String(storm.requests),
      baseline: `${storm.calls} (VS Code's calls of the provider, for ${storm.keys} keys)`,
      ratio: fmtRatio(storm.requests / Math.max(1, storm.calls)),
      budget: '≤ 2, every cancelled one closed',
      status: verdict(storm.requests <= 2 && storm.leftOpen === 0 && storm.answered),
      note: `${what}; typed with the editor's \`type\` command as a keyboard types (each key on time, not waiting for the editor to take the one before), debounce at its default (300 ms): keys sent ${fmtMs(storm.gapMedianMs)} apart (median, longest gap ${fmtMs(storm.gapMaxMs)}), the edits reached the extension host ${fmtMs(storm.editGapMedianMs)} apart (median, longest gap ${fmtMs(storm.editGapMaxMs)}${storm.editGapsOverDebounce ? `; ${storm.editGapsOverDebounce} gap(s) longer than the debounce, after each of which a request is the pause doing its job: the editor did not deliver a storm` : ''}), ${fmtMs(storm.typingMs)} in all${storm.typedAsSent ? '' : '; the line did NOT hold the keys in the order sent'}; ${storm.closedByClient} closed by the client before the response ended, ${storm.leftOpen} left open; ${storm.answered ? 'a suggestion showed after the pause' : 'no suggestion showed within 5 s of the pause'}`,
      data: { storm },
    });
  const through = r.through;
  if (through)
    rows.push({
      case: CASE,
      figure: `typing through a shown ${through.lines}-line suggestion, character by character: requests`,
      ours: String(through.requests),
      baseline: `${through.calls} (VS Code's calls of the provider)`,
      ratio: fmtRatio(through.requests / Math.max(1, through.calls)),
      budget: '0',
      status: verdict(through.requests === 0 && through.lines === 5 && through.kept),
      note: `${what}; ${through.typed} of ${through.chars} characters typed with \`type\` ${CHAR_GAP_MS} ms apart as a keyboard types (longest gap between edits in the extension host ${fmtMs(through.editGapMaxMs)}), the debounce at 0 ms for this part (a call the cache missed would be a request at once); the provider answered ${through.answeredCalls} of VS Code's calls (${through.cacheHits} from the cache), VS Code cancelled the others before they reached the engine; ${through.kept ? 'Tab then accepted the rest of the same suggestion, so it stayed shown' : 'Tab did not accept the rest of the suggestion: it was no longer shown'}`,
      data: { through },
    });
  return rows;
}

/** Runs the figures of the issue in the real extension host with the staged production extension. */
export async function completionExtHostRows(settings: BenchSettings): Promise<Row[]> {
  const unavailable = editorUnavailable();
  if (unavailable)
    return [
      skippedRow(
        CASE,
        'inline completions in the extension host (all figures)',
        '≤ 5 ms / ≤ 2 / 0 / ≤ 16 ms',
        unavailable,
      ),
    ];
  const c = settings.completions;
  let started = Date.now();
  const stage = await productionStage();
  const staged = Date.now() - started;
  started = Date.now();
  const job: CompletionJob = {
    rounds: c.rounds,
    warmup: c.warmup,
    stormKeys: c.stormKeys,
    stormGapMs: 30,
    throughChars: c.throughChars,
    typeGapMs: CHAR_GAP_MS,
    chunkSize: CHUNK_SIZE,
    chunkDelayMs: CHUNK_DELAY_MS,
  };
  const results = await runInExtensionHost<CompletionJob, CompletionResults>(stage.dir, job, 600_000, {
    name: 'completionsExthost',
    settings: {
      'modelGateway.complete.enabled': true,
      'modelGateway.network.retries': 0,
      // VS Code's word suggestions and auto-closing would change what the keys type; indentation is typed as is.
      'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
      'editor.suggestOnTriggerCharacters': false,
      'editor.wordBasedSuggestions': 'off',
      'editor.parameterHints.enabled': false,
      'editor.autoIndent': 'none',
      'editor.autoClosingBrackets': 'never',
      'editor.autoClosingQuotes': 'never',
      'editor.autoSurround': 'never',
      'editor.tabSize': 2,
      'editor.insertSpaces': true,
      'editor.detectIndentation': false,
    },
  });
  const parts = Object.entries(results.partMs)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
  console.log(
    `[bench]   production stage ${(staged / 1000).toFixed(1)} s; editor run ${((Date.now() - started) / 1000).toFixed(1)} s (${parts})`,
  );
  const what = `extension host of VS Code ${results.vscode} (Node ${results.node}), staged production build, emulator in the same process (chunks of ${CHUNK_SIZE} characters every ${CHUNK_DELAY_MS} ms)`;
  const rows = [...roundRows(results, what), ...typingRows(results, what)];
  for (const failure of results.failures)
    rows.push({
      ...skippedRow(CASE, `(a part failed) ${failure.split('\n')[0]}`, '–', failure),
      status: 'error',
    });
  return rows;
}
