import * as assert from 'node:assert/strict';
import { completeSettings, languageEnabled } from '../../../src/complete/settings';

describe('complete/settings', () => {
  it('is off by default, with the documented defaults', () => {
    assert.deepEqual(completeSettings({}), {
      enabled: false,
      languages: {},
      debounceMs: 300,
      model: 'alpha-haiku-4-5-20251001',
      contextTokens: 4000,
    });
  });

  it('falls back to the default for a wrong type or range', () => {
    const s = completeSettings({
      enabled: 'yes',
      debounceMs: -1,
      contextTokens: 'x',
      model: '  ',
      languages: [1],
    });
    assert.equal(s.enabled, false);
    assert.equal(s.debounceMs, 300);
    assert.equal(s.contextTokens, 4000);
    assert.equal(s.model, 'alpha-haiku-4-5-20251001');
    assert.deepEqual(s.languages, {});
  });

  it('limits languages by id, then by "*"', () => {
    const languages = completeSettings({ languages: { '*': true, markdown: false, go: 'no' } }).languages;
    assert.deepEqual(languages, { '*': true, markdown: false });
    assert.equal(languageEnabled(languages, 'typescript'), true);
    assert.equal(languageEnabled(languages, 'markdown'), false);
    assert.equal(languageEnabled({ '*': false, python: true }, 'python'), true);
    assert.equal(languageEnabled({ '*': false, python: true }, 'rust'), false);
    assert.equal(languageEnabled({}, 'toString'), true);
  });
});
