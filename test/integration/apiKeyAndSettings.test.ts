import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Emulator } from '../gateway-emulator';
import {
  keyedEmulator,
  setKey,
  setSetting,
  TEST_KEY,
  useEmulator,
  withGateway,
  withSettings,
} from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';

type ConnectionResult = { ok: true; ms: number; model: string } | { ok: false; message: string };

describe('API key, settings and Test Connection (real extension host)', () => {
  let emulator: Emulator;
  before(async () => {
    await vscode.extensions.getExtension('modelgateway.model-gateway')!.activate();
    emulator = await useEmulator();
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(() => emulator.reset());

  it('sets a key, and Test Connection sends it as a Bearer credential', async () => {
    await setKey();
    const result = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
    assert.equal(result.ok, true, JSON.stringify(result));
    const chat = chatRequestsOf(emulator).at(0);
    assert.ok(chat);
    assert.equal(chat.headers.authorization, `Bearer ${TEST_KEY}`);
    assert.match(String(chat.headers['user-agent']), /^model-gateway-vscode\//);
  });

  it('keeps the key out of settings', async () => {
    await setKey();
    const all = JSON.stringify(vscode.workspace.getConfiguration('modelGateway'));
    assert.ok(!all.includes(TEST_KEY));
  });

  it('reports a rejected key with the typed message', async () => {
    await setKey('sk-wrong');
    await setSetting('baseUrl', emulator.url);
    await withGateway({ acceptKey: (key) => key === 'sk-the-right-one' }, async () => {
      const result = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, /Set API Key/);
      assert.ok(!(result.ok ? '' : result.message).includes('sk-wrong'));
    });
  });

  it('reports a gateway that is down as a connection error', async () => {
    await setKey();
    const down = await keyedEmulator();
    const url = down.url;
    await down.close();
    await withSettings({ baseUrl: url }, async () => {
      const result = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
      assert.equal(result.ok, false);
      assert.match(result.ok ? '' : result.message, /connect|reach|refused/i);
    });
  });

  it('clears the key, then falls back to MODEL_GATEWAY_API_KEY from the environment', async () => {
    await setKey();
    await vscode.commands.executeCommand('modelGateway.clearApiKey');
    const previous = process.env.MODEL_GATEWAY_API_KEY;
    process.env.MODEL_GATEWAY_API_KEY = 'sk-from-environment';
    emulator.keys.add('sk-from-environment');
    try {
      const result = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
      assert.equal(result.ok, true);
      assert.equal(emulator.requests.at(-1)?.headers.authorization, 'Bearer sk-from-environment');
    } finally {
      if (previous === undefined) delete process.env.MODEL_GATEWAY_API_KEY;
      else process.env.MODEL_GATEWAY_API_KEY = previous;
    }
  });

  it('selects a model and uses it on the next request without a reload', async () => {
    await setKey();
    const chosen = await vscode.commands.executeCommand<string>(
      'modelGateway.selectModel',
      'alpha-haiku-4-5-20251001',
    );
    assert.equal(chosen, 'alpha-haiku-4-5-20251001');
    assert.equal(
      vscode.workspace.getConfiguration('modelGateway').get('chat.model'),
      'alpha-haiku-4-5-20251001',
    );
    const result = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
    assert.equal(result.ok && result.model, 'alpha-haiku-4-5-20251001');
    assert.equal((emulator.requests.at(-1)?.body as { model: string }).model, 'alpha-haiku-4-5-20251001');
    await setSetting('chat.model', undefined);
  });

  it('applies a changed base URL live, and falls back safely from an invalid one', async () => {
    await setKey();
    await withGateway({}, async (second) => {
      await setSetting('baseUrl', `${second.url}/v1/`);
      const ok = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
      assert.equal(ok.ok, true);
      // The new base URL also gets the model list asked for in the background (GET /v1/models).
      const chats = second.requests.filter((r) => r.path !== '/v1/models');
      assert.equal(chats.length, 1);
      assert.equal(chats[0].path, '/v1/chat/completions');
      await setSetting('baseUrl', 'not a url');
      const fallback = await vscode.commands.executeCommand<ConnectionResult>('modelGateway.testConnection');
      // The invalid value is reported and the default is used instead: no crash, a typed result.
      assert.equal(typeof fallback.ok, 'boolean');
    });
  });
});
