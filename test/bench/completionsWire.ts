/**
 * Case 9, what happens on the wire, for the extension-host part (completionsExthost.ts): when a request leaves
 * (undici's diagnostics channel, which the extension's bundled undici and the bench's own publish alike),
 * which of the emulator's writes held the last byte the suggestion needed, and the request built by hand.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { MAX_SUGGESTION_TOKENS, contextChars } from '../../src/complete/engine';
import { type HoleContext, processAnswer } from '../../src/complete/postprocess';
import { buildHolePrompt, toLf } from '../../src/complete/prompt';
import { Agent } from '../../src/gateway/undici';

/** The model and context size the extension uses by default (modelGateway.complete.*). */
export const BENCH_MODEL = 'alpha-haiku-4-5-20251001';
export const BENCH_CONTEXT_TOKENS = 4000;

/** One request that left this process: when its whole body was handed to the socket. */
export interface SentRequest {
  /** `performance.timeOrigin + performance.now()`, the emulator's clock in this same process. */
  at: number;
  origin: string;
  path: string;
}

/** The one clock of the extension-host part: epoch milliseconds with a sub-millisecond fraction. */
export function clock(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Records every request whose body has been sent (`undici:request:bodySent`), from any copy of undici in this
 * process: the extension's bundle and the bench's request by hand.
 */
export function watchSentRequests(): { sent: SentRequest[]; stop(): void } {
  const sent: SentRequest[] = [];
  const onSent = (message: unknown): void => {
    const at = clock();
    const request = (message as { request?: { origin?: unknown; path?: unknown } }).request;
    sent.push({ at, origin: String(request?.origin ?? ''), path: String(request?.path ?? '') });
  };
  subscribe('undici:request:bodySent', onSent);
  return { sent, stop: () => unsubscribe('undici:request:bodySent', onSent) };
}

/** The answer text an SSE write carries (the `content` of its deltas; none for comments and [DONE]). */
export function writeContent(text: string): string {
  let content = '';
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data || data === '[DONE]') continue;
    try {
      const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: unknown } }> };
      const piece = chunk.choices?.[0]?.delta?.content;
      if (typeof piece === 'string') content += piece;
    } catch {
      // not a chunk of the answer
    }
  }
  return content;
}

/**
 * Index of the write that held the last byte the suggestion needed: the first after which the post-processing
 * (the engine's own `processAnswer`) calls the suggestion complete, as the engine stops reading there; -1 while
 * no write has (a stream that ends without it is read to its end: its last write is the one needed).
 */
export function completingWrite(writes: ReadonlyArray<{ text: string }>, ctx: HoleContext): number {
  let answer = '';
  for (let i = 0; i < writes.length; i++) {
    const piece = writeContent(writes[i].text);
    if (!piece) continue;
    answer += piece;
    if (processAnswer(answer, ctx).complete) return i;
  }
  return -1;
}

/** The suggestion the answer in `writes[0..last]` gives at the hole (what the provider should have returned). */
export function suggestionThrough(
  writes: ReadonlyArray<{ text: string }>,
  last: number,
  ctx: HoleContext,
): string {
  const answer = writes
    .slice(0, last + 1)
    .map((w) => writeContent(w.text))
    .join('');
  return processAnswer(answer, ctx).text;
}

/** The text around an offset as the provider reads it: `contextChars` on each side, LF line breaks. */
export function holeContext(
  text: string,
  offset: number,
  options: { tabSize: number; insertSpaces: boolean },
): HoleContext {
  const chars = contextChars(BENCH_CONTEXT_TOKENS);
  return {
    before: toLf(text.slice(Math.max(0, offset - chars), offset)),
    after: toLf(text.slice(offset, offset + chars)),
    tabSize: options.tabSize,
    insertSpaces: options.insertSpaces,
    eol: '\n',
  };
}

/** What a request by hand needs: the hole's surroundings as read from the document, and where to send it. */
export interface HandHole {
  fileName: string;
  languageId: string;
  before: string;
  after: string;
}

/** A streamed request by hand: the prompt, the body, a bare undici request; resolves with its body stream. */
export async function sendByHand(
  agent: InstanceType<typeof Agent>,
  url: string,
  key: string,
  hole: HandHole,
  signal: AbortSignal,
): Promise<AsyncIterable<Buffer>> {
  const { messages } = buildHolePrompt({ ...hole, contextTokens: BENCH_CONTEXT_TOKENS });
  const body = JSON.stringify({
    model: BENCH_MODEL,
    messages,
    max_tokens: MAX_SUGGESTION_TOKENS,
    temperature: 0,
    stream: true,
  });
  const response = await agent.request({
    origin: url,
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
    signal,
  });
  if (response.statusCode !== 200) throw new Error(`the request by hand got ${response.statusCode}`);
  return response.body as AsyncIterable<Buffer>;
}
