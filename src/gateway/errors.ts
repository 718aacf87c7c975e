/** The one error hierarchy of the gateway client. Messages say what the user can do next. */

export type GatewayErrorKind =
  | 'auth'
  | 'not_found'
  | 'bad_request'
  | 'context_length'
  | 'request_too_large'
  | 'payment_required'
  | 'rate_limit'
  | 'server'
  | 'http'
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'stream'
  | 'malformed'
  | 'truncated'
  | 'validation'
  | 'image';

export interface GatewayErrorInit {
  status?: number;
  code?: string;
  type?: string;
  requestId?: string;
  retryable?: boolean;
  retryAfterMs?: number;
  /** The gateway's own words (already extracted, tidied and redacted). */
  gatewayMessage?: string;
  cause?: unknown;
}

/** Base class: every error the client throws is one of these. */
/** Marks every GatewayError, whichever bundle's copy of the class made it (see `isGatewayError`). */
const GATEWAY_ERROR = Symbol.for('modelGateway.GatewayError');

export class GatewayError extends Error {
  override name = 'GatewayError';
  readonly [GATEWAY_ERROR] = true as const;
  readonly kind: GatewayErrorKind;
  readonly status?: number;
  code?: string;
  type?: string;
  requestId?: string;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  gatewayMessage?: string;

  constructor(kind: GatewayErrorKind, message: string, init: GatewayErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? false;
    this.retryAfterMs = init.retryAfterMs;
    this.gatewayMessage = init.gatewayMessage;
  }
}

/** 401/403, or no key configured. */
export class AuthError extends GatewayError {
  override name = 'AuthError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('auth', message, init);
  }
}

/** 404: unknown model or wrong base URL. */
export class NotFoundError extends GatewayError {
  override name = 'NotFoundError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('not_found', message, init);
  }
}

/** 400/422: the gateway rejected the request. */
export class BadRequestError extends GatewayError {
  override name = 'BadRequestError';
  constructor(
    message: string,
    init: GatewayErrorInit = {},
    kind: 'bad_request' | 'context_length' = 'bad_request',
  ) {
    super(kind, message, init);
  }
}

/** A 400 whose cause is a conversation longer than the model's context window. */
export class ContextLengthError extends BadRequestError {
  override name = 'ContextLengthError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super(message, init, 'context_length');
  }
}

/** 413. */
export class RequestTooLargeError extends GatewayError {
  override name = 'RequestTooLargeError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('request_too_large', message, init);
  }
}

/** 402: no credits left. */
export class PaymentRequiredError extends GatewayError {
  override name = 'PaymentRequiredError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('payment_required', message, init);
  }
}

/** 429; retryable unless the quota or spend limit is used up. */
export class RateLimitError extends GatewayError {
  override name = 'RateLimitError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('rate_limit', message, init);
  }
}

/** 5xx, including 529 (overloaded) and CDN pages such as 524. */
export class ServerError extends GatewayError {
  override name = 'ServerError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('server', message, init);
  }
}

/** The connection could not be made or broke. */
export class ConnectionError extends GatewayError {
  override name = 'ConnectionError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('connection', message, init);
  }
}

export type TimeoutPhase = 'connect' | 'first_byte' | 'idle';

/** One of the client's own time limits ran out. */
export class TimeoutError extends GatewayError {
  override name = 'TimeoutError';
  readonly phase: TimeoutPhase;
  constructor(phase: TimeoutPhase, message: string, init: GatewayErrorInit = {}) {
    super('timeout', message, init);
    this.phase = phase;
  }
}

/** The caller's AbortSignal fired; callers treat this quietly. */
export class UserAbortError extends GatewayError {
  override name = 'UserAbortError';
  constructor(init: GatewayErrorInit = {}) {
    super('aborted', 'The request was cancelled.', init);
  }
}

/** The gateway reported an error inside a successful (200) response, e.g. mid-stream. */
export class StreamError extends GatewayError {
  override name = 'StreamError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('stream', message, init);
  }
}

/** The response could not be understood (bad JSON, wrong content type, missing fields). */
export class MalformedResponseError extends GatewayError {
  override name = 'MalformedResponseError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('malformed', message, init);
  }
}

/** The stream ended before the gateway said it was complete; the text so far stays valid. */
export class TruncatedStreamError extends GatewayError {
  override name = 'TruncatedStreamError';
  constructor(message: string, init: GatewayErrorInit = {}) {
    super('truncated', message, init);
  }
}

/** The request was rejected by the client before anything was sent. */
export class ValidationError extends GatewayError {
  override name = 'ValidationError';
  constructor(message: string) {
    super('validation', message);
  }
}

export type ImageErrorReason =
  | 'expired'
  | 'download_failed'
  | 'not_image'
  | 'too_large'
  | 'too_many_redirects'
  | 'unsupported_url'
  | 'unknown_format';

/** An image could not be turned into bytes (download, cap, format). */
export class ImageError extends GatewayError {
  override name = 'ImageError';
  readonly reason: ImageErrorReason;
  constructor(reason: ImageErrorReason, message: string, init: GatewayErrorInit = {}) {
    super('image', message, init);
    this.reason = reason;
  }
}

/**
 * Type guard for errors thrown by the gateway client. By a global brand as well as `instanceof`: the agent's
 * run-time is a bundle of its own (dist/agent.js) with its own copy of this class, and it must still recognise
 * the errors the extension's client throws.
 */
export function isGatewayError(e: unknown): e is GatewayError {
  return (
    e instanceof GatewayError ||
    (e instanceof Error && (e as { [GATEWAY_ERROR]?: true })[GATEWAY_ERROR] === true)
  );
}

const REDACTED = '[redacted]';

/** Removes the exact secret from text; keys shorter than 4 characters are too short to match safely. */
export function redactSecret(text: string, secret: string | undefined): string;
export function redactSecret(text: string | undefined, secret: string | undefined): string | undefined;
export function redactSecret(text: string | undefined, secret: string | undefined): string | undefined {
  if (text === undefined || !secret || secret.length < 4) return text;
  return text.split(secret).join(REDACTED);
}

/** Last line of defence: scrubs the secret from every text field of an error (message, stack, body fields). */
export function redactError<E extends GatewayError>(error: E, secret: string | undefined): E {
  if (!secret || secret.length < 4) return error;
  error.message = redactSecret(error.message, secret);
  if (error.stack) error.stack = redactSecret(error.stack, secret);
  error.gatewayMessage = redactSecret(error.gatewayMessage, secret);
  error.code = redactSecret(error.code, secret);
  error.type = redactSecret(error.type, secret);
  error.requestId = redactSecret(error.requestId, secret);
  return error;
}
