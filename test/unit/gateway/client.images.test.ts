import * as assert from 'node:assert/strict';
import { ImageError, MalformedResponseError, RateLimitError } from '../../../src/gateway/errors';
import type { GatewayClientOptions, ImageGenerationRequest } from '../../../src/gateway/types';
import type { Emulator } from '../../gateway-emulator';
import { KEY, assertNoKey, logSink, rejection, tinyServer, until } from './helpers';
import { useEmulatorClients } from '../../support/emulatorClients';
import { pngSize } from '../../support/pngInfo';

const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

describe('gateway client: images', function () {
  this.timeout(30_000);
  const gw = useEmulatorClients(KEY);

  function gen(
    prompt: string,
    extra: Partial<ImageGenerationRequest> = {},
    options: Partial<GatewayClientOptions> = {},
  ) {
    return gw.client(options).generateImages({ prompt, size: '1024x1024', ...extra });
  }
  const downloads = (): Emulator['requests'] =>
    gw.emulator.requests.filter((r) => r.path.startsWith('/files/'));

  it('b64_json: decodes real PNG bytes of the requested size with the revised prompt', async () => {
    const result = await gen('a red fox', { response_format: 'b64_json', size: '1536x1024', n: 2 });
    assert.equal(result.images.length, 2);
    for (const image of result.images) {
      assert.equal(image.format, 'png');
      assert.deepEqual(pngSize(image.bytes), { width: 1536, height: 1024 });
      assert.equal(image.revisedPrompt, 'A detailed rendering of: a red fox');
      assert.equal(image.sourceUrl, undefined);
    }
    assert.ok(result.created > 0);
    const body = gw.emulator.requests[0].body as Record<string, unknown>;
    assert.deepEqual(body, {
      model: 'beta-image-2',
      prompt: 'a red fox',
      n: 2,
      size: '1536x1024',
      response_format: 'b64_json',
    });
    assert.equal(gw.emulator.requests[0].headers.authorization, `Bearer ${KEY}`);
  });

  it('url: downloads at once from the gateway origin, with the key', async () => {
    const log = logSink();
    const result = await gen('a blue bird', { response_format: 'url' }, { onRequestLog: log.onRequestLog });
    const [image] = result.images;
    assert.equal(image.format, 'png');
    assert.deepEqual(pngSize(image.bytes), { width: 1024, height: 1024 });
    assert.match(String(image.sourceUrl), /^http:\/\/127\.0\.0\.1:\d+\/files\//);
    assert.equal(downloads().length, 1);
    assert.equal(downloads()[0].headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(
      log.entries.map((e) => [e.method, e.status]),
      [
        ['POST', 200],
        ['GET', 200],
      ],
    );
  });

  it('never sends the key to another origin', async () => {
    const result = await gen('[[fault:image-url-cross-origin]]', { response_format: 'url' });
    assert.match(String(result.images[0].sourceUrl), /^http:\/\/localhost:/);
    assert.equal(downloads().length, 1);
    assert.equal(downloads()[0].headers.authorization, undefined);
  });

  it('follows up to 3 redirects and refuses a 4th', async () => {
    const ok = await gen('[[fault:image-url-redirect:3]]', { response_format: 'url' });
    assert.equal(ok.images[0].format, 'png');
    assert.equal(downloads().length, 4);
    gw.emulator.reset();
    const error = await rejection(gen('[[fault:image-url-redirect:4]]', { response_format: 'url' }));
    assert.ok(error instanceof ImageError && error.reason === 'too_many_redirects', String(error));
    assert.equal(downloads().length, 4);
  });

  it('strips the key when a redirect leaves the gateway origin, re-checking every hop', async () => {
    const other = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG_BYTES);
    }, '127.0.0.1');
    const gateway = await tinyServer((req, res) => {
      if (req.url === '/v1/images/generations') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ created: 1, data: [{ url: `${gateway.origin}/img/a.png?sig=1` }] }));
      } else if (req.url?.startsWith('/img/a.png')) {
        res.writeHead(302, { location: `${other.origin}/elsewhere.png` });
        res.end();
      }
    }, 'localhost');
    try {
      const client = gw.client({ baseUrl: gateway.url });
      const result = await client.generateImages({ prompt: 'x' });
      assert.equal(result.images[0].format, 'png');
      assert.equal(gateway.requests[1].headers.authorization, `Bearer ${KEY}`);
      assert.equal(other.requests.length, 1);
      assert.equal(other.requests[0].headers.authorization, undefined);
    } finally {
      await other.close();
      await gateway.close();
    }
  });

  it('refuses links that are not http(s) or serve something other than an image', async () => {
    const html = await rejection(gen('[[fault:image-url-html]]', { response_format: 'url' }));
    assert.ok(html instanceof ImageError && html.reason === 'not_image');
    assert.match(html.message, /text\/html/);
    const gateway = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ url: 'file:///etc/passwd' }] }));
    });
    try {
      const error = await rejection(gw.client({ baseUrl: gateway.url }).generateImages({ prompt: 'x' }));
      assert.ok(error instanceof ImageError && error.reason === 'unsupported_url');
    } finally {
      await gateway.close();
    }
  });

  it('an expired link is an ImageError that says so', async () => {
    const error = await rejection(gen('[[fault:image-url-expired]]', { response_format: 'url' }));
    assert.ok(error instanceof ImageError && error.reason === 'expired');
    assert.match(error.message, /expired/);
    assert.doesNotMatch(error.message, /API key/);
  });

  it('accepts b64_json when a url was asked for, and a data: URI prefix', async () => {
    const b64 = await gen('[[fault:image-b64-for-url]]', { response_format: 'url' });
    assert.equal(b64.images[0].format, 'png');
    assert.equal(downloads().length, 0);
    const dataUri = await gen('[[fault:image-data-uri]]', { response_format: 'b64_json' });
    assert.equal(dataUri.images[0].format, 'png');
    assert.deepEqual(pngSize(dataUri.images[0].bytes), { width: 1024, height: 1024 });
  });

  it('detects JPEG and WebP from the bytes, whatever was asked', async () => {
    for (const [fault, format] of [
      ['image-jpeg', 'jpeg'],
      ['image-webp', 'webp'],
    ]) {
      for (const response_format of ['url', 'b64_json'] as const) {
        const result = await gen(`[[fault:${fault}]]`, { response_format });
        assert.equal(result.images[0].format, format, `${fault} ${response_format}`);
      }
    }
  });

  it('omits revisedPrompt when the gateway does', async () => {
    const result = await gen('[[fault:image-no-revised]]', { response_format: 'b64_json' });
    assert.equal(result.images[0].revisedPrompt, undefined);
  });

  it('enforces maxImageBytes on downloads and on decoded base64', async () => {
    for (const response_format of ['url', 'b64_json'] as const) {
      const error = await rejection(
        gen('[[fault:image-noise]]', { response_format }, { maxImageBytes: 100_000 }),
      );
      assert.ok(
        error instanceof ImageError && error.reason === 'too_large',
        `${response_format}: ${String(error)}`,
      );
    }
    const streamed = await tinyServer((req, res) => {
      if (req.url === '/v1/images/generations') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ url: `${streamed.origin}/big` }] }));
        return;
      }
      // No content-length: the cap must hold while reading.
      res.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
      res.write(PNG_BYTES);
      const timer = setInterval(() => res.write(Buffer.alloc(16_384)), 5);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const error = await rejection(
        gw.client({ baseUrl: streamed.url, maxImageBytes: 200_000 }).generateImages({ prompt: 'x' }),
      );
      assert.ok(error instanceof ImageError && error.reason === 'too_large');
      await until(() => streamed.closed >= 1, 3000, 'the download to be cut off');
    } finally {
      await streamed.close();
    }
  });

  it('handles a 4096x4096 image (tens of MB of base64 with noise)', async function () {
    this.timeout(60_000);
    const result = await gen('[[fault:image-noise]]', { response_format: 'b64_json', size: '4096x4096' });
    assert.deepEqual(pngSize(result.images[0].bytes), { width: 4096, height: 4096 });
    assert.ok(result.images[0].bytes.length > 40_000_000);
  });

  it('waits for slow generation (image-delay) and reports errors with their class', async () => {
    const slow = await gen('[[fault:image-delay:300]]', { response_format: 'b64_json' });
    assert.equal(slow.images.length, 1);
    const limited = await rejection(gen('[[fault:status:429,retry-after:600]]'));
    assert.ok(limited instanceof RateLimitError);
    assertNoKey(limited);
  });

  it('rejects answers without images', async () => {
    const gateway = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ created: 1, data: [] }));
    });
    try {
      assert.ok(
        (await rejection(gw.client({ baseUrl: gateway.url }).generateImages({ prompt: 'x' }))) instanceof
          MalformedResponseError,
      );
    } finally {
      await gateway.close();
    }
  });
});
