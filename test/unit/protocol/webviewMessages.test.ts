import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkWebviewMessage, parseWebviewMessage, WEBVIEW_MESSAGE_TYPES } from '../../../src/protocol';
import { malformedMessages, randomMalformed, VALID_SAMPLES } from '../../support/webviewMessages';

describe('protocol: messages from the webview', () => {
  it('has a valid sample of every message type, and each one passes unchanged', () => {
    assert.deepEqual(Object.keys(VALID_SAMPLES).sort(), [...WEBVIEW_MESSAGE_TYPES].sort());
    for (const sample of Object.values(VALID_SAMPLES)) {
      assert.deepEqual(parseWebviewMessage(sample), sample, sample.type);
    }
  });

  it('refuses malformed messages of every type, naming the type and never quoting the value', () => {
    const malformed = malformedMessages();
    for (const type of WEBVIEW_MESSAGE_TYPES) {
      assert.ok(
        malformed.some((m) => m.claims === type) || Object.keys(VALID_SAMPLES[type]).length === 1,
        `malformed "${type}" messages`,
      );
    }
    for (const { label, claims, message } of malformed) {
      const check = checkWebviewMessage(message);
      assert.equal(check.ok, false, label);
      if (check.ok) continue;
      assert.equal(check.type, claims, label);
      assert.ok(check.problem.length > 0, label);
      for (const quoted of ['delete', 'INSERT', 'Explain closures', 'const a = 1;']) {
        assert.ok(!check.problem.includes(quoted), `${label}: "${check.problem}" quotes the value`);
      }
    }
  });

  it('a setModel without a model, or with a blank one, is refused (it used to store "undefined")', () => {
    assert.equal(parseWebviewMessage({ type: 'setModel' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'setModel', model: undefined }), undefined);
    assert.equal(parseWebviewMessage({ type: 'setModel', model: '  ' }), undefined);
    assert.equal(parseWebviewMessage({ type: 'setModel', model: 42 }), undefined);
    assert.deepEqual(parseWebviewMessage({ type: 'setModel', model: ' m-1 ' }), {
      type: 'setModel',
      model: 'm-1',
    });
  });

  it('unknown error and code actions are refused (they used to re-run the request and insert code)', () => {
    const error = { type: 'errorAction', turnId: 't', action: 'reboot' };
    assert.deepEqual(checkWebviewMessage(error), {
      ok: false,
      type: 'errorAction',
      problem: 'action: expected ("setApiKey" | "openSettings" | "dropOldestTurns" | "showLog")',
    });
    const code = { type: 'codeAction', action: 'run', code: 'rm -rf /', language: 'sh' };
    assert.equal(parseWebviewMessage(code), undefined);
  });

  it('keeps only the fields of the schema: the handler never sees extra keys', () => {
    const parsed = parseWebviewMessage({ type: 'copy', text: 'a', extra: { big: true }, type2: 'send' });
    assert.deepEqual(parsed, { type: 'copy', text: 'a' });
  });

  it('10,000 random malformed messages are all refused, under the type they claim (seeded)', () => {
    fc.assert(
      fc.property(randomMalformed(), ({ label, claims, message }) => {
        const check = checkWebviewMessage(message);
        assert.equal(check.ok, false, label);
        if (!check.ok) assert.equal(check.type, claims, label);
      }),
      { numRuns: 10_000, seed: 0x5eed },
    );
  });
});
