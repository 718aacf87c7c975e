import * as assert from 'node:assert/strict';
import { TEXT_MODELS } from '../../../src/gateway/models';
import { readableModelName } from '../../../src/gateway/modelNames';

describe('gateway/modelNames readableModelName', () => {
  it('names the examples of the issue', () => {
    assert.equal(readableModelName('alpha-sonnet-4-5-20250929-thinking'), 'Sonnet 4.5 · thinking');
    assert.equal(readableModelName('alpha-haiku-3-5-20241022'), 'Haiku 3.5');
  });

  it('names a major-only version and every catalogue model distinctly', () => {
    assert.equal(readableModelName('alpha-opus-4-20250514'), 'Opus 4');
    assert.equal(readableModelName('alpha-sonnet-4-20250514-thinking'), 'Sonnet 4 · thinking');
    const names = TEXT_MODELS.map((m) => readableModelName(m.id));
    assert.equal(new Set(names).size, names.length, names.join(', '));
    for (const name of names) assert.doesNotMatch(name, /alpha|\d{8}/);
  });

  it('shows unknown ids as they are', () => {
    for (const id of [
      'gpt-4o',
      'llama-3-8b',
      'my-model-2',
      'qwen2.5-coder:7b',
      'alpha-sonnet-4-5',
      '',
      'ALPHA-SONNET-4-5-20250929',
    ])
      assert.equal(readableModelName(id), id);
  });
});
