import * as assert from 'node:assert/strict';
import { AuthError, MalformedResponseError, NotFoundError, TimeoutError } from '../../../src/gateway/errors';
import { useEmulatorClients } from '../../support/emulatorClients';
import { KEY, assertNoKey, logSink, rejection, tinyServer } from './helpers';

describe('gateway client: listModels (GET /v1/models)', function () {
  this.timeout(20_000);
  const gw = useEmulatorClients(KEY);
  const make = (baseUrl: string, extra: Parameters<typeof gw.client>[0] = {}) =>
    gw.client({ baseUrl, ...extra });

  beforeEach(() => {
    gw.emulator.models = [
      { id: 'alpha-opus-4-5-20251101', context_length: 200_000 },
      { id: 'local-coder', max_model_len: 32_768 },
    ];
  });

  it('lists the models with their context sizes, sending the key and custom headers', async () => {
    const models = await make(`${gw.emulator.url}/v1`, { headers: { 'X-Team': 'tools' } }).listModels();
    assert.deepEqual(models, [
      { id: 'alpha-opus-4-5-20251101', contextTokens: 200_000 },
      { id: 'local-coder', contextTokens: 32_768 },
    ]);
    const request = gw.emulator.requests[0];
    assert.equal(request.method, 'GET');
    assert.equal(request.path, '/v1/models');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request.headers['x-team'], 'tools');
  });

  it('a server without the endpoint is a NotFoundError, asked once', async () => {
    gw.emulator.models = false;
    const error = await rejection(make(gw.emulator.url).listModels());
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.status, 404);
    assert.equal(gw.emulator.requests.length, 1);
  });

  it('a wrong key is an AuthError (401) without the key in it', async () => {
    const log = logSink();
    const client = gw.client({ apiKey: 'sk-wrong-key-123456', ...log });
    const error = await rejection(client.listModels());
    assert.ok(error instanceof AuthError);
    assertNoKey([error, log.entries], 'sk-wrong-key-123456');
  });

  it('a malformed body is a MalformedResponseError', async () => {
    const server = await tinyServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"object":"list","data":');
    });
    try {
      assert.ok((await rejection(make(server.url).listModels())) instanceof MalformedResponseError);
    } finally {
      await server.close();
    }
  });

  it('gives up after the timeout with a TimeoutError', async () => {
    const server = await tinyServer(() => undefined); // never answers
    try {
      const started = Date.now();
      const error = await rejection(make(server.url).listModels({ timeoutMs: 200 }));
      assert.ok(error instanceof TimeoutError, String(error));
      assert.ok(Date.now() - started < 5000);
    } finally {
      await server.close();
    }
  });
});
