// Error responses in the dialects real gateways, proxies and CDNs send before a stream starts.
import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Exchange } from './exchange';
import type { FaultSet } from './faults';

/** Dialects accepted by `status:<code>:<dialect>`. */
export const DIALECTS = [
  'openai',
  'openrouter',
  'litellm',
  'vllm',
  'ollama',
  'anthropic',
  'reseller',
  'html',
  'empty',
] as const;
export type Dialect = (typeof DIALECTS)[number];

/** True for a known dialect name. */
export function isDialect(name: string): name is Dialect {
  return (DIALECTS as readonly string[]).includes(name);
}

interface OpenAiError {
  message: string;
  type: string;
  code: string | null;
}

/** OpenAI-style message, type and code for a status. */
export function openAiError(status: number, model = 'the requested model'): OpenAiError {
  switch (status) {
    case 400:
      return {
        message:
          "This model's maximum context length is 200000 tokens. However, your messages resulted in 213406 tokens. Please reduce the length of the messages.",
        type: 'invalid_request_error',
        code: 'context_length_exceeded',
      };
    case 401:
      return {
        message: 'Incorrect API key provided: sk-****. You can find your API key in your account settings.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      };
    case 403:
      return {
        message: 'You are not allowed to access this model.',
        type: 'invalid_request_error',
        code: 'model_not_allowed',
      };
    case 404:
      return {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        code: 'model_not_found',
      };
    case 429:
      return {
        message: 'Rate limit reached for requests. Please try again in 1s.',
        type: 'requests',
        code: 'rate_limit_exceeded',
      };
    case 500:
      return {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        code: null,
      };
    case 502:
    case 503:
      return {
        message: 'The engine is currently overloaded, please try again later.',
        type: 'server_error',
        code: null,
      };
    default:
      return {
        message: `Request failed with status ${status}.`,
        type: status >= 500 ? 'server_error' : 'invalid_request_error',
        code: null,
      };
  }
}

const ANTHROPIC_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const LITELLM_EXCEPTIONS: Record<number, string> = {
  400: 'BadRequestError',
  401: 'AuthenticationError',
  404: 'NotFoundError',
  408: 'Timeout',
  429: 'RateLimitError',
  500: 'InternalServerError',
  503: 'ServiceUnavailableError',
};

/** A reseller-style request id: a timestamp followed by random hex. */
function resellerRequestId(): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 17);
  return stamp + randomBytes(6).toString('hex');
}

/** Reseller (one-api / new-api family) message in Chinese with the `(request id: …)` suffix. */
function resellerMessage(status: number, model: string): string {
  const id = resellerRequestId();
  if (status === 503) return `当前分组 default 下对于模型 ${model} 无可用渠道 (request id: ${id})`;
  if (status === 429) return `当前分组上游负载已饱和，请稍后再试 (request id: ${id})`;
  if (status === 401) return `无效的令牌 (request id: ${id})`;
  if (status === 402 || status === 403) return `用户额度不足, 剩余额度: ＄0.000000 (request id: ${id})`;
  return `上游服务错误，状态码 ${status} (request id: ${id})`;
}

/** An HTML error page of a CDN in front of the gateway. */
function htmlPage(status: number): string {
  const title = status === 524 ? 'A timeout occurred' : status === 502 ? 'Bad gateway' : 'Error';
  return [
    '<!DOCTYPE html>',
    `<html lang="en"><head><meta charset="utf-8"><title>127.0.0.1 | ${status}: ${title}</title></head>`,
    `<body><div id="cf-error-details"><h1><span>Error code ${status}</span> ${title}</h1>`,
    '<p>The origin web server did not answer in time.</p></div></body></html>',
  ].join('\n');
}

/** Content type and body of an error in a dialect (body undefined for `empty`). */
export function errorBody(
  status: number,
  dialect: Dialect,
  model = 'the requested model',
): { contentType?: string; body?: string } {
  const base = openAiError(status, model);
  const json = (value: unknown): { contentType: string; body: string } => ({
    contentType: 'application/json',
    body: JSON.stringify(value),
  });
  switch (dialect) {
    case 'openai':
      return json({ error: { message: base.message, type: base.type, param: null, code: base.code } });
    case 'openrouter': {
      const message =
        status === 402
          ? 'Insufficient credits. Add more using https://example.invalid/credits'
          : base.message;
      const metadata =
        status >= 500 || status === 429 ? { provider_name: 'Emulator', raw: base.message } : undefined;
      return json({
        error: { code: status, message, ...(metadata ? { metadata } : {}) },
        user_id: 'user_emulator',
      });
    }
    case 'litellm': {
      const exception = LITELLM_EXCEPTIONS[status] ?? 'APIError';
      return json({
        error: {
          message: `litellm.${exception}: ${exception}: ${base.message}`,
          type: null,
          param: null,
          code: String(status),
        },
      });
    }
    case 'vllm':
      return json({
        object: 'error',
        message: base.message,
        type: status >= 500 ? 'InternalServerError' : 'BadRequestError',
        param: null,
        code: status,
      });
    case 'ollama':
      return json({
        error: status === 404 ? `model "${model}" not found, try pulling it first` : base.message,
      });
    case 'anthropic': {
      const type = ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
      const message = type === 'overloaded_error' ? 'Overloaded' : base.message;
      return json({ type: 'error', error: { type, message } });
    }
    case 'reseller':
      return json({
        error: { message: resellerMessage(status, model), type: 'new_api_error', param: '', code: '' },
      });
    case 'html':
      return { contentType: 'text/html; charset=UTF-8', body: htmlPage(status) };
    case 'empty':
      return {};
  }
}

/** Retry-After style headers asked for by the retry-after faults, plus rate-limit headers on a 429. */
export function retryHeaders(status: number, faults: FaultSet): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const seconds = faults.arg('retry-after');
  if (seconds !== undefined) headers['Retry-After'] = seconds;
  const ms = faults.arg('retry-after-ms');
  if (ms !== undefined) headers['retry-after-ms'] = ms;
  const ahead = faults.num('retry-after-date');
  if (ahead !== undefined) headers['Retry-After'] = new Date(Date.now() + ahead * 1000).toUTCString();
  if (status === 429) {
    headers['x-ratelimit-limit-requests'] = '60';
    headers['x-ratelimit-remaining-requests'] = '0';
    if (seconds !== undefined) headers['x-ratelimit-reset-requests'] = `${seconds}s`;
  }
  return headers;
}

/** Sends a failure before any stream: status, dialect body, retry headers and the request id. */
export function sendError(
  ex: Exchange,
  status: number,
  dialect: Dialect,
  faults: FaultSet,
  model?: string,
): void {
  const { contentType, body } = errorBody(status, dialect, model);
  const headers: OutgoingHttpHeaders = { ...retryHeaders(status, faults), ...requestIdHeader(faults) };
  if (contentType) headers['Content-Type'] = contentType;
  ex.send(status, headers, body);
}

/** The `x-request-id` header of a `request-id:<id>` fault. */
export function requestIdHeader(faults: FaultSet): OutgoingHttpHeaders {
  const id = faults.get('request-id')?.args.join(':');
  return id ? { 'x-request-id': id } : {};
}

/** A 400 for requests the emulator cannot serve (bad body, unknown fault), so test mistakes surface. */
export function sendEmulatorError(ex: Exchange, status: number, message: string): void {
  ex.json(status, {
    error: {
      message: `emulator: ${message}`,
      type: 'invalid_request_error',
      param: null,
      code: 'emulator_error',
    },
  });
}
