// §3 Secrets, image downloads: what the client unit tests leave open. A fake gateway on one 127.0.0.1 port
// hands out links to a second 127.0.0.1 port (another origin), with redirects in every direction, odd
// schemes, content types and sizes. The key goes to the gateway's origin only, never to another; at most
// 3 redirects; http(s) and images only; a size cap; and the key is in no error or log line.
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGatewayClient } from '../../../src/gateway';
import { ImageError } from '../../../src/gateway/errors';
import type { GatewayClient, RequestLogEntry } from '../../../src/gateway/types';
import { quadrantPng } from '../../gateway-emulator/png';
import { type TinyServer, rejection, tinyServer, until } from '../../unit/gateway/helpers';

const KEY = 'sk-reliability-D0wnl0ad-5ecret-93c1';
/** The key and the forms it could take in a header, a URL or a log. */
const KEY_FORMS = [
  KEY,
  Buffer.from(KEY).toString('base64'),
  Buffer.from(`Bearer ${KEY}`).toString('base64'),
  encodeURIComponent(KEY),
  KEY.slice(3, 20),
];

type Route = (req: IncomingMessage, res: ServerResponse) => void;

const PNG = quadrantPng(8, 8, [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [9, 9, 9],
]);
const tinyPng = (): Buffer => PNG;

describe('Secrets: image downloads across origins (real HTTP on 127.0.0.1)', function () {
  this.timeout(30_000);
  let gateway: TinyServer;
  let other: TinyServer;
  /** What the gateway answers for /v1/images/generations: the image links. */
  let links: string[] = [];
  const gatewayRoutes = new Map<string, Route>();
  const otherRoutes = new Map<string, Route>();
  const log: RequestLogEntry[] = [];
  let client: GatewayClient;

  const png = (res: ServerResponse, type = 'image/png'): void => {
    res.writeHead(200, { 'content-type': type }).end(tinyPng());
  };
  const redirect =
    (to: () => string, status = 302): Route =>
    (_req, res) =>
      res.writeHead(status, { location: to() }).end();
  const dispatch =
    (routes: Map<string, Route>): Route =>
    (req, res) => {
      const route = routes.get((req.url ?? '').split('?')[0]);
      if (route) route(req, res);
      else res.writeHead(404).end();
    };

  before(async () => {
    gateway = await tinyServer((req, res) => {
      if (req.url === '/v1/images/generations') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ created: 1, data: links.map((url) => ({ url })) }));
      } else dispatch(gatewayRoutes)(req, res);
    });
    other = await tinyServer((req, res) => dispatch(otherRoutes)(req, res));
    gatewayRoutes.set('/img.png', (_req, res) => png(res));
    otherRoutes.set('/img.png', (_req, res) => png(res));
  });
  after(async () => {
    await gateway.close();
    await other.close();
  });
  beforeEach(() => {
    gateway.requests.length = 0;
    other.requests.length = 0;
    log.length = 0;
    client = createGatewayClient({
      baseUrl: `${gateway.url}/v1`,
      apiKey: KEY,
      retry: { maxRetries: 0, baseDelayMs: 1 },
      maxImageBytes: 64 * 1024,
      onRequestLog: (entry) => log.push(entry),
    });
  });
  afterEach(async () => {
    await client.close();
    // Whatever happened, the other origin never saw the key in any form, and no log line holds it.
    for (const request of other.requests) assertNoKeyIn(JSON.stringify(request), `request to ${request.url}`);
    assertNoKeyIn(JSON.stringify(log), 'the request log');
  });

  const generate = (...urls: string[]) => {
    links = urls;
    return client.generateImages({ prompt: 'p', response_format: 'url' });
  };
  const auth = (server: TinyServer, path: string): (string | undefined)[] =>
    server.requests.filter((r) => r.url.split('?')[0] === path).map((r) => r.headers.authorization);

  it('sends the key on the gateway origin only: another port of 127.0.0.1 is another origin', async () => {
    const result = await generate(`${gateway.origin}/img.png`, `${other.origin}/img.png`);
    assert.equal(result.images.length, 2);
    assert.deepEqual(auth(gateway, '/img.png'), [`Bearer ${KEY}`]);
    assert.deepEqual(auth(other, '/img.png'), [undefined]);
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} from the gateway to another origin and back re-checks the origin on every hop`, async () => {
      gatewayRoutes.set(
        '/out',
        redirect(() => `${other.origin}/back`, status),
      );
      otherRoutes.set(
        '/back',
        redirect(() => `${gateway.origin}/img.png`, status),
      );
      const result = await generate(`${gateway.origin}/out`);
      assert.equal(result.images[0].format, 'png');
      assert.deepEqual(auth(gateway, '/out'), [`Bearer ${KEY}`]);
      assert.deepEqual(auth(other, '/back'), [undefined]);
      assert.deepEqual(auth(gateway, '/img.png'), [`Bearer ${KEY}`]);
    });
  }

  it('look-alike links are other origins: a port in the userinfo, localhost for 127.0.0.1', async () => {
    const port = new URL(gateway.origin).port;
    const otherPort = new URL(other.origin).port;
    for (const link of [
      `http://127.0.0.1:${port}@127.0.0.1:${otherPort}/img.png`,
      `http://localhost:${port}/img.png`,
    ])
      await generate(link).catch(() => undefined);
    assert.deepEqual(
      auth(other, '/img.png'),
      [undefined],
      'the userinfo link went to the other port, keyless',
    );
    const lookAlikes = auth(gateway, '/img.png');
    assert.equal(lookAlikes.length, 1, 'the localhost link reached the gateway port');
    assert.deepEqual(
      lookAlikes,
      lookAlikes.map(() => undefined),
      'a look-alike origin got the key',
    );
  });

  it('follows at most 3 redirects, across origins, and makes no 5th request', async () => {
    otherRoutes.set(
      '/r1',
      redirect(() => `${gateway.origin}/r2`),
    );
    gatewayRoutes.set(
      '/r2',
      redirect(() => `${other.origin}/r3`),
    );
    otherRoutes.set(
      '/r3',
      redirect(() => `/r4`),
    );
    otherRoutes.set(
      '/r4',
      redirect(() => `${other.origin}/img.png`),
    );
    const error = await rejection(generate(`${other.origin}/r1`));
    assert.ok(error instanceof ImageError && error.reason === 'too_many_redirects', String(error));
    assert.deepEqual([...other.requests.map((r) => r.url), ...gateway.requests.map((r) => r.url)].sort(), [
      '/r1',
      '/r2',
      '/r3',
      '/r4',
      '/v1/images/generations',
    ]);
    assertNoKeyIn(errorText(error), 'the error');
    otherRoutes.set(
      '/r3',
      redirect(() => `${other.origin}/img.png`),
    );
    other.requests.length = 0;
    const ok = await generate(`${other.origin}/r1`);
    assert.equal(ok.images[0].format, 'png', 'three redirects are followed');
  });

  for (const target of [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:image/png;base64,iVBORw0KGgo=',
    'ftp://127.0.0.1/x.png',
    'gopher://127.0.0.1/x',
  ]) {
    it(`refuses a redirect to ${target.split(':')[0]}: and sends nothing there`, async () => {
      otherRoutes.set(
        '/odd',
        redirect(() => target),
      );
      const error = await rejection(generate(`${other.origin}/odd`));
      assert.ok(error instanceof ImageError && error.reason === 'unsupported_url', String(error));
      assert.equal(other.requests.length, 1);
      assertNoKeyIn(errorText(error), 'the error');
    });
  }

  for (const type of ['text/html', 'application/octet-stream', 'application/json', '']) {
    it(`refuses content served as ${JSON.stringify(type)} even when the bytes are a PNG`, async () => {
      otherRoutes.set('/typed', (_req, res) => {
        res.writeHead(200, type ? { 'content-type': type } : {}).end(tinyPng());
      });
      const error = await rejection(generate(`${other.origin}/typed`));
      assert.ok(error instanceof ImageError && error.reason === 'not_image', String(error));
    });
  }

  for (const [type, body] of [
    ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['image/png', '<!DOCTYPE html><script>alert(1)</script>'],
  ]) {
    it(`refuses bytes that are not PNG, JPEG or WebP even when served as ${type}`, async () => {
      otherRoutes.set('/fake', (_req, res) => res.writeHead(200, { 'content-type': type }).end(body));
      const error = await rejection(generate(`${other.origin}/fake`));
      assert.ok(error instanceof ImageError && error.reason === 'unknown_format', String(error));
    });
  }

  it('accepts IMAGE/PNG with parameters', async () => {
    otherRoutes.set('/upper', (_req, res) => png(res, 'IMAGE/PNG; charset=binary'));
    const result = await generate(`${other.origin}/upper`);
    assert.equal(result.images[0].format, 'png');
  });

  it('stops at the size cap: a declared length over it, and an endless body without one', async () => {
    otherRoutes.set('/declared', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(10 * 1024 * 1024) });
      res.write(tinyPng());
    });
    const declared = await rejection(generate(`${other.origin}/declared`));
    assert.ok(declared instanceof ImageError && declared.reason === 'too_large', String(declared));
    let sent = 0;
    otherRoutes.set('/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(tinyPng());
      const timer = setInterval(() => {
        sent += 16_384;
        if (sent > 50 * 1024 * 1024) clearInterval(timer);
        else res.write(Buffer.alloc(16_384));
      }, 2);
      res.on('close', () => clearInterval(timer));
    });
    const closedBefore = other.closed;
    const endless = await rejection(generate(`${other.origin}/endless`));
    assert.ok(endless instanceof ImageError && endless.reason === 'too_large', String(endless));
    await until(() => other.closed > closedBefore, 5000, 'the download to be cut off');
    assert.ok(sent < 2 * 1024 * 1024, `read ${sent} bytes for a 64 KiB cap`);
  });

  it('keeps the key out of every download error', async () => {
    otherRoutes.set('/expired', (_req, res) => res.writeHead(403).end(`denied for ${KEY}`));
    otherRoutes.set('/broken', (req) => req.socket.destroy());
    for (const path of ['/expired', '/broken', '/missing']) {
      const error = await rejection(generate(`${other.origin}${path}`));
      assert.ok(error instanceof Error);
      assertNoKeyIn(errorText(error), `the error for ${path}`);
    }
  });
});

/** Message, stack, fields and causes of an error, as text. */
function errorText(error: unknown): string {
  const seen = new Set<unknown>();
  const parts: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > 5 || value === null || value === undefined || seen.has(value)) return;
    if (typeof value !== 'object') return void parts.push(String(value));
    seen.add(value);
    if (value instanceof Error) parts.push(value.message, value.stack ?? '', String(value));
    for (const key of Object.getOwnPropertyNames(value))
      walk((value as Record<string, unknown>)[key], depth + 1);
  };
  walk(error, 0);
  return parts.join('\n');
}

function assertNoKeyIn(text: string, where: string): void {
  for (const form of KEY_FORMS) assert.ok(!text.includes(form), `the key (${form}) is in ${where}`);
}
