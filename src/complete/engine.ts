/**
 * The request side of inline completions, without the editor: cache first, then a pause in typing,
 * then one streamed request at a time that stops as soon as the suggestion is complete. The host turns
 * VS Code's calls into `provide` calls; everything here runs in plain Node for tests and benchmarks.
 */
import type { ChatCompletionRequest } from '../gateway/types';
import { SuggestionCache } from './cache';
import { type HoleContext, processAnswer } from './postprocess';
import { buildHolePrompt, toLf } from './prompt';

/** The most tokens a suggestion may take; twelve lines of code fit. */
export const MAX_SUGGESTION_TOKENS = 256;

/** One call of the provider: where the cursor is and what surrounds it. */
export interface CompletionQuery {
  /** The document's URI. */
  document: string;
  fileName: string;
  languageId: string;
  /** Document offset of the cursor. */
  offset: number;
  /** Text before the cursor, in the document's form; a tail is enough (see `contextChars`). */
  before: string;
  /** Text after the cursor, in the document's form; a head is enough. */
  after: string;
  tabSize: number;
  insertSpaces: boolean;
  eol: '\n' | '\r\n';
  /** The user asked for a suggestion (VS Code's explicit trigger): no pause. */
  explicit: boolean;
}

/** The settings the engine reads on every call. */
export interface EngineSettings {
  model: string;
  contextTokens: number;
  debounceMs: number;
}

/** What the engine needs from the outside world. */
export interface EngineDeps {
  settings(): EngineSettings;
  /** Streams the answer's text; aborting `signal` must close the request. */
  stream(request: ChatCompletionRequest, signal: AbortSignal): AsyncIterable<string>;
  /** Called when a request failed (never for a cancelled one). */
  onFailure?(error: unknown): void;
  /** Called when a request succeeded. */
  onSuccess?(): void;
}

/** The outcome of one `provide` call. */
export type ProvideResult =
  | { kind: 'suggestion'; text: string; source: 'cache' | 'gateway' }
  | { kind: 'none'; reason: 'cancelled' | 'empty' | 'failed' };

/** Characters of context the host should pass on each side: each character costs at least 1/4 token. */
export function contextChars(contextTokens: number): number {
  return Math.max(0, Math.floor(contextTokens)) * 4;
}

/** Characters of the cursor's surroundings the cache compares. */
const CACHE_WINDOW = 2000;

/** Counters, for tests and benchmarks. */
export interface EngineStats {
  requests: number;
  cacheHits: number;
  cancelled: number;
  failures: number;
}

export class CompletionEngine {
  private readonly cache = new SuggestionCache();
  private inFlight: AbortController | undefined;
  readonly stats: EngineStats = { requests: 0, cacheHits: 0, cancelled: 0, failures: 0 };

  constructor(private readonly deps: EngineDeps) {}

  /** Answers one provider call. `signal` aborts when VS Code no longer wants the answer. */
  async provide(query: CompletionQuery, signal: AbortSignal): Promise<ProvideResult> {
    const key = {
      document: query.document,
      offset: query.offset,
      before: query.before.slice(-CACHE_WINDOW),
      after: query.after.slice(0, CACHE_WINDOW),
    };
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.stats.cacheHits++;
      return cached
        ? { kind: 'suggestion', text: cached, source: 'cache' }
        : { kind: 'none', reason: 'empty' };
    }
    const settings = this.deps.settings();
    if (!query.explicit && !(await pause(settings.debounceMs, signal))) return cancelled(this.stats);
    if (signal.aborted) return cancelled(this.stats);

    // At most one request in flight: a newer call replaces the older one.
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const onAbort = (): void => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const text = await this.request(query, settings, controller.signal);
      if (controller.signal.aborted && text === undefined) return cancelled(this.stats);
      this.deps.onSuccess?.();
      this.cache.put(key, text ?? '');
      return text ? { kind: 'suggestion', text, source: 'gateway' } : { kind: 'none', reason: 'empty' };
    } catch (error) {
      if (controller.signal.aborted) return cancelled(this.stats);
      this.stats.failures++;
      this.deps.onFailure?.(error);
      return { kind: 'none', reason: 'failed' };
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  /** Aborts the request in flight, if any (the user typed). */
  cancelInFlight(): void {
    this.inFlight?.abort();
  }

  /** Forgets cached suggestions (settings changed). */
  clearCache(): void {
    this.cache.clear();
  }

  /** Streams one answer; undefined when aborted before the suggestion was complete. */
  private async request(
    query: CompletionQuery,
    settings: EngineSettings,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const prompt = buildHolePrompt({
      fileName: query.fileName,
      languageId: query.languageId,
      before: query.before,
      after: query.after,
      contextTokens: settings.contextTokens,
    });
    const ctx: HoleContext = {
      before: toLf(query.before),
      after: toLf(query.after),
      tabSize: query.tabSize,
      insertSpaces: query.insertSpaces,
      eol: query.eol,
    };
    const request: ChatCompletionRequest = {
      model: settings.model,
      messages: prompt.messages,
      max_tokens: MAX_SUGGESTION_TOKENS,
      temperature: 0,
    };
    this.stats.requests++;
    let answer = '';
    for await (const chunk of this.deps.stream(request, signal)) {
      answer += chunk;
      // Leaving the loop early aborts the rest of the stream: the suggestion is already whole.
      if (processAnswer(answer, ctx).complete) break;
    }
    if (signal.aborted) return undefined;
    return processAnswer(answer, ctx).text;
  }
}

function cancelled(stats: EngineStats): ProvideResult {
  stats.cancelled++;
  return { kind: 'none', reason: 'cancelled' };
}

/** Waits `ms`; false when `signal` aborted first. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
