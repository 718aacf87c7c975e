/** Reads a chat-completions response body (SSE, or JSON when the server ignored `stream`) into StreamEvents. */

import * as l10n from '@vscode/l10n';
import { type EventSourceMessage, createParser } from 'eventsource-parser';
import { CompletionAssembler } from './assembler';
import {
  ConnectionError,
  GatewayError,
  MalformedResponseError,
  TruncatedStreamError,
  redactError,
} from './errors';
import type { StreamEvent } from './types';

/** Bytes of a socket read decoded and fed to the parser at a time. */
const FEED_SLICE = 2048;

interface ReaderOptions {
  /** The requested model: the fallback for events and the thinking-model hint for think tags. */
  model: string;
  secret?: string;
  /** Largest JSON body accepted when the server answers JSON instead of SSE. */
  maxJsonBytes?: number;
}

interface ChatStreamOptions extends ReaderOptions {
  contentType: string;
}

/** Decodes the first bytes of a body to tell SSE from JSON or a web page; stateless, so shared. */
const SNIFF_DECODER = new TextDecoder('utf-8');

const DEFAULT_MAX_JSON = 256 * 1024 * 1024;

interface Received {
  message: EventSourceMessage;
  /** Completed only by the end of the body, so a parse failure means it was cut off. */
  atEof: boolean;
}

/**
 * Where a body's bytes come from: anything with `read()` (the client's exchange, whose reads run its
 * timers and hand back the chunk it already peeked), or any async iterable of chunks.
 */
type ByteSource = { read(): Promise<Uint8Array | undefined> } | AsyncIterable<Uint8Array>;

interface Reader {
  read(): Promise<Uint8Array | undefined>;
  /** Lets go of the source (an iterable's `return()`), whether the body was read to the end or not. */
  release(): Promise<void>;
}

/**
 * One read per chunk, with no async-generator layer in between: every layer adds awaits between a socket
 * read and the first token on screen. (A Node stream has a `read()` of its own, so iterables come first.)
 */
function readerOf(source: ByteSource): Reader {
  if (Symbol.asyncIterator in source) {
    const iterator = source[Symbol.asyncIterator]();
    return {
      read: async () => {
        const next = await iterator.next();
        return next.done ? undefined : next.value;
      },
      release: async () => {
        await iterator.return?.();
      },
    };
  }
  return { read: () => source.read(), release: async () => undefined };
}

/**
 * Reads one chat answer. Built before the answer arrives (the client builds it while the request is on
 * its way), so that after the first byte only decoding and parsing stand between it and the first token.
 */
export class ChatStreamReader {
  private readonly queue: Received[] = [];
  /** Set once the body has ended: an event completed only then may have been cut off. */
  private atEof = false;
  /** Set at `[DONE]`: the answer is complete, and nothing more is read or parsed. */
  private done = false;
  private readonly parser = createParser({
    onEvent: (message) => this.queue.push({ message, atEof: this.atEof }),
    // Comments are keep-alives (sometimes for minutes while a model thinks); they only prove liveness.
    onComment: () => undefined,
  });
  // stream: true keeps a multi-byte character split across reads until its last byte arrives.
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly options: ReaderOptions,
    readonly assembler: CompletionAssembler = new CompletionAssembler(options.model, options.secret),
  ) {}

  /** Yields normalised events; throws StreamError / TruncatedStreamError / MalformedResponseError after what came. */
  async *events(source: ByteSource, contentType: string): AsyncGenerator<StreamEvent> {
    const reader = readerOf(source);
    try {
      let first: Uint8Array | undefined;
      try {
        first = await reader.read();
      } catch (e) {
        throw streamFailure(e, this.options.secret);
      }
      const format = answerFormat(contentType, first);
      if (format === 'html') {
        throw new MalformedResponseError(
          l10n.t('The gateway answered with a web page instead of a stream. Check the base URL setting.'),
        );
      }
      if (format === 'json') yield* readJsonInsteadOfSse(first, reader, this.assembler, this.options);
      else yield* this.sse(first, reader);
    } finally {
      await reader.release();
    }
  }

  /**
   * Parses SSE from `first` and the reads after it. Events are yielded one by one from here, with no
   * async generator in between: each layer is more work between a socket read and the first token.
   */
  private async *sse(first: Uint8Array | undefined, reader: Reader): AsyncGenerator<StreamEvent> {
    const { parser, decoder, assembler } = this;
    try {
      for (let bytes = first; bytes; bytes = await reader.read()) {
        // One socket read can hold hundreds of events: decoded and fed in slices, the first token is
        // handed on before the rest of the read is decoded and parsed rather than after.
        for (let at = 0; at < bytes.length && !this.done; at += FEED_SLICE) {
          const slice = bytes.length <= FEED_SLICE ? bytes : bytes.subarray(at, at + FEED_SLICE);
          parser.feed(decoder.decode(slice, { stream: true }));
          for (const event of this.queued()) yield event;
        }
        // Not one read more after [DONE]: the server may keep the response open.
        if (this.done) break;
      }
      if (!this.done) {
        this.atEof = true;
        // A last event without its blank line still counts; '\n\n' completes it.
        parser.feed(`${decoder.decode()}\n\n`);
        for (const event of this.queued()) yield event;
      }
    } catch (e) {
      // The text so far stays valid after a failure or a Stop, so the splitter settles it: what it held
      // back is released, and presumed reasoning never confirmed by a closing tag becomes the answer.
      yield* assembler.flush();
      throw streamFailure(e, this.options.secret);
    }
    yield* assembler.flush();
    if (!this.done && !assembler.finishReason) {
      throw new TruncatedStreamError(
        l10n.t(
          'The answer was cut off: the stream ended before the gateway said it was complete. Try again.',
        ),
      );
    }
    yield* assembler.closing();
  }

  /**
   * The events of the queued messages, parsed one message at a time as they are taken (a synchronous
   * generator: lazy, with no async layer per event); stops at `[DONE]`.
   */
  private *queued(): Generator<StreamEvent> {
    for (let next = this.queue.shift(); next && !this.done; next = this.queue.shift()) {
      const events = eventsOf(next, this.assembler);
      if (events === DONE) this.done = true;
      else yield* events;
    }
  }
}

/** Reads one answer body from `source` into events, with a reader built on the spot. */
export function readChatStream(
  source: ByteSource,
  options: ChatStreamOptions,
  assembler?: CompletionAssembler,
): AsyncGenerator<StreamEvent> {
  return new ChatStreamReader(options, assembler).events(source, options.contentType);
}

/** What the body is, from its content type and first bytes. */
function answerFormat(contentType: string, first: Uint8Array | undefined): 'sse' | 'json' | 'html' {
  const type = contentType.toLowerCase();
  const sniffed = first ? SNIFF_DECODER.decode(first.subarray(0, 64)).trimStart() : '';
  // Some servers ignore `stream: true` and answer JSON, now and then with a text/plain content type.
  if (type.includes('json') || (!type.includes('event-stream') && /^[{[]/.test(sniffed))) return 'json';
  if (type.includes('text/html') || /^<(!doctype|html)/i.test(sniffed)) return 'html';
  return 'sse';
}

/** Marks `[DONE]`, the end of an answer. */
const DONE = Symbol('done');
const NO_EVENTS: StreamEvent[] = [];

/** The events one SSE message carries, or DONE at `[DONE]`. */
function eventsOf({ message, atEof }: Received, assembler: CompletionAssembler): StreamEvent[] | typeof DONE {
  const data = message.data.trim();
  if (data === '[DONE]') return DONE;
  if (!data) return NO_EVENTS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    if (atEof) return NO_EVENTS; // Cut off mid-event: reported as truncation afterwards.
    if (message.event !== 'error')
      throw new MalformedResponseError(
        l10n.t('The gateway sent a stream chunk that is not valid JSON. Try again.'),
      );
    parsed = data;
  }
  return assembler.acceptChunk(parsed, message.event);
}

async function* readJsonInsteadOfSse(
  first: Uint8Array | undefined,
  reader: Reader,
  assembler: CompletionAssembler,
  options: ReaderOptions,
): AsyncGenerator<StreamEvent> {
  const limit = options.maxJsonBytes ?? DEFAULT_MAX_JSON;
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (let bytes = first; bytes; bytes = await reader.read()) {
      size += bytes.length;
      if (size > limit)
        throw new MalformedResponseError(l10n.t('The gateway answer is larger than the client accepts.'));
      parts.push(bytes);
    }
  } catch (e) {
    throw streamFailure(e, options.secret);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(Buffer.concat(parts, size)));
  } catch {
    throw new MalformedResponseError(l10n.t('The gateway sent an answer that is not valid JSON. Try again.'));
  }
  yield* assembler.acceptCompletion(parsed);
  yield* assembler.flush();
  yield* assembler.closing();
}

/** A broken connection mid-answer is a truncation from the user's point of view; the rest pass through. */
function streamFailure(e: unknown, secret: string | undefined): GatewayError {
  if (e instanceof ConnectionError) {
    return redactError(
      new TruncatedStreamError(l10n.t('The connection broke in the middle of the answer. Try again.'), {
        cause: e,
        code: e.code,
      }),
      secret,
    );
  }
  if (e instanceof GatewayError) return redactError(e, secret);
  const detail = e instanceof Error ? e.message : String(e);
  return redactError(
    new MalformedResponseError(l10n.t('The gateway stream could not be read ({0}).', detail), { cause: e }),
    secret,
  );
}
