// The emulator's image endpoint and its url-form links.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { inflateSync } from 'node:zlib';
import { startEmulator, type Emulator } from '../../gateway-emulator/index';
import { KEY, pngSize, post, rawRequest } from './helpers';
import { sleep } from '../../support/poll';
import { useEmulatorPerTest } from '../../support/emulatorClients';

const IMAGES = '/v1/images/generations';

interface ImageAnswer {
  created: number;
  data: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
}

/** First pixel (RGB) of a filter-0 RGB PNG, read by inflating its IDAT chunks. */
function firstPixel(png: Buffer): number[] {
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('latin1') === 'IDAT')
      idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  assert.equal(raw[0], 0, 'filter type None');
  return [raw[1], raw[2], raw[3]];
}

describe('gateway emulator: images', () => {
  let emu: Emulator;
  useEmulatorPerTest((started) => (emu = started));

  const generate = async (body: Record<string, unknown>, fault?: string): Promise<ImageAnswer> => {
    const res = await post(emu.url, IMAGES, body, { fault });
    assert.equal(res.status, 200);
    return (await res.json()) as ImageAnswer;
  };

  it('returns real PNGs of every requested size as b64_json', async () => {
    for (const size of ['1024x1024', '1536x1024', '1024x1536', '2048x2048', '4096x4096']) {
      const started = Date.now();
      const answer = await generate({ prompt: `a cat ${size}`, size, response_format: 'b64_json' });
      const [w, h] = size.split('x').map(Number);
      const bytes = Buffer.from(answer.data[0].b64_json ?? '', 'base64');
      assert.deepEqual(pngSize(bytes), { width: w, height: h });
      assert.ok(Date.now() - started < 3000, `${size} took ${Date.now() - started} ms`);
      assert.equal(answer.data[0].revised_prompt, `A detailed rendering of: a cat ${size}`);
    }
  });

  it('colours depend on the prompt, and n images come back', async () => {
    const a = await generate({ prompt: 'red barn', n: 2, response_format: 'b64_json' });
    const b = await generate({ prompt: 'blue sea', response_format: 'b64_json' });
    const again = await generate({ prompt: 'red barn', response_format: 'b64_json' });
    assert.equal(a.data.length, 2);
    const pixel = (x: ImageAnswer, i = 0): number[] =>
      firstPixel(Buffer.from(x.data[i].b64_json ?? '', 'base64'));
    assert.notDeepEqual(pixel(a), pixel(b));
    assert.deepEqual(pixel(a), pixel(again));
  });

  it('serves url-form links at /files and records the download', async () => {
    const answer = await generate({ prompt: 'a tree', size: '1024x1536' });
    const url = answer.data[0].url ?? '';
    assert.match(url, new RegExp(`^${emu.url}/files/[0-9a-f]+\\.png$`));
    assert.equal(answer.data[0].b64_json, undefined);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), { width: 1024, height: 1536 });
    await emu.waitFor((r) => r.some((x) => x.path.startsWith('/files/') && x.responseEnded), 2000);
    const download = emu.requests.find((x) => x.path.startsWith('/files/'));
    assert.equal(download?.method, 'GET');
    assert.equal(download?.status, 200);
  });

  it('expires links after imageUrlTtlMs and for image-url-expired', async () => {
    const short = await startEmulator({ imageUrlTtlMs: 100 });
    try {
      const res = await post(short.url, IMAGES, { prompt: 'fleeting' });
      const url = ((await res.json()) as ImageAnswer).data[0].url ?? '';
      await sleep(150);
      const late = await fetch(url);
      assert.equal(late.status, 403);
      await late.text();
    } finally {
      await short.close();
    }
    const answer = await generate({ prompt: 'gone' }, 'image-url-expired');
    const res = await fetch(answer.data[0].url ?? '');
    assert.equal(res.status, 403);
    await res.text();
  });

  it('points cross-origin links at localhost, and the download carries no Authorization', async () => {
    const answer = await generate({ prompt: 'elsewhere [[fault:image-url-cross-origin]]' });
    const url = new URL(answer.data[0].url ?? '');
    assert.equal(url.hostname, 'localhost');
    assert.equal(Number(url.port), emu.port);
    // Connect to 127.0.0.1 but present the localhost origin, as a client following the link would.
    const result = await rawRequest({ port: emu.port, path: url.pathname, headers: { Host: url.host } });
    assert.equal(result.status, 200);
    const download = emu.requests.find((x) => x.path === url.pathname);
    assert.equal(download?.headers.host, url.host);
    assert.equal(download?.headers.authorization, undefined);
    const generation = emu.requests.find((x) => x.path === IMAGES);
    assert.equal(generation?.headers.authorization, `Bearer ${KEY}`);
  });

  it('chains redirects before the image', async () => {
    const answer = await generate({ prompt: 'far away' }, 'image-url-redirect:3');
    const res = await fetch(answer.data[0].url ?? '');
    assert.equal(res.status, 200);
    assert.equal(res.redirected, true);
    pngSize(new Uint8Array(await res.arrayBuffer()));
    const hops = emu.requests.filter((x) => x.path.startsWith('/files/'));
    assert.deepEqual(
      hops.map((x) => x.status),
      [302, 302, 302, 200],
    );
  });

  it('serves HTML instead of an image for image-url-html', async () => {
    const answer = await generate({ prompt: 'html' }, 'image-url-html');
    const res = await fetch(answer.data[0].url ?? '');
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await res.text(), /<html/);
  });

  it('answers b64_json for url requests, data-uri prefixes and no revised_prompt when asked', async () => {
    const answer = await generate(
      { prompt: 'inline', response_format: 'url' },
      'image-b64-for-url,image-data-uri,image-no-revised',
    );
    const entry = answer.data[0];
    assert.equal(entry.url, undefined);
    assert.equal(entry.revised_prompt, undefined);
    assert.ok(entry.b64_json?.startsWith('data:image/png;base64,'));
    pngSize(Buffer.from(entry.b64_json?.slice('data:image/png;base64,'.length) ?? '', 'base64'));
  });

  it('returns JPEG and WebP bytes for image-jpeg and image-webp', async () => {
    const jpeg = await generate({ prompt: 'j', response_format: 'b64_json' }, 'image-jpeg');
    const jb = Buffer.from(jpeg.data[0].b64_json ?? '', 'base64');
    assert.deepEqual([...jb.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    assert.deepEqual([...jb.subarray(-2)], [0xff, 0xd9]);
    const webp = await generate({ prompt: 'w', response_format: 'b64_json' }, 'image-webp');
    const wb = Buffer.from(webp.data[0].b64_json ?? '', 'base64');
    assert.equal(wb.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(wb.subarray(8, 16).toString('latin1'), 'WEBPVP8L');
    assert.equal(wb.readUInt32LE(4), wb.length - 8);
    const link = await generate({ prompt: 'w' }, 'image-webp');
    const res = await fetch(link.data[0].url ?? '');
    assert.equal(res.headers.get('content-type'), 'image/webp');
    await res.arrayBuffer();
  });

  it('makes incompressible noise for image-noise', async () => {
    const answer = await generate(
      { prompt: 'static', size: '2048x2048', response_format: 'b64_json' },
      'image-noise',
    );
    const bytes = Buffer.from(answer.data[0].b64_json ?? '', 'base64');
    assert.deepEqual(pngSize(bytes), { width: 2048, height: 2048 });
    assert.ok(bytes.length > 2048 * 2048 * 3, `${bytes.length} bytes`);
  });

  it('waits for image-delay and applies status faults', async () => {
    const started = Date.now();
    await generate({ prompt: 'slow' }, 'image-delay:200');
    assert.ok(Date.now() - started >= 190);
    const res = await post(emu.url, IMAGES, { prompt: 'busy [[fault:status:429,retry-after:2]]' });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '2');
    await res.text();
  });

  it('refuses invalid sizes and n', async () => {
    for (const body of [{ prompt: 'x', size: '999x999' }, { prompt: 'x', n: 5 }, { prompt: '' }]) {
      const res = await post(emu.url, IMAGES, body);
      assert.equal(res.status, 400);
      await res.text();
    }
  });

  it('records clientClosed when a download is aborted', async () => {
    const answer = await generate({ prompt: 'big', size: '4096x4096' }, 'image-noise');
    const url = new URL(answer.data[0].url ?? '');
    // A paused node:http response applies backpressure, so the server is still writing when we abort.
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: emu.port, path: url.pathname, agent: false }, (res) => {
        res.once('data', () => {
          res.pause();
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => (err.message.includes('socket hang up') ? resolve() : reject(err)));
      req.end();
    });
    await emu.waitFor((r) => r.some((x) => x.path.startsWith('/files/') && x.clientClosed), 3000);
    const download = emu.requests.find((x) => x.path.startsWith('/files/'));
    assert.equal(download?.responseEnded, false);
  });
});
