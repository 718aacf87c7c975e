import * as assert from 'node:assert/strict';
import { type Server, createServer, request as httpRequest } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { Agent, EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { createDispatcher, environmentHasProxy } from '../../../src/gateway/dispatcher';
import { expectedAnswer } from '../../gateway-emulator';
import { useEmulatorClients } from '../../support/emulatorClients';
import { KEY, chat, closeServer, collect } from './helpers';

interface TinyProxy {
  url: string;
  /** `CONNECT host:port` tunnels and absolute-form requests seen. */
  used: string[];
  close(): Promise<void>;
}

/** A minimal forward proxy: CONNECT tunnels plus plain absolute-form HTTP forwarding. */
async function startProxy(): Promise<TinyProxy> {
  const used: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    used.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    used.push(`CONNECT ${req.url}`);
    const [host, port] = String(req.url).split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, used, close: () => closeServer(server, sockets) };
}

describe('gateway client: proxies', function () {
  this.timeout(20_000);
  const gw = useEmulatorClients(KEY, { retry: {} });
  let proxy: TinyProxy;
  const savedEnv = { ...process.env };

  beforeEach(async () => {
    proxy = await startProxy();
  });
  afterEach(async () => {
    await proxy.close();
    for (const name of ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']) {
      if (savedEnv[name] === undefined) delete process.env[name];
      else process.env[name] = savedEnv[name];
    }
  });
  it('an explicit proxy URL is used (CONNECT tunnel) for chat and image downloads', async () => {
    const client = gw.client({ proxy: proxy.url });
    const request = chat('through the proxy');
    const got = await collect(client.streamChatCompletion(request));
    assert.equal(got.error, undefined, String(got.error));
    assert.equal(got.text, expectedAnswer(request));
    assert.ok(proxy.used.includes(`CONNECT 127.0.0.1:${gw.emulator.port}`), proxy.used.join(', '));
    const images = await client.generateImages({ prompt: 'x', response_format: 'url' });
    assert.equal(images.images[0].format, 'png');
    assert.deepEqual(
      gw.emulator.requests.map((r) => r.path.split('/')[1] + '/' + r.path.split('/')[2]),
      ['v1/chat', 'v1/images', 'files/' + gw.emulator.requests[2].path.split('/')[2]],
    );
    assert.ok(
      proxy.used.every((u) => u === `CONNECT 127.0.0.1:${gw.emulator.port}`),
      'nothing went direct',
    );
  });

  it('HTTP_PROXY from the environment is used, and NO_PROXY bypasses it', async () => {
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy']) delete process.env[name];
    process.env.HTTP_PROXY = proxy.url;
    const viaEnv = gw.client();
    assert.equal((await collect(viaEnv.streamChatCompletion(chat('env proxy')))).error, undefined);
    assert.equal(proxy.used.length, 1, proxy.used.join(', '));

    process.env.NO_PROXY = '127.0.0.1';
    const bypass = gw.client();
    assert.equal((await collect(bypass.streamChatCompletion(chat('no proxy')))).error, undefined);
    assert.equal(proxy.used.length, 1, 'NO_PROXY host went direct');
    assert.equal(gw.emulator.requests.length, 2);
  });

  it('chooses ProxyAgent, EnvHttpProxyAgent or a plain Agent', async () => {
    const explicit = createDispatcher({ proxy: 'http://127.0.0.1:9', connectTimeoutMs: 1000, env: {} });
    const fromEnv = createDispatcher({ connectTimeoutMs: 1000, env: { https_proxy: 'http://127.0.0.1:9' } });
    const direct = createDispatcher({ connectTimeoutMs: 1000, env: { NO_PROXY: '*' } });
    assert.ok(explicit instanceof ProxyAgent);
    assert.ok(fromEnv instanceof EnvHttpProxyAgent);
    assert.ok(direct instanceof Agent);
    assert.ok(!environmentHasProxy({ HTTP_PROXY: '  ' }));
    await Promise.all([explicit.close(), fromEnv.close(), direct.close()]);
  });
});
