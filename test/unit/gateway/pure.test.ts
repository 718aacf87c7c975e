import * as assert from 'node:assert/strict';
import { endpointUrl, normaliseBaseUrl } from '../../../src/gateway/baseUrl';
import { DEFAULT_USER_AGENT, resolveRetry, resolveTimeouts } from '../../../src/gateway/config';
import { ValidationError } from '../../../src/gateway/errors';
import { detectImageFormat } from '../../../src/gateway/imageFormat';
import { decodeBase64Image } from '../../../src/gateway/images';
import {
  CONTEXT_TOKENS,
  IMAGE_MODELS,
  TEXT_MODELS,
  findImageModel,
  findModel,
  isThinkingModel,
  listChatModels,
} from '../../../src/gateway/models';
import { backoffDelay, parseRetryAfter, sleep } from '../../../src/gateway/retry';
import { validateChatRequest, validateImageRequest } from '../../../src/gateway/validate';
import type { ChatCompletionRequest, ImageGenerationRequest } from '../../../src/gateway/types';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('gateway/models', () => {
  it('has the eight text models and the image model of the spec', () => {
    assert.equal(TEXT_MODELS.length, 8);
    assert.deepEqual(
      TEXT_MODELS.filter((m) => m.thinking).map((m) => m.id),
      ['alpha-sonnet-4-5-20250929-thinking', 'alpha-sonnet-4-20250514-thinking'],
    );
    assert.ok(TEXT_MODELS.every((m) => m.contextTokens === CONTEXT_TOKENS && m.contextTokens === 200_000));
    assert.ok(TEXT_MODELS.every((m) => m.maxOutputTokens > 0 && m.note && m.group));
    assert.deepEqual([...new Set(TEXT_MODELS.map((m) => m.group))], ['4.5', '4', '3.5']);
    assert.equal(IMAGE_MODELS[0].id, 'beta-image-2');
    assert.equal(findImageModel('beta-image-2')?.id, 'beta-image-2');
  });

  it('finds models and recognises thinking ids, including extra ones', () => {
    assert.equal(findModel(' alpha-haiku-3-5-20241022 ')?.group, '3.5');
    assert.equal(findModel('nope'), undefined);
    assert.ok(isThinkingModel('my-own-model-thinking'));
    assert.ok(!isThinkingModel('alpha-opus-4-20250514'));
  });

  it('merges extra ids: trimmed, deduplicated, empties ignored, marked extra', () => {
    const list = listChatModels([
      ' custom-a ',
      '',
      '   ',
      'custom-a',
      'alpha-opus-4-20250514',
      'r1-thinking',
    ]);
    assert.equal(list.length, 10);
    const extras = list.filter((m) => m.extra);
    assert.deepEqual(
      extras.map((m) => [m.id, m.thinking]),
      [
        ['custom-a', false],
        ['r1-thinking', true],
      ],
    );
    assert.ok(!list.find((m) => m.id === 'alpha-opus-4-20250514')?.extra);
  });
});

describe('gateway/baseUrl', () => {
  const cases: Array<[string, string]> = [
    ['http://h:1', 'http://h:1/v1/chat/completions'],
    ['http://h:1/', 'http://h:1/v1/chat/completions'],
    ['http://h:1/v1', 'http://h:1/v1/chat/completions'],
    ['http://h:1/v1/', 'http://h:1/v1/chat/completions'],
    ['  https://h/api/v1//  ', 'https://h/api/v1/chat/completions'],
    ['https://h/api', 'https://h/api/v1/chat/completions'],
  ];
  for (const [input, expected] of cases) {
    it(`normalises ${JSON.stringify(input)}`, () => {
      const base = normaliseBaseUrl(input);
      assert.ok(!('problem' in base));
      assert.equal(endpointUrl(base, '/v1/chat/completions').href, expected);
    });
  }
  it('reports unusable base URLs', () => {
    for (const bad of ['', 'not a url', 'ftp://h', 'http://user:pw@h']) {
      assert.ok('problem' in normaliseBaseUrl(bad), bad);
    }
  });
});

describe('gateway/validate', () => {
  const ok: ChatCompletionRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
  const bad: Array<[string, Partial<ChatCompletionRequest> | Record<string, unknown>]> = [
    ['empty model', { model: ' ' }],
    ['no messages', { messages: [] }],
    ['bad role', { messages: [{ role: 'tool', content: 'x' }] }],
    ['non-string content', { messages: [{ role: 'user', content: 5 }] }],
    ['temperature > 2', { temperature: 2.5 }],
    ['temperature NaN', { temperature: Number.NaN }],
    ['top_p > 1', { top_p: 1.1 }],
    ['top_p < 0', { top_p: -0.1 }],
    ['max_tokens 0', { max_tokens: 0 }],
    ['max_tokens fraction', { max_tokens: 1.5 }],
    ['stop number', { stop: 5 }],
    ['stop array with number', { stop: ['a', 1] }],
  ];
  for (const [name, patch] of bad) {
    it(`rejects ${name}`, () => {
      assert.throws(() => validateChatRequest({ ...ok, ...patch } as ChatCompletionRequest), ValidationError);
    });
  }
  it('accepts edge values', () => {
    validateChatRequest({ ...ok, temperature: 0, top_p: 1, max_tokens: 1, stop: ['a', 'b'] });
    validateChatRequest({ ...ok, temperature: 2, top_p: 0, stop: 'END' });
  });

  const img: ImageGenerationRequest = { prompt: 'a cat' };
  const badImages: Array<[string, Record<string, unknown>]> = [
    ['empty prompt', { prompt: '  ' }],
    ['n 0', { n: 0 }],
    ['n 5', { n: 5 }],
    ['n 1.5', { n: 1.5 }],
    ['size', { size: '512x512' }],
    ['quality', { quality: 'ultra' }],
    ['response_format', { response_format: 'base64' }],
    ['empty model', { model: '' }],
  ];
  for (const [name, patch] of badImages) {
    it(`rejects image ${name}`, () => {
      assert.throws(
        () => validateImageRequest({ ...img, ...patch } as ImageGenerationRequest),
        ValidationError,
      );
    });
  }
  it('accepts every listed size, quality and format', () => {
    for (const size of ['1024x1024', '1536x1024', '1024x1536', '2048x2048', '4096x4096'] as const) {
      validateImageRequest({ ...img, size, n: 4, quality: 'low', response_format: 'b64_json' });
    }
  });
});

describe('gateway/imageFormat and base64 decoding', () => {
  it('detects png, jpeg and webp from magic bytes', () => {
    assert.equal(detectImageFormat(PNG), 'png');
    assert.equal(detectImageFormat(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0])), 'jpeg');
    assert.equal(detectImageFormat(new TextEncoder().encode('RIFF\x10\0\0\0WEBPVP8 ')), 'webp');
    assert.equal(detectImageFormat(new TextEncoder().encode('GIF89a')), undefined);
    assert.equal(detectImageFormat(new Uint8Array()), undefined);
  });

  it('decodes base64 with or without a data URI prefix, within the cap', () => {
    const b64 = Buffer.from(PNG).toString('base64');
    assert.deepEqual(decodeBase64Image(b64, 100), PNG);
    assert.deepEqual(decodeBase64Image(`data:image/png;base64,${b64}`, 100), PNG);
    assert.throws(() => decodeBase64Image(b64, 8), /larger than/);
  });
});

describe('gateway/retry and config', () => {
  it('parses Retry-After as seconds, fractions, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfter({ 'retry-after': '3' }, now), 3000);
    assert.equal(parseRetryAfter({ 'retry-after': '0.25' }, now), 250);
    assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, now), 10_000);
    assert.equal(parseRetryAfter({ 'retry-after': 'Tue, 31 Dec 2024 00:00:10 GMT' }, now), 0);
    assert.equal(parseRetryAfter({ 'retry-after-ms': '150', 'retry-after': '9' }, now), 150);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(parseRetryAfter({}, now), undefined);
  });

  it('backs off exponentially with jitter and a cap', () => {
    const options = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 60_000 };
    assert.equal(
      backoffDelay(1, options, () => 1),
      100,
    );
    assert.equal(
      backoffDelay(2, options, () => 1),
      200,
    );
    assert.equal(
      backoffDelay(3, options, () => 0),
      200,
    );
    assert.equal(
      backoffDelay(10, options, () => 1),
      1000,
    );
  });

  it('sleep is abortable', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await assert.rejects(sleeping, /stop/);
    assert.ok(Date.now() - started < 1000);
  });

  it('fills defaults: connect 15 s, first byte 300 s, idle 120 s, image ≥ 120 s, 2 retries', () => {
    assert.deepEqual(resolveTimeouts(), {
      connectMs: 15_000,
      firstByteMs: 300_000,
      idleMs: 120_000,
      imageFirstByteMs: 300_000,
    });
    assert.equal(resolveTimeouts({ imageFirstByteMs: 5_000 }).imageFirstByteMs, 120_000);
    assert.equal(resolveTimeouts({ idleMs: -1 }).idleMs, 120_000);
    assert.deepEqual(resolveRetry(), {
      maxRetries: 2,
      baseDelayMs: 500,
      maxDelayMs: 8000,
      maxRetryAfterMs: 60_000,
    });
    assert.equal(resolveRetry({ maxRetries: 0 }).maxRetries, 0);
    assert.match(DEFAULT_USER_AGENT, /^model-gateway-vscode\/\d+\.\d+\.\d+$/);
  });
});
