import * as assert from 'node:assert/strict';
import { IMAGE_QUALITIES, IMAGE_RESPONSE_FORMATS, IMAGE_SIZES } from '../../../src/gateway/types';
import { isSlashImage, parseSlashImage } from '../../../src/images/slashImage';

describe('images/slashImage', () => {
  it('takes the prompt and no overrides from a bare command', () => {
    assert.deepEqual(parseSlashImage('/image a red fox in snow'), {
      ok: true,
      prompt: 'a red fox in snow',
      overrides: {},
    });
  });

  it('reads every option, before, between and after the prompt, with a space or an equals sign', () => {
    assert.deepEqual(
      parseSlashImage('/image --size 1536x1024 a red fox --quality=high in snow --n 2 --format url'),
      {
        ok: true,
        prompt: 'a red fox in snow',
        overrides: { size: '1536x1024', quality: 'high', n: 2, responseFormat: 'url' },
      },
    );
  });

  it('accepts each value the gateway allows', () => {
    for (const size of IMAGE_SIZES) assert.equal(ok(`/image x --size ${size}`).overrides.size, size);
    for (const quality of IMAGE_QUALITIES)
      assert.equal(ok(`/image x --quality ${quality}`).overrides.quality, quality);
    for (const format of IMAGE_RESPONSE_FORMATS)
      assert.equal(ok(`/image x --format ${format}`).overrides.responseFormat, format);
    for (const n of [1, 2, 3, 4]) assert.equal(ok(`/image x --n ${n}`).overrides.n, n);
  });

  it('keeps the line breaks inside a prompt', () => {
    assert.equal(ok('/image first line\nsecond  line --n 1').prompt, 'first line\nsecond  line');
  });

  it('refuses a bad value with a message listing the valid ones', () => {
    assert.equal(
      fail('/image fox --size 800x600'),
      '"800x600" is not a valid --size. Valid values: 1024x1024, 1536x1024, 1024x1536, 2048x2048, 4096x4096.',
    );
    assert.equal(
      fail('/image fox --quality ultra'),
      '"ultra" is not a valid --quality. Valid values: auto, high, medium, low.',
    );
    assert.equal(fail('/image fox --n 5'), '"5" is not a valid --n. Valid values: 1, 2, 3, 4.');
    assert.equal(fail('/image fox --n 0'), '"0" is not a valid --n. Valid values: 1, 2, 3, 4.');
    assert.equal(
      fail('/image fox --format png'),
      '"png" is not a valid --format. Valid values: b64_json, url.',
    );
  });

  it('refuses unknown, repeated and empty options', () => {
    assert.equal(
      fail('/image fox --style vivid'),
      'Unknown option "--style". Valid options: --size, --quality, --n, --format.',
    );
    assert.equal(fail('/image fox --n 1 --n 2'), '--n is given twice; give it once.');
    assert.equal(
      fail('/image fox --size'),
      '--size needs a value. Valid values: 1024x1024, 1536x1024, 1024x1536, 2048x2048, 4096x4096.',
    );
    assert.equal(
      fail('/image fox --size --n 2'),
      '--size needs a value. Valid values: 1024x1024, 1536x1024, 1024x1536, 2048x2048, 4096x4096.',
    );
  });

  it('refuses a command without a prompt', () => {
    assert.match(fail('/image'), /^Describe the image after \/image/);
    assert.match(fail('/image   --n 2'), /^Describe the image after \/image/);
  });

  it('recognizes the command only at the start and as a whole word', () => {
    assert.equal(isSlashImage('/image fox'), true);
    assert.equal(isSlashImage('  /image'), true);
    assert.equal(isSlashImage('/images of foxes'), false);
    assert.equal(isSlashImage('draw /image fox'), false);
    assert.equal(parseSlashImage('/imagery').ok, false);
  });
});

function ok(text: string): Extract<ReturnType<typeof parseSlashImage>, { ok: true }> {
  const result = parseSlashImage(text);
  assert.ok(result.ok, JSON.stringify(result));
  return result;
}

function fail(text: string): string {
  const result = parseSlashImage(text);
  assert.ok(!result.ok, `expected a refusal of ${text}`);
  return result.message;
}
