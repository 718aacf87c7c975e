import * as assert from 'node:assert/strict';
import { IMAGE_QUALITIES, IMAGE_RESPONSE_FORMATS, IMAGE_SIZES } from '../../../src/gateway/types';
import { MAX_PROMPT_LENGTH, validateImageOptions, validateImagePrompt } from '../../../src/images/validate';

describe('images/validate', () => {
  it('lists every size, quality and format of the gateway spec', () => {
    assert.deepEqual(IMAGE_SIZES, ['1024x1024', '1536x1024', '1024x1536', '2048x2048', '4096x4096']);
    assert.deepEqual(IMAGE_QUALITIES, ['auto', 'high', 'medium', 'low']);
    assert.deepEqual(IMAGE_RESPONSE_FORMATS, ['b64_json', 'url']);
  });

  it('accepts every valid combination and passes the values through', () => {
    for (const size of IMAGE_SIZES) {
      for (const quality of IMAGE_QUALITIES) {
        for (const response_format of IMAGE_RESPONSE_FORMATS) {
          for (const n of [1, 2, 3, 4]) {
            const result = validateImageOptions({ n, size, quality, response_format });
            assert.deepEqual(result, { ok: true, options: { n, size, quality, response_format } });
          }
        }
      }
    }
  });

  it('leaves absent options absent so gateway defaults apply', () => {
    assert.deepEqual(validateImageOptions({}), { ok: true, options: {} });
  });

  it('rejects n outside 1–4 or not a whole number', () => {
    for (const n of [0, 5, -1, 1.5, Number.NaN, '2', null]) {
      const result = validateImageOptions({ n });
      assert.equal(result.ok, false, `n=${String(n)}`);
      if (!result.ok) assert.match(result.errors[0], /whole number from 1 to 4/);
    }
  });

  it('names the bad value and the allowed ones', () => {
    const result = validateImageOptions({ size: '800x600', quality: 'ultra', response_format: 'png', n: 9 });
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.errors.length, 4, 'every problem is reported at once');
    assert.equal(result.errors[0], 'The number of images must be a whole number from 1 to 4 (got 9).');
    assert.equal(
      result.errors[1],
      'Image size "800x600" is not supported. Use one of: 1024x1024, 1536x1024, 1024x1536, 2048x2048, 4096x4096.',
    );
    assert.equal(
      result.errors[2],
      'Image quality "ultra" is not supported. Use one of: auto, high, medium, low.',
    );
    assert.equal(result.errors[3], 'Response format "png" is not supported. Use "url" or "b64_json".');
    const odd = validateImageOptions({ size: { w: 1 } });
    assert.ok(!odd.ok && odd.errors[0].startsWith('Image size object is not supported'));
  });

  it('checks the prompt', () => {
    assert.equal(validateImagePrompt('a red fox'), undefined);
    assert.equal(validateImagePrompt('  \n'), 'Describe the image to generate.');
    assert.match(validateImagePrompt('x'.repeat(MAX_PROMPT_LENGTH + 1)) ?? '', /limit is 32000/);
  });
});
