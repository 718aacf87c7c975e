import * as assert from 'node:assert/strict';
import { TEXT_MODELS } from '../../src/gateway/models';
import { runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { emulator, newChat, openChat, until } from './chatHelpers';

describe('Model discovery in the chat (real editor)', function () {
  this.timeout(120_000);

  it("the chat's Model select shows the server's models with readable names", async () => {
    const { page } = e2e();
    const gateway = emulator();
    const before = gateway.models;
    gateway.models = [
      { id: 'alpha-sonnet-4-5-20250929', context_length: 200_000 },
      { id: 'alpha-sonnet-4-6-20260101-thinking', context_length: 200_000 },
      { id: 'local-coder', max_model_len: 32_768 },
    ];
    try {
      const frame = await openChat(page);
      await runCommand(page, 'Model Gateway: Refresh Models');
      const select = frame.getByRole('combobox', { name: 'Model', exact: true });
      const labels = async (): Promise<string[]> =>
        select.locator('option').evaluateAll((options) => options.map((o) => o.textContent ?? ''));
      await until(
        async () => (await labels()).includes('Sonnet 4.6 · thinking'),
        20_000,
        'the discovered models',
      );
      const shown = await labels();
      assert.ok(shown.includes('local-coder'), `an unknown id shows as it is: ${shown.join(', ')}`);
      assert.ok(shown.includes('Sonnet 4.5'), 'catalogue models keep their readable names');
      assert.equal(shown.length, TEXT_MODELS.length + 2, 'unlisted catalogue models are kept');
      const values = await select
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      assert.ok(values.includes('alpha-sonnet-4-6-20260101-thinking'), 'the values stay the ids');
      await select.selectOption('alpha-sonnet-4-6-20260101-thinking');
      await until(
        async () => (await select.getAttribute('title')) === 'Model: alpha-sonnet-4-6-20260101-thinking',
        10_000,
        'the full id in the tooltip',
      );
      await screenshot(page, 'e2e-model-discovery-select');
      await newChat(frame, page);
    } finally {
      gateway.models = before;
      await runCommand(page, 'Model Gateway: Refresh Models');
    }
  });
});
