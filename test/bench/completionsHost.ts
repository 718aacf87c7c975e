/**
 * Case 9 in the extension host: what its parts share. The job and the results file, the bench file, and a
 * watch on the registered provider: VS Code itself calls it (explicit trigger, typing), and every call's start
 * and answer are timed on the emulator's clock.
 */
import * as vscode from 'vscode';
import type { Emulator, RecordedRequest } from '../gateway-emulator';
import { clock } from './completionsWire';

/** What the bench asks the extension host to run. */
export interface CompletionJob {
  /** Measured rounds of the overhead and showing figures (each: the provider, then by hand, or the reverse). */
  rounds: number;
  warmup: number;
  stormKeys: number;
  stormGapMs: number;
  /** Characters typed through the suggestion; 0 for all but its last (then accepted with Tab). */
  throughChars: number;
  typeGapMs: number;
  chunkSize: number;
  chunkDelayMs: number;
}

/** One round: the provider's request and the same request by hand, at the same empty line. */
export interface CompletionRound {
  line: number;
  /** VS Code's call of the provider → the request's body handed to the socket. */
  oursMs: number;
  /** Reading the same text from the document, the same prompt and body, a bare request → body sent. */
  handMs: number;
  /** Same starts → the whole body read by the emulator (the same process), for both. */
  oursArrivedMs: number;
  handArrivedMs: number;
  /** The emulator's write of the last byte the suggestion needed → the provider's answer to VS Code. */
  showMs: number;
  /** That write → the bytes in the hands of a bare reader of the request by hand. */
  handShowMs: number;
  neededWrite: number;
  writes: number;
  /** The provider's suggestion equals the post-processed answer up to that write. */
  sameText: boolean;
}

/** The keystroke storm. */
export interface StormResult {
  keys: number;
  /** The gap asked for between keys. */
  gapMs: number;
  /** Between keys as they were sent, and between the edits as they reached the extension host. */
  gapMedianMs: number;
  gapMaxMs: number;
  editGapMedianMs: number;
  editGapMaxMs: number;
  /** Gaps between edits longer than the debounce (300 ms): each is a pause after which a request is right. */
  editGapsOverDebounce: number;
  typingMs: number;
  /** The line holds exactly the keys typed, in order. */
  typedAsSent: boolean;
  /** Times VS Code called the provider during the storm and the pause. */
  calls: number;
  requests: number;
  /** Requests the client closed before the response ended (cancelled, or stopped once complete). */
  closedByClient: number;
  /** Requests neither ended nor closed after the pause: must be none. */
  leftOpen: number;
  /** A suggestion was shown after the pause. */
  answered: boolean;
}

/** Typing through a shown suggestion. */
export interface ThroughResult {
  lines: number;
  chars: number;
  typed: number;
  calls: number;
  /** Calls the provider answered with a suggestion (the others VS Code cancelled before they reached the engine). */
  answeredCalls: number;
  requests: number;
  cacheHits: number;
  /** Tab after the typing accepted the rest of the same suggestion: it stayed shown. */
  kept: boolean;
  /** The longest gap between the edits as they reached the extension host. */
  editGapMaxMs: number;
}

/** The results file. */
export interface CompletionResults {
  node: string;
  vscode: string;
  rounds: CompletionRound[];
  /** Rounds that measured nothing, with why. */
  missed: string[];
  storm?: StormResult;
  through?: ThroughResult;
  /** A part that failed, with why; the others still report. */
  failures: string[];
  /** How long each part took, for keeping the quick run short. */
  partMs: Record<string, number>;
  error?: string;
}

/** One call of the provider by VS Code. */
export interface ProviderCall {
  at: number;
  doneAt?: number;
  line: number;
  invoke: boolean;
  /** The first item's text, when the call answered with one. */
  text?: string;
}

/** Records every call VS Code makes to the registered provider object; `restore()` takes the watch off. */
export class ProviderCalls {
  readonly calls: ProviderCall[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(private readonly provider: vscode.InlineCompletionItemProvider) {
    const original = provider.provideInlineCompletionItems.bind(provider);
    const onDone = (): void => {
      for (const wake of [...this.waiters]) wake();
    };
    // VS Code calls the method on the registered object, so an own property sees each call.
    provider.provideInlineCompletionItems = async (document, position, context, token) => {
      const call: ProviderCall = {
        at: clock(),
        line: position.line,
        invoke: context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke,
      };
      this.calls.push(call);
      try {
        const result = await original(document, position, context, token);
        call.doneAt = clock();
        const items = Array.isArray(result) ? result : result?.items;
        const first = items?.[0]?.insertText;
        call.text = typeof first === 'string' ? first : first?.value;
        return result;
      } finally {
        call.doneAt ??= clock();
        onDone();
      }
    };
  }

  /** Resolves with the first finished call that `pred` accepts; rejects after `timeoutMs`. */
  finished(pred: (call: ProviderCall) => boolean, timeoutMs: number, what: string): Promise<ProviderCall> {
    const find = (): ProviderCall | undefined => this.calls.find((c) => c.doneAt !== undefined && pred(c));
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`${what}: no such provider call within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = (): void => {
        const call = find();
        if (!call) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(call);
      };
      this.waiters.add(check);
    });
  }

  restore(): void {
    Reflect.deleteProperty(this.provider, 'provideInlineCompletionItems');
  }
}

/** What every part works with. */
export interface BenchHost {
  job: CompletionJob;
  emulator: Emulator;
  editor: vscode.TextEditor;
  calls: ProviderCalls;
  /** The extension's counters (cache hits). */
  stats: { cacheHits: number };
}

/** The chat requests among `requests` (the emulator's record) from index `from` on. */
export function chatRequests(requests: readonly RecordedRequest[], from = 0): RecordedRequest[] {
  return requests.slice(from).filter((r) => r.path === '/v1/chat/completions');
}

/** Lines of the 10,000-line bench file that are empty but for their indentation, where suggestions are blocks. */
export const EMPTY_LINE_EVERY = 100;
export const INDENT = '  ';

/** The bench file: 10,000 lines of code, every hundredth (from line 50) empty but for its indentation. */
export function benchFileText(): string {
  return Array.from({ length: 10_000 }, (_, i) =>
    i % EMPTY_LINE_EVERY === EMPTY_LINE_EVERY / 2
      ? INDENT
      : `${INDENT}const value${i} = compute(${i}, 'item-${i}'); // line ${i}`,
  ).join('\n');
}

/** Updates a `modelGateway.*` setting (user settings, as the integration tests do) and lets the change land. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration('modelGateway')
    .update(key, value, vscode.ConfigurationTarget.Global);
  await sleep(200);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Types one key through the editor's `type` command, as the keyboard does. */
export function typeKey(text: string): Thenable<unknown> {
  return vscode.commands.executeCommand('type', { text });
}

/**
 * Types `text` as a keyboard does: key `i` goes `i × gapMs` after the first, whether or not the editor has taken
 * the previous ones yet (the editor applies them in order); resolves, once all are applied, with when each went.
 */
export async function typePaced(text: string, gapMs: number): Promise<number[]> {
  const start = clock();
  const sentAt: number[] = [];
  const typed: Array<Thenable<unknown>> = [];
  for (let i = 0; i < text.length; i++) {
    const wait = start + i * gapMs - clock();
    if (wait > 0) await sleep(wait);
    sentAt.push(clock());
    typed.push(typeKey(text[i]));
  }
  await Promise.all(typed);
  return sentAt;
}

/** When each change of `document` reached the extension host: what the provider's pause in typing sees. */
export function watchEdits(document: vscode.TextDocument): { at: number[]; stop(): void } {
  const at: number[] = [];
  const subscription = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document === document && e.contentChanges.length) at.push(clock());
  });
  return { at, stop: () => subscription.dispose() };
}
