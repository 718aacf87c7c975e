/** The gateway client: validation, key, headers and body in; typed results or typed errors out. */

import * as l10n from '@vscode/l10n';
import { CompletionAssembler } from './assembler';
import { type NormalisedBaseUrl, endpointUrl, normaliseBaseUrl } from './baseUrl';
import { chatBodyBytes } from './chatBodyBytes';
import { DEFAULT_USER_AGENT, imageBody, resolveRetry, resolveTimeouts } from './config';
import type { Dispatcher } from './undici';
import { createDispatcher } from './dispatcher';
import {
  AuthError,
  ConnectionError,
  GatewayError,
  MalformedResponseError,
  ValidationError,
  redactError,
} from './errors';
import type { Exchange, ExchangeEnv, ExchangeRequest } from './exchange';
import { send } from './http';
import { DEFAULT_MAX_IMAGE_BYTES, imagesFromResult, readImageResponse } from './images';
import { DEFAULT_IMAGE_MODEL } from './models';
import { type DiscoveredModel, parseModelList } from './discovery';
import { ChatStreamReader } from './sse';
import type {
  ChatCompletion,
  ChatCompletionRequest,
  GatewayClient,
  GatewayClientOptions,
  ImageGenerationRequest,
  ImageGenerationResult,
  ListModelsOptions,
  RequestOptions,
  StreamEvent,
} from './types';
import { validateChatRequest, validateImageRequest } from './validate';

const CHAT_PATH = '/v1/chat/completions';
const IMAGES_PATH = '/v1/images/generations';
const MODELS_PATH = '/v1/models';
/** Discovery gives up after this long and the catalogue alone is used (issue 18). */
const MODELS_TIMEOUT_MS = 10_000;
/** A model list is small; OpenRouter's hundreds of models with descriptions stay well under this. */
const MODELS_MAX_BYTES = 16 * 1024 * 1024;
/** How long a finished stream waits for the server to end the response, so the socket can be reused. */
const SETTLE_MS = 250;
/** V8 cannot build a longer string, so no JSON body beyond this can be parsed anyway. */
const MAX_JSON_CHARS = 0x1fffffe8;

/** Makes every error leaving the client a GatewayError with the key scrubbed out. */
function clean(e: unknown, secret: string | undefined): GatewayError {
  if (e instanceof GatewayError) return redactError(e, secret);
  const detail = e instanceof Error ? e.message : String(e);
  return redactError(
    new MalformedResponseError(l10n.t('Unexpected error while talking to the gateway: {0}', detail), {
      cause: e,
    }),
    secret,
  );
}

/** Creates a client for the gateway at `options.baseUrl`. Nothing is sent until a method is called. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const base = normaliseBaseUrl(options.baseUrl);
  const timeouts = resolveTimeouts(options.timeouts);
  const retry = resolveRetry(options.retry);
  const userAgent = options.userAgent?.trim() || DEFAULT_USER_AGENT;
  const extraHeaders = { ...options.headers };
  const maxImageBytes =
    options.maxImageBytes && options.maxImageBytes > 0 ? options.maxImageBytes : DEFAULT_MAX_IMAGE_BYTES;
  let dispatcher: Dispatcher | undefined;
  try {
    dispatcher = createDispatcher({ proxy: options.proxy, connectTimeoutMs: timeouts.connectMs });
  } catch {
    // Reported on each request instead: a bad setting must not break whoever builds the client.
    // The URL is not quoted, as proxy URLs can carry a password.
    dispatcher = undefined;
  }
  let closed = false;
  let retired = false;
  let active = 0;

  /** Counts a request in progress; once the last one of a retired client ends, its connections close. */
  function begin(): () => void {
    active++;
    return () => {
      active--;
      if (retired && active === 0) void dispatcher?.destroy();
    };
  }

  /** Everything that must hold before a byte is sent: open client, valid base URL, a usable key. */
  async function prepare(): Promise<{ base: NormalisedBaseUrl; key: string }> {
    if (closed) throw new ConnectionError(l10n.t('The gateway client has been closed.'));
    if (!dispatcher) {
      throw new ValidationError(
        l10n.t(
          'The proxy setting (or HTTP_PROXY/HTTPS_PROXY) is not a valid proxy URL. Fix it in the Model Gateway settings.',
        ),
      );
    }
    if ('problem' in base) throw new ValidationError(base.problem);
    let key: string | undefined;
    try {
      key = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey;
    } catch (e) {
      throw new AuthError(l10n.t("The API key could not be read. Run 'Model Gateway: Set API Key'."), {
        cause: e,
      });
    }
    key = key?.trim();
    if (!key) throw new AuthError(l10n.t("No API key is set. Run 'Model Gateway: Set API Key'."));
    // A control character would make undici reject the header with a message that may quote it.
    if (!/^[\x21-\x7e]+$/.test(key)) {
      throw new AuthError(
        l10n.t("The API key contains characters that cannot be sent. Run 'Model Gateway: Set API Key'."),
      );
    }
    return { base, key };
  }

  function env(key: string): ExchangeEnv {
    return { dispatcher: dispatcher as Dispatcher, secret: key, onLog: options.onRequestLog };
  }

  /**
   * Endpoint URLs, parsed once per client (a URL parse is a measurable part of the time to first token).
   * A client's base URL never changes, so the path alone is the key.
   */
  const endpoints = new Map<string, URL>();

  function endpoint(to: NormalisedBaseUrl, path: string): URL {
    let url = endpoints.get(path);
    if (!url) {
      url = endpointUrl(to, path);
      endpoints.set(path, url);
    }
    return url;
  }

  function post(
    to: NormalisedBaseUrl,
    path: string,
    key: string,
    body: string | Uint8Array | readonly Uint8Array[],
    model: string,
    signal?: AbortSignal,
  ): ExchangeRequest {
    // A body in parts is sent with its length, not chunked: some servers refuse a chunked request.
    const length: Record<string, string> = Array.isArray(body)
      ? { 'Content-Length': String(body.reduce((sum, part) => sum + part.byteLength, 0)) }
      : {};
    return {
      method: 'POST',
      url: endpoint(to, path),
      logPath: path,
      headers: {
        ...extraHeaders,
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'User-Agent': userAgent,
        ...length,
      },
      body,
      model,
      firstByteMs: path === IMAGES_PATH ? timeouts.imageFirstByteMs : timeouts.firstByteMs,
      idleMs: timeouts.idleMs,
      signal,
    };
  }

  /**
   * One chat request. Streams unless `collect` is given, in which case the request is non-streamed and
   * the assembler is handed over so the caller can build a ChatCompletion from it.
   */
  async function* chat(
    request: ChatCompletionRequest,
    opts: RequestOptions,
    collect?: { assembler?: CompletionAssembler },
  ): AsyncGenerator<StreamEvent> {
    let key: string | undefined;
    let exchange: Exchange | undefined;
    let failure: unknown;
    let complete = false;
    const end = begin();
    try {
      validateChatRequest(request);
      const ready = await prepare();
      key = ready.key;
      const model = request.model.trim();
      const req = post(ready.base, CHAT_PATH, key, chatBodyBytes(request, !collect), model, opts.signal);
      if (!collect) req.headers.Accept = 'text/event-stream';
      const sending = send(env(key), req, { retry });
      // Built while the request is on its way (send() has dispatched it by now), not after the first byte.
      const reader = new ChatStreamReader({ model, secret: key, maxJsonBytes: MAX_JSON_CHARS });
      if (collect) collect.assembler = reader.assembler;
      exchange = await sending;
      // The exchange itself is the source: its first read hands back the chunk send() already peeked.
      yield* reader.events(exchange, exchange.contentType);
      complete = true;
    } catch (e) {
      failure = clean(e, key);
      throw failure;
    } finally {
      // Runs on completion, on error, and when the consumer breaks out of its loop (the request is aborted).
      if (exchange) {
        if (complete) await exchange.settle(SETTLE_MS);
        else exchange.close();
        exchange.finish(failure);
      }
      end();
    }
  }

  return {
    streamChatCompletion(request, opts = {}) {
      return chat(request, opts);
    },

    async createChatCompletion(request, opts = {}): Promise<ChatCompletion> {
      const collect: { assembler?: CompletionAssembler } = {};
      let text = '';
      let reasoning = '';
      for await (const event of chat(request, opts, collect)) {
        if (event.type === 'text') text += event.text;
        else if (event.type === 'reasoning') reasoning += event.text;
        else if (event.type === 'retractReasoning') reasoning = '';
      }
      const assembler = collect.assembler as CompletionAssembler;
      const message: ChatCompletion['choices'][number]['message'] = { role: 'assistant', content: text };
      if (reasoning) message.reasoning = reasoning;
      const completion: ChatCompletion = {
        id: assembler.id,
        object: 'chat.completion',
        created: assembler.created ?? Math.floor(Date.now() / 1000),
        model: assembler.model,
        choices: [{ index: 0, message, finish_reason: assembler.finishReason ?? null }],
      };
      if (assembler.usage) completion.usage = assembler.usage;
      return completion;
    },

    async generateImages(
      request: ImageGenerationRequest,
      opts: RequestOptions = {},
    ): Promise<ImageGenerationResult> {
      let key: string | undefined;
      const end = begin();
      try {
        validateImageRequest(request);
        const ready = await prepare();
        key = ready.key;
        const req = post(
          ready.base,
          IMAGES_PATH,
          key,
          imageBody(request),
          request.model?.trim() || DEFAULT_IMAGE_MODEL,
          opts.signal,
        );
        const exchange = await send(env(key), req, { retry });
        const response = await readImageResponse(exchange, request.n ?? 1, maxImageBytes);
        return await imagesFromResult(
          response.body,
          {
            env: env(key),
            gatewayOrigin: ready.base.origin,
            apiKey: key,
            extraHeaders,
            userAgent,
            maxImageBytes,
            firstByteMs: timeouts.firstByteMs,
            idleMs: timeouts.idleMs,
            retry,
            signal: opts.signal,
          },
          response.images,
        );
      } catch (e) {
        throw clean(e, key);
      } finally {
        end();
      }
    },

    async listModels(opts: ListModelsOptions = {}): Promise<DiscoveredModel[]> {
      let key: string | undefined;
      let exchange: Exchange | undefined;
      let failure: unknown;
      const end = begin();
      const limitMs = opts.timeoutMs && opts.timeoutMs > 0 ? opts.timeoutMs : MODELS_TIMEOUT_MS;
      try {
        const ready = await prepare();
        key = ready.key;
        const req: ExchangeRequest = {
          method: 'GET',
          url: endpoint(ready.base, MODELS_PATH),
          logPath: MODELS_PATH,
          headers: {
            ...extraHeaders,
            Authorization: `Bearer ${key}`,
            Accept: 'application/json',
            'User-Agent': userAgent,
          },
          firstByteMs: limitMs,
          idleMs: limitMs,
          signal: opts.signal,
        };
        // No retries: a missing endpoint or a slow server means the catalogue, not a longer wait.
        exchange = await send(env(key), req, { retry: { ...retry, maxRetries: 0 } });
        const bytes = await exchange.readAll(
          MODELS_MAX_BYTES,
          () =>
            new MalformedResponseError(
              l10n.t('The model list from GET /v1/models is larger than the client accepts.'),
            ),
        );
        let body: unknown;
        try {
          body = JSON.parse(new TextDecoder().decode(bytes));
        } catch {
          throw new MalformedResponseError(
            l10n.t('The server answered GET /v1/models with something other than JSON.'),
          );
        }
        return parseModelList(body);
      } catch (e) {
        failure = clean(e, key);
        throw failure;
      } finally {
        exchange?.finish(failure);
        end();
      }
    },

    async close(): Promise<void> {
      if (closed && !retired) return;
      closed = true;
      retired = false;
      await dispatcher?.destroy();
    },

    async retire(): Promise<void> {
      if (closed) return;
      closed = true;
      retired = true;
      if (active === 0) await dispatcher?.destroy();
    },
  };
}
