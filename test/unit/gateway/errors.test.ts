import * as assert from 'node:assert/strict';
import { parseErrorBody } from '../../../src/gateway/errorBody';
import { createHttpError, requestIdFrom } from '../../../src/gateway/errorFactory';
import {
  AuthError,
  BadRequestError,
  ContextLengthError,
  GatewayError,
  ImageError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  RequestTooLargeError,
  ServerError,
  isGatewayError,
} from '../../../src/gateway/errors';
import { KEY, assertNoKey } from './helpers';

function err(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  model = 'alpha-opus-4-20250514',
): GatewayError {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return createHttpError({ status, headers, body: text, model, secret: KEY });
}

describe('gateway/errors: message extraction from every body shape', () => {
  const shapes: Array<
    [string, string, string | undefined, { message?: string; code?: string; type?: string }]
  > = [
    [
      'OpenAI',
      JSON.stringify({
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      }),
      undefined,
      { message: 'Incorrect API key provided', code: 'invalid_api_key', type: 'invalid_request_error' },
    ],
    [
      'OpenAI with null code',
      JSON.stringify({ error: { message: 'm', type: 't', code: null } }),
      undefined,
      { message: 'm', type: 't' },
    ],
    [
      'OpenAI with empty code',
      JSON.stringify({ error: { message: 'm', code: '' } }),
      undefined,
      { message: 'm' },
    ],
    [
      'OpenRouter numeric code + metadata',
      JSON.stringify({
        error: { code: 402, message: 'Insufficient credits', metadata: { provider_name: 'Acme' } },
      }),
      undefined,
      { message: 'Insufficient credits (provider: Acme)', code: '402' },
    ],
    [
      'LiteLLM string code + exception prefix',
      JSON.stringify({
        error: {
          message:
            'litellm.RateLimitError: RateLimitError: OpenAIException - Rate limit reached for requests',
          type: null,
          param: null,
          code: '429',
        },
      }),
      undefined,
      { message: 'Rate limit reached for requests', code: '429' },
    ],
    [
      'vLLM flat',
      JSON.stringify({
        object: 'error',
        message: 'This model has a maximum context length of 4096',
        type: 'BadRequestError',
        param: null,
        code: 400,
      }),
      undefined,
      { message: 'This model has a maximum context length of 4096', code: '400', type: 'BadRequestError' },
    ],
    [
      'Ollama native',
      JSON.stringify({ error: "model 'x' not found" }),
      undefined,
      { message: "model 'x' not found" },
    ],
    [
      'Anthropic',
      JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      undefined,
      { message: 'Overloaded', type: 'overloaded_error' },
    ],
    [
      'reseller (Chinese, request id suffix)',
      JSON.stringify({
        error: {
          message: '当前分组上游负载已饱和，请稍后再试 (request id: 20250101123456789abc)',
          type: 'new_api_error',
        },
      }),
      undefined,
      { message: '当前分组上游负载已饱和，请稍后再试', type: 'new_api_error' },
    ],
    [
      'message is an object',
      JSON.stringify({ error: { message: { detail: 'nested' } } }),
      undefined,
      { message: '{"detail":"nested"}' },
    ],
    [
      'FastAPI detail list',
      JSON.stringify({ detail: [{ msg: 'field required' }] }),
      undefined,
      { message: 'field required' },
    ],
    ['plain text', 'upstream connect error', 'text/plain', { message: 'upstream connect error' }],
  ];
  for (const [name, body, type, expected] of shapes) {
    it(name, () => {
      const info = parseErrorBody(body, type);
      assert.equal(info.message, expected.message);
      assert.equal(info.code, expected.code);
      assert.equal(info.type, expected.type);
    });
  }

  it('takes the reseller request id from the message suffix', () => {
    const e = err(503, {
      error: { message: 'No available channel for model x under group default (request id: abc123)' },
    });
    assert.equal(e.requestId, 'abc123');
    assert.doesNotMatch(e.message, /request id/);
    assert.match(e.message, /no available channel/i);
  });

  it('summarises an HTML page instead of quoting it', () => {
    const html =
      '<!DOCTYPE html><html><head><title>example.com | 524: A timeout occurred</title><style>x{}</style></head><body><h1>524</h1><script>evil()</script></body></html>';
    const e = err(524, html, { 'content-type': 'text/html' });
    assert.ok(e instanceof ServerError);
    assert.doesNotMatch(e.message, /<|script|DOCTYPE/i);
    assert.match(e.message, /524: A timeout occurred/);
    assert.equal(e.retryable, true);
  });

  it('copes with an empty body', () => {
    const e = err(502, '');
    assert.ok(e instanceof ServerError);
    assert.match(e.message, /502/);
    assert.doesNotMatch(e.message, /Gateway said/);
  });

  it('truncates long messages and never prints [object Object]', () => {
    const e = err(400, { error: { message: 'x'.repeat(10_000), code: { weird: true } } });
    assert.ok(e.message.length < 600, String(e.message.length));
    assert.doesNotMatch(e.message, /\[object Object\]/);
  });
});

describe('gateway/errors: status mapping and advice', () => {
  it('401 → AuthError telling the user to set the key', () => {
    const e = err(401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } });
    assert.ok(e instanceof AuthError && e.kind === 'auth' && !e.retryable);
    assert.match(
      e.message,
      /^The gateway rejected the API key \(401\)\. Run 'Model Gateway: Set API Key'\. Gateway said: Incorrect API key provided$/,
    );
  });

  it('403 → AuthError', () => assert.ok(err(403, '') instanceof AuthError));

  it('404 model_not_found names the model and suggests Select Model', () => {
    const e = err(404, { error: { message: 'The model does not exist', code: 'model_not_found' } });
    assert.ok(e instanceof NotFoundError && e.kind === 'not_found');
    assert.match(e.message, /'alpha-opus-4-20250514'/);
    assert.match(e.message, /Model Gateway: Select Model/);
  });

  it('404 without a model hint points at the base URL', () => {
    assert.match(err(404, 'Not Found', { 'content-type': 'text/plain' }).message, /base URL/);
  });

  it('400/422 → BadRequestError; context length → ContextLengthError with advice', () => {
    assert.ok(err(422, { detail: 'bad' }) instanceof BadRequestError);
    const e = err(400, {
      error: {
        message: "This model's maximum context length is 200000 tokens",
        code: 'context_length_exceeded',
      },
    });
    assert.ok(e instanceof ContextLengthError && e instanceof BadRequestError);
    assert.equal(e.kind, 'context_length');
    assert.match(e.message, /new chat|older turns/);
    const flat = err(400, {
      object: 'error',
      message: 'This model has a maximum context length of 4096 tokens',
      code: 400,
    });
    assert.ok(flat instanceof ContextLengthError);
  });

  it('413 → RequestTooLargeError', () => {
    const e = err(413, {
      type: 'error',
      error: { type: 'request_too_large', message: 'Request exceeds the maximum size' },
    });
    assert.ok(e instanceof RequestTooLargeError && e.kind === 'request_too_large');
  });

  it('402 → PaymentRequiredError', () => {
    const e = err(402, { error: { code: 402, message: 'Insufficient credits' } });
    assert.ok(e instanceof PaymentRequiredError && !e.retryable);
  });

  it('429 with Retry-After is retryable and mentions the wait', () => {
    const e = err(
      429,
      { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } },
      { 'retry-after': '7' },
    );
    assert.ok(e instanceof RateLimitError && e.retryable);
    assert.equal(e.retryAfterMs, 7000);
    assert.match(e.message, /Wait 7 s/);
  });

  it('429 insufficient_quota / spend limit without Retry-After is not retryable', () => {
    const quota = err(429, {
      error: { message: 'You exceeded your current quota', code: 'insufficient_quota' },
    });
    assert.ok(quota instanceof RateLimitError && !quota.retryable);
    assert.match(quota.message, /quota|spend limit/);
    assert.equal(err(429, { error: { message: 'Monthly spend limit reached' } }).retryable, false);
    assert.equal(err(429, { error: { message: 'Too many requests' } }).retryable, true);
  });

  it('5xx and 529 → ServerError, retryable; 529 says overloaded', () => {
    for (const status of [500, 502, 503, 504, 524]) assert.ok(err(status, '').retryable, String(status));
    const e = err(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    assert.ok(e instanceof ServerError);
    assert.match(e.message, /overloaded/);
  });

  it('408 and 409 are retryable generic HTTP errors', () => {
    assert.equal(err(408, '').kind, 'http');
    assert.ok(err(408, '').retryable && err(409, '').retryable);
    assert.equal(err(418, '').retryable, false);
  });

  it('image link failures get image wording, not API-key wording', () => {
    const e = createHttpError({
      status: 403,
      headers: {},
      body: 'AccessDenied',
      context: 'image_download',
      secret: KEY,
    });
    assert.ok(e instanceof ImageError && e.reason === 'expired');
    assert.doesNotMatch(e.message, /API key/);
  });

  it('reads request ids from the usual headers', () => {
    assert.equal(requestIdFrom({ 'x-request-id': 'a' }), 'a');
    assert.equal(requestIdFrom({ 'request-id': 'b' }), 'b');
    assert.equal(requestIdFrom({ 'x-amzn-requestid': 'c' }), 'c');
    assert.equal(requestIdFrom({ 'cf-ray': 'd' }), 'cf-ray d');
    assert.equal(err(500, '', { 'x-request-id': 'req_1' }).requestId, 'req_1');
  });

  it('scrubs the key from everything derived from a hostile body or header', () => {
    const e = err(
      400,
      { error: { message: `Your key ${KEY} is bad`, code: KEY, type: KEY } },
      { 'x-request-id': `id-${KEY}` },
    );
    assertNoKey(e);
    assert.match(e.message, /\[redacted\]/);
  });

  it('isGatewayError recognises the hierarchy only', () => {
    assert.ok(isGatewayError(err(500, '')));
    assert.ok(!isGatewayError(new Error('x')));
    assert.ok(!isGatewayError({ kind: 'auth' }));
  });
});
