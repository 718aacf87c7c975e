/** Reads a chat-completions response body (SSE, or JSON when the server ignored `stream`) into StreamEvents. */

import { type EventSourceMessage, createParser } from 'eventsource-parser';
import { CompletionAssembler } from './assembler';
import {
  ConnectionError,
  GatewayError,
  MalformedResponseError,
  TruncatedStreamError,
  UserAbortError,
  redactError,
} from './errors';
import type { StreamEvent } from './types';

/** Bytes of a socket read decoded and fed to the parser at a time. */
const FEED_SLICE = 2048;

export interface ChatStreamOptions {
  /** The requested model: the fallback for events and the thinking-model hint for think tags. */
  model: string;
  contentType: string;
  secret?: string;
  /** Largest JSON body accepted when the server answers JSON instead of SSE. */
  maxJsonBytes?: number;
}

const DEFAULT_MAX_JSON = 256 * 1024 * 1024;

interface Received {
  message: EventSourceMessage;
  /** Completed only by the end of the body, so a parse failure means it was cut off. */
  atEof: boolean;
}

/** Yields normalised events; throws StreamError / TruncatedStreamError / MalformedResponseError after what came. */
export async function* readChatStream(
  source: AsyncIterable<Uint8Array>,
  options: ChatStreamOptions,
  assembler: CompletionAssembler = new CompletionAssembler(options.model, options.secret),
): AsyncGenerator<StreamEvent> {
  const [first, body] = await peek(source, options.secret);
  const type = options.contentType.toLowerCase();
  // Some servers ignore `stream: true` and answer JSON, now and then with a text/plain content type.
  const sniffed = first ? new TextDecoder().decode(first.subarray(0, 64)).trimStart() : '';
  if (type.includes('json') || (!type.includes('event-stream') && /^[{[]/.test(sniffed))) {
    yield* readJsonInsteadOfSse(body, assembler, options);
    return;
  }
  if (type.includes('text/html') || /^<(!doctype|html)/i.test(sniffed)) {
    throw new MalformedResponseError(
      'The gateway answered with a web page instead of a stream. Check the base URL setting.',
    );
  }
  const queue: Received[] = [];
  let atEof = false;
  const parser = createParser({
    onEvent: (message) => queue.push({ message, atEof }),
    // Comments are keep-alives (sometimes for minutes while a model thinks); they only prove liveness.
    onComment: () => undefined,
  });
  // stream: true keeps a multi-byte character split across reads until its last byte arrives.
  const decoder = new TextDecoder('utf-8');
  let done = false;
  try {
    for await (const bytes of body) {
      // One socket read can hold hundreds of events: decoded and fed in slices, the first token is handed
      // on before the rest of the read is decoded and parsed rather than after (time to first token).
      for (let at = 0; at < bytes.length && !done; at += FEED_SLICE) {
        const slice = bytes.length <= FEED_SLICE ? bytes : bytes.subarray(at, at + FEED_SLICE);
        parser.feed(decoder.decode(slice, { stream: true }));
        done = yield* drain(queue, assembler);
      }
      if (done) break;
    }
    if (!done) {
      atEof = true;
      // A last event without its blank line still counts; '\n\n' completes it.
      parser.feed(`${decoder.decode()}\n\n`);
      done = yield* drain(queue, assembler);
    }
  } catch (e) {
    // The text so far stays valid after a failure, so release what the splitter held back, but a
    // user who pressed Stop wants nothing more.
    if (!(e instanceof UserAbortError)) yield* assembler.flush();
    throw streamFailure(e, options.secret);
  }
  yield* assembler.flush();
  if (!done && !assembler.finishReason) {
    throw new TruncatedStreamError(
      'The answer was cut off: the stream ended before the gateway said it was complete. Try again.',
    );
  }
  yield* assembler.closing();
}

/** Reads the first chunk (to sniff the format) and returns it with an iterable of the whole body. */
async function peek(
  source: AsyncIterable<Uint8Array>,
  secret: string | undefined,
): Promise<[Uint8Array | undefined, AsyncIterable<Uint8Array>]> {
  const iterator = source[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array>;
  try {
    first = await iterator.next();
  } catch (e) {
    throw streamFailure(e, secret);
  }
  async function* whole(): AsyncGenerator<Uint8Array> {
    try {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  }
  return [first.done ? undefined : first.value, whole()];
}

/** Handles queued SSE events; returns true at `[DONE]`. */
async function* drain(
  queue: Received[],
  assembler: CompletionAssembler,
): AsyncGenerator<StreamEvent, boolean> {
  while (queue.length) {
    const { message, atEof } = queue.shift() as Received;
    const data = message.data.trim();
    if (data === '[DONE]') {
      queue.length = 0;
      return true;
    }
    if (!data) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      if (atEof) continue; // Cut off mid-event: reported as truncation below.
      if (message.event === 'error') parsed = data;
      else
        throw new MalformedResponseError(
          'The gateway sent a stream chunk that is not valid JSON. Try again.',
        );
    }
    yield* assembler.acceptChunk(parsed, message.event);
  }
  return false;
}

async function* readJsonInsteadOfSse(
  body: AsyncIterable<Uint8Array>,
  assembler: CompletionAssembler,
  options: ChatStreamOptions,
): AsyncGenerator<StreamEvent> {
  const limit = options.maxJsonBytes ?? DEFAULT_MAX_JSON;
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const bytes of body) {
      size += bytes.length;
      if (size > limit)
        throw new MalformedResponseError('The gateway answer is larger than the client accepts.');
      parts.push(bytes);
    }
  } catch (e) {
    throw streamFailure(e, options.secret);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(Buffer.concat(parts, size)));
  } catch {
    throw new MalformedResponseError('The gateway sent an answer that is not valid JSON. Try again.');
  }
  yield* assembler.acceptCompletion(parsed);
  yield* assembler.flush();
  yield* assembler.closing();
}

/** A broken connection mid-answer is a truncation from the user's point of view; the rest pass through. */
function streamFailure(e: unknown, secret: string | undefined): GatewayError {
  if (e instanceof ConnectionError) {
    return redactError(
      new TruncatedStreamError('The connection broke in the middle of the answer. Try again.', {
        cause: e,
        code: e.code,
      }),
      secret,
    );
  }
  if (e instanceof GatewayError) return redactError(e, secret);
  const detail = e instanceof Error ? e.message : String(e);
  return redactError(
    new MalformedResponseError(`The gateway stream could not be read (${detail}).`, { cause: e }),
    secret,
  );
}
