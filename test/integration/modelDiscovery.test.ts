import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TEXT_MODELS } from '../../src/gateway/models';
import type { RefreshOutcome } from '../../src/host/modelDirectory';
import type { Emulator } from '../gateway-emulator';
import { TEST_KEY, eventually, setSetting, withSettings, useOwnEmulators } from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';

const VENDOR = 'modelgateway';

async function offeredIds(): Promise<string[]> {
  return (await vscode.lm.selectChatModels({ vendor: VENDOR })).map((m) => m.id);
}

describe('Model discovery and custom headers (real extension host)', () => {
  useSettingsRestored(['network.headers', 'chat.extraModels']);
  const start = useOwnEmulators();
  const serving = (models: Emulator['models']): Promise<Emulator> => start({ models });

  it('asks GET /v1/models when the base URL changes and offers the listed models', async () => {
    const emulator = await serving([
      { id: 'alpha-opus-4-5-20251101', context_length: 200_000 },
      { id: 'local-coder', max_model_len: 32_768 },
      { id: 'plain-model' },
    ]);
    await setSetting('baseUrl', emulator.url);
    await emulator.waitFor((r) => r.some((q) => q.method === 'GET' && q.path === '/v1/models'), 10_000);
    assert.equal(
      emulator.requests.find((q) => q.path === '/v1/models')!.headers.authorization,
      `Bearer ${TEST_KEY}`,
    );
    await eventually(async () => {
      const [coder] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'local-coder' });
      assert.ok(coder, 'local-coder is offered');
      assert.equal(coder.maxInputTokens, 32_768);
    });
    const [plain] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'plain-model' });
    assert.equal(plain.maxInputTokens, 128_000, 'the default context for unknown models');
    const ids = await offeredIds();
    for (const model of TEXT_MODELS) assert.ok(ids.includes(model.id), `${model.id} is kept`);
  });

  it('Refresh Models asks again and picks up a changed list; extra models still work', async () => {
    const emulator = await serving([{ id: 'first-model' }]);
    await setSetting('baseUrl', emulator.url);
    await eventually(async () => assert.ok((await offeredIds()).includes('first-model')));
    emulator.models = [{ id: 'second-model', context_window: 64_000 }];
    await withSettings({ 'chat.extraModels': ['my-extra'] }, async () => {
      const outcome = await vscode.commands.executeCommand<RefreshOutcome>('modelGateway.refreshModels');
      assert.deepEqual(outcome, { source: 'server', listed: 1 });
      await eventually(async () => {
        const ids = await offeredIds();
        assert.ok(ids.includes('second-model') && !ids.includes('first-model'), ids.join(', '));
        assert.ok(ids.includes('my-extra'));
      });
    });
  });

  it('a server without /v1/models means the catalogue alone, without an error', async () => {
    const emulator = await serving(false);
    await setSetting('baseUrl', emulator.url);
    const outcome = await vscode.commands.executeCommand<RefreshOutcome>('modelGateway.refreshModels');
    assert.equal(outcome.source, 'catalogue');
    assert.match(outcome.problem ?? '', /404/);
    await eventually(async () => {
      assert.deepEqual((await offeredIds()).sort(), TEXT_MODELS.map((m) => m.id).sort());
    });
  });

  it('sends modelGateway.network.headers on the wire, and never a reserved one', async () => {
    const emulator = await serving([]);
    await setSetting('baseUrl', emulator.url);
    await setSetting('network.headers', { 'X-Team': 'tools', Authorization: 'Bearer not-this-one' });
    emulator.reset();
    const [chat] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'alpha-sonnet-4-5-20250929' });
    const response = await chat.sendRequest(
      [vscode.LanguageModelChatMessage.User('hello')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    for await (const _ of response.text) void _;
    const sent = chatRequestsOf(emulator).at(0)!;
    assert.equal(sent.headers['x-team'], 'tools');
    assert.equal(sent.headers.authorization, `Bearer ${TEST_KEY}`);
    await vscode.commands.executeCommand('modelGateway.refreshModels');
    const listed = emulator.requests.find((r) => r.path === '/v1/models')!;
    assert.equal(listed.headers['x-team'], 'tools');
  });
});
