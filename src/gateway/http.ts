/** Sends a request with retries: only before the answer body has started, with backoff and Retry-After. */

import * as l10n from '@vscode/l10n';
import { createHttpError } from './errorFactory';
import { ConnectionError, GatewayError, UserAbortError } from './errors';
import { Exchange, type ExchangeEnv, type ExchangeRequest } from './exchange';
import { backoffDelay, sleep } from './retry';
import type { RetryOptions } from './types';

interface SendOptions {
  retry: RetryOptions;
  /** 'image_download' selects image-link wording for HTTP errors. */
  errorContext?: 'api' | 'image_download';
  /** Statuses handed back to the caller instead of being turned into errors (redirects for downloads). */
  passStatus?: (status: number) => boolean;
}

/** Largest error body read: enough for any real message, small enough to ignore hostile ones. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * Opens an exchange whose status is 2xx (or passed through) and whose first body byte has arrived,
 * retrying failed attempts. The caller reads the rest of the body and must call `finish()`.
 */
export async function send(env: ExchangeEnv, req: ExchangeRequest, options: SendOptions): Promise<Exchange> {
  const { retry } = options;
  for (let attempt = 1; ; attempt++) {
    const exchange = new Exchange(env, req, attempt);
    let error: GatewayError;
    try {
      await exchange.open();
      if (options.passStatus?.(exchange.status)) return exchange;
      if (exchange.status >= 200 && exchange.status < 300) {
        await peekFirstChunk(exchange);
        return exchange;
      }
      error = await readHttpError(exchange, env, req, options);
    } catch (e) {
      error = e instanceof GatewayError ? e : exchange.mapError(e);
    }
    exchange.finish(error);
    if (error instanceof UserAbortError || !error.retryable || attempt > retry.maxRetries) throw error;
    // A wait longer than the cap is the caller's decision (e.g. tell the user), not ours to sleep through.
    if (error.retryAfterMs !== undefined && error.retryAfterMs > retry.maxRetryAfterMs) throw error;
    const delay = error.retryAfterMs ?? backoffDelay(attempt, retry);
    try {
      await sleep(delay, req.signal);
    } catch (e) {
      throw new UserAbortError({ cause: e });
    }
  }
}

/**
 * Waits for the first body byte so that a connection dropped before any answer arrived can still be
 * retried; the chunk is put back for the caller.
 */
async function peekFirstChunk(exchange: Exchange): Promise<void> {
  const first = await exchange.read();
  if (!first) {
    throw new ConnectionError(l10n.t('The gateway closed the connection without sending an answer.'), {
      status: exchange.status,
      retryable: true,
    });
  }
  exchange.unread(first);
}

async function readHttpError(
  exchange: Exchange,
  env: ExchangeEnv,
  req: ExchangeRequest,
  options: SendOptions,
): Promise<GatewayError> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (let chunk = await exchange.read(); chunk; chunk = await exchange.read()) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= ERROR_BODY_LIMIT) {
        exchange.close();
        break;
      }
    }
  } catch (e) {
    // A user abort wins; otherwise the status alone still makes a useful error.
    if (e instanceof UserAbortError) throw e;
  }
  return createHttpError({
    status: exchange.status,
    headers: exchange.headers,
    body: new TextDecoder().decode(Buffer.concat(parts).subarray(0, ERROR_BODY_LIMIT)),
    model: req.model,
    secret: env.secret,
    context: options.errorContext,
  });
}
