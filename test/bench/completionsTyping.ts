/**
 * Case 9 in the extension host, the typing parts: a keystroke storm, and typing through a shown suggestion,
 * both typed with the editor's `type` command (the keyboard's path) while VS Code calls the provider as it
 * would for a user.
 */
import * as vscode from 'vscode';
import {
  type BenchHost,
  INDENT,
  type StormResult,
  type ThroughResult,
  chatRequests,
  setSetting,
  sleep,
  typePaced,
  watchEdits,
} from './completionsHost';
import { clock } from './completionsWire';
import { median } from './stats';

/** What the storm types: a line of code, cycled (VS Code's own word suggestions are off in the bench editor). */
const STORM_TEXT = 'let total = compute(alpha, beta) + gamma * 2; ';
/** The debounce's default (modelGateway.complete.debounceMs), which the storm runs with. */
const DEBOUNCE_MS = 300;
/** Bound on the pause after the storm: the debounce, the request and its answer fit well inside. */
const PAUSE_MS = 5000;

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]);
}

/** `keys` keystrokes `gapMs` apart on an empty line, then a pause until a suggestion shows (bounded). */
export async function stormPart(host: BenchHost, line: number): Promise<StormResult> {
  const { editor, emulator, calls, job } = host;
  await setSetting('complete.debounceMs', undefined); // the default, 300 ms
  editor.selection = new vscode.Selection(line, INDENT.length, line, INDENT.length);
  // Whatever the cursor's move started is over before the first key.
  await sleep(1000);
  const requestsFrom = emulator.requests.length;
  const callsFrom = calls.calls.length;
  const text = Array.from({ length: job.stormKeys }, (_, i) => STORM_TEXT[i % STORM_TEXT.length]).join('');
  const edits = watchEdits(editor.document);
  const sentAt = await typePaced(text, job.stormGapMs).finally(() => edits.stop());
  const lastKey = edits.at[edits.at.length - 1] ?? clock();
  const answered = await calls
    .finished((c) => c.at >= lastKey && !!c.text, PAUSE_MS, 'after the storm')
    .then(
      () => true,
      () => false,
    );
  // Every request must be over on the wire: ended by the emulator or closed by the client (bounded wait).
  await emulator.waitFor((r) => chatRequests(r, requestsFrom).every(over), 2000).catch(() => undefined);
  const storm = chatRequests(emulator.requests, requestsFrom);
  await vscode.commands.executeCommand('editor.action.inlineSuggest.hide');
  const sentGaps = gaps(sentAt);
  const editGaps = gaps(edits.at);
  return {
    keys: job.stormKeys,
    gapMs: job.stormGapMs,
    gapMedianMs: median(sentGaps),
    gapMaxMs: Math.max(...sentGaps),
    editGapMedianMs: median(editGaps),
    editGapMaxMs: Math.max(...editGaps),
    editGapsOverDebounce: editGaps.filter((g) => g > DEBOUNCE_MS).length,
    typingMs: lastKey - sentAt[0],
    typedAsSent: editor.document.lineAt(line).text === INDENT + text,
    calls: calls.calls.length - callsFrom,
    requests: storm.length,
    closedByClient: storm.filter((r) => r.clientClosed).length,
    leftOpen: storm.filter((r) => !over(r)).length,
    answered,
  };
}

function over(r: { clientClosed: boolean; responseEnded: boolean }): boolean {
  return r.clientClosed || r.responseEnded;
}

/**
 * An explicit trigger on an empty line shows a block; it is then typed a character at a time with the pause
 * at 0 ms (so any call the cache did not answer would be a request at once), and Tab accepts the rest.
 */
export async function throughPart(host: BenchHost, line: number): Promise<ThroughResult> {
  const { editor, emulator, calls, job } = host;
  editor.selection = new vscode.Selection(line, INDENT.length, line, INDENT.length);
  await sleep(1000);
  await setSetting('complete.debounceMs', 0);
  const started = clock();
  const requestsFrom = emulator.requests.length;
  await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
  const shown = await calls.finished(
    (c) => c.at >= started && c.line === line && !!c.text,
    15_000,
    'trigger',
  );
  await emulator.waitFor((r) => r.slice(requestsFrom).some((x) => x.clientClosed || x.responseEnded), 5000);
  const suggestion = shown.text ?? '';
  const typed =
    job.throughChars > 0 ? Math.min(job.throughChars, suggestion.length - 1) : suggestion.length - 1;
  const afterShown = emulator.requests.length;
  const callsFrom = calls.calls.length;
  const hitsFrom = host.stats.cacheHits;
  const edits = watchEdits(editor.document);
  await typePaced(suggestion.slice(0, typed), job.typeGapMs).finally(() => edits.stop());
  await sleep(500);
  const requests = chatRequests(emulator.requests, afterShown).length;
  const callCount = calls.calls.length - callsFrom;
  const answeredCalls = calls.calls.slice(callsFrom).filter((c) => c.text !== undefined).length;
  const cacheHits = host.stats.cacheHits - hitsFrom;
  await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
  const document = editor.document;
  const start = document.offsetAt(new vscode.Position(line, INDENT.length));
  const inserted = document.getText(
    new vscode.Range(document.positionAt(start), document.positionAt(start + suggestion.length)),
  );
  await setSetting('complete.debounceMs', undefined);
  return {
    lines: suggestion.split('\n').length,
    chars: suggestion.length,
    typed,
    calls: callCount,
    answeredCalls,
    requests,
    cacheHits,
    kept: inserted === suggestion,
    editGapMaxMs: Math.max(...gaps(edits.at)),
  };
}
