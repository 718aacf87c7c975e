/** The one factory that turns an HTTP status, headers and body into a typed GatewayError. */

import * as l10n from '@vscode/l10n';
import { parseErrorBody, tidy } from './errorBody';
import {
  AuthError,
  BadRequestError,
  ContextLengthError,
  GatewayError,
  type GatewayErrorInit,
  ImageError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  RequestTooLargeError,
  ServerError,
  redactError,
  redactSecret,
} from './errors';
import { isRetryableStatus, parseRetryAfter } from './retry';

export type HeaderMap = Record<string, string | string[] | undefined>;

interface HttpErrorInput {
  status: number;
  headers: HeaderMap;
  body: string;
  /** The requested model, named in "unknown model" messages. */
  model?: string;
  /** The API key, scrubbed from everything derived from the response. */
  secret?: string;
  /** `image_download` when the failing request fetched an image link rather than calling the API. */
  context?: 'api' | 'image_download';
}

// Messages in the display language through @vscode/l10n, which the host configures with its bundle
// (host/pureL10n.ts); unconfigured (unit tests, tools) they are English.
const setKey = (): string => l10n.t("Run 'Model Gateway: Set API Key'.");
const selectModel = (): string => l10n.t("Run 'Model Gateway: Select Model' to choose another.");
const orSelectModel = (): string => l10n.t("or run 'Model Gateway: Select Model' to choose another.");
const shorten = (): string => l10n.t('Start a new chat or remove older turns, then try again.');

/** First value of a header, whatever its casing in the map. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Request id from the headers servers and CDNs use for it. */
export function requestIdFrom(headers: HeaderMap): string | undefined {
  for (const name of [
    'x-request-id',
    'request-id',
    'x-amzn-requestid',
    'x-amz-request-id',
    'openai-request-id',
  ]) {
    const value = headerValue(headers, name)?.trim();
    if (value) return value.slice(0, 200);
  }
  const ray = headerValue(headers, 'cf-ray')?.trim();
  return ray ? `cf-ray ${ray.slice(0, 100)}` : undefined;
}

function seconds(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s >= 120 ? l10n.t('{0} minutes', Math.ceil(s / 60)) : l10n.t('{0} s', s);
}

function isContextLength(code: string | undefined, message: string | undefined): boolean {
  if (code === 'context_length_exceeded' || code === 'string_above_max_length') return true;
  return /context (length|window)|maximum context|too many tokens|prompt is too long|input is too long|context_length/i.test(
    message ?? '',
  );
}

function isModelMissing(code: string | undefined, message: string | undefined): boolean {
  if (code === 'model_not_found') return true;
  return /model\b.*\b(not found|does not exist|not exist|not supported|unknown)|no available channel|无可用渠道|unknown model|模型.*(不存在|不可用)/i.test(
    message ?? '',
  );
}

function isQuota(code: string | undefined, type: string | undefined, message: string | undefined): boolean {
  if (code === 'insufficient_quota' || type === 'insufficient_quota') return true;
  return /quota|spend(ing)? limit|billing|credit|balance|余额|额度/i.test(message ?? '');
}

/** Builds the typed error for a non-2xx response. */
export function createHttpError(input: HttpErrorInput): GatewayError {
  const { status, headers, secret } = input;
  const contentType = headerValue(headers, 'content-type');
  const info = parseErrorBody(redactSecret(input.body, secret), contentType);
  const code = info.code;
  const type = info.type;
  const retryAfterMs = parseRetryAfter(headers);
  const said = info.html
    ? info.message
      ? l10n.t('an HTML error page titled "{0}" (from a proxy or CDN)', info.message)
      : l10n.t('an HTML error page (from a proxy or CDN)')
    : info.message;
  const init: GatewayErrorInit = {
    status,
    code,
    type,
    requestId: redactSecret(requestIdFrom(headers) ?? info.requestId, secret),
    retryAfterMs,
    gatewayMessage: said,
  };
  const compose = (advice: string): string => (said ? l10n.t('{0} Gateway said: {1}', advice, said) : advice);
  const model = input.model ? `'${tidy(input.model, 120)}'` : l10n.t('the selected model');

  if (input.context === 'image_download') {
    const expired = status === 403 || status === 404 || status === 410;
    return redactError(
      new ImageError(
        expired ? 'expired' : 'download_failed',
        expired
          ? l10n.t(
              'The image link has expired or is not accessible ({0}). Generate the image again; the b64_json response format avoids expiring links.',
              status,
            )
          : l10n.t('Downloading the generated image failed ({0}). Try generating it again.', status),
        { ...init, gatewayMessage: undefined, retryable: false },
      ),
      secret,
    );
  }

  let error: GatewayError;
  if (status === 401) {
    error = new AuthError(compose(l10n.t('The gateway rejected the API key (401). {0}', setKey())), init);
  } else if (status === 403) {
    error = new AuthError(
      compose(
        l10n.t(
          'The gateway refused access (403): the API key may be invalid or not allowed to use {0}. {1}',
          model,
          setKey(),
        ),
      ),
      init,
    );
  } else if (status === 402) {
    error = new PaymentRequiredError(
      compose(
        l10n.t(
          'The gateway account has no credits left (402). Top up or check billing with your gateway provider.',
        ),
      ),
      init,
    );
  } else if (status === 404) {
    const advice = isModelMissing(code, info.message)
      ? l10n.t('The gateway does not offer the model {0} (404). {1}', model, selectModel())
      : said
        ? l10n.t(
            'The gateway has nothing at this address (404). Check the base URL setting: it should be the server root, with or without /v1.',
          )
        : l10n.t(
            'The gateway answered 404: either {0} does not exist there or the base URL is wrong. Check the base URL setting (server root, with or without /v1), {1}',
            model,
            orSelectModel(),
          );
    error = new NotFoundError(compose(advice), init);
  } else if (status === 400 || status === 422) {
    if (isContextLength(code, info.message)) {
      error = new ContextLengthError(
        compose(l10n.t("The conversation is too long for the model's context window. {0}", shorten())),
        init,
      );
    } else if (isModelMissing(code, info.message)) {
      error = new BadRequestError(
        compose(l10n.t('The gateway does not offer the model {0}. {1}', model, selectModel())),
        init,
      );
    } else {
      error = new BadRequestError(
        compose(
          l10n.t('The gateway rejected the request ({0}). Check the model and request settings.', status),
        ),
        init,
      );
    }
  } else if (status === 413) {
    error = new RequestTooLargeError(
      compose(l10n.t('The request is too large for the gateway (413). {0}', shorten())),
      init,
    );
  } else if (status === 429) {
    const quota = retryAfterMs === undefined && isQuota(code, type, info.message);
    error = new RateLimitError(
      compose(
        quota
          ? l10n.t(
              'The account has used up its quota or spend limit (429). Check your plan or billing with your gateway provider.',
            )
          : retryAfterMs !== undefined
            ? l10n.t(
                'The gateway is rate-limiting requests (429). Wait {0} and try again.',
                seconds(retryAfterMs),
              )
            : l10n.t('The gateway is rate-limiting requests (429). Wait a moment and try again.'),
      ),
      { ...init, retryable: !quota },
    );
  } else if (status >= 500) {
    error = new ServerError(compose(serverAdvice(status, type, info.message, model)), {
      ...init,
      retryable: isRetryableStatus(status),
    });
  } else if (status >= 300 && status < 400) {
    const location = headerValue(headers, 'location');
    let where = '';
    try {
      if (location) where = new URL(location, 'http://invalid').origin;
    } catch {
      where = '';
    }
    error = new GatewayError(
      'http',
      where
        ? l10n.t(
            'The gateway redirected the request to {0} ({1}). Update the base URL setting to the new address.',
            where,
            status,
          )
        : l10n.t(
            'The gateway redirected the request ({0}). Update the base URL setting to the new address.',
            status,
          ),
      init,
    );
  } else {
    error = new GatewayError(
      'http',
      compose(l10n.t('The gateway answered with an unexpected status {0}.', status)),
      {
        ...init,
        retryable: isRetryableStatus(status),
      },
    );
  }
  return redactError(error, secret);
}

function serverAdvice(
  status: number,
  type: string | undefined,
  message: string | undefined,
  model: string,
): string {
  if (status === 529 || type === 'overloaded_error') {
    return l10n.t('The model is overloaded right now ({0}). Try again in a moment.', status);
  }
  if (/no available channel|无可用渠道/i.test(message ?? '')) {
    return l10n.t(
      'The gateway has no available channel for {0} right now ({1}). Try again later, {2}',
      model,
      status,
      orSelectModel(),
    );
  }
  if (status === 502 || status === 503 || status === 504 || (status >= 520 && status <= 524)) {
    return l10n.t(
      'The gateway or a proxy in front of it is unavailable or timed out ({0}). Try again in a moment.',
      status,
    );
  }
  return l10n.t('The gateway had an internal error ({0}). Try again in a moment.', status);
}
