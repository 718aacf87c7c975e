import * as assert from 'node:assert/strict';
import { isPartialName, tempNameFor } from '../../../src/images/atomicWrite';
import { buildSidecar, sidecarNameFor } from '../../../src/images/sidecar';

describe('images/atomicWrite', () => {
  it('names a hidden partial file beside the target, different each time', () => {
    const a = tempNameFor('sunset-20261122-073455.png');
    const b = tempNameFor('sunset-20261122-073455.png');
    assert.match(a, /^\.sunset-20261122-073455\.png\.partial-[0-9a-f]{16}$/);
    assert.notEqual(a, b);
    assert.equal(isPartialName(a), true);
    assert.equal(isPartialName('sunset.png'), false);
    assert.equal(isPartialName('.partial-notes.md'), false);
  });

  it('refuses paths', () => {
    assert.throws(() => tempNameFor('dir/x.png'), /file name, not a path/);
    assert.throws(() => tempNameFor('dir\\x.png'), /file name, not a path/);
    assert.throws(() => tempNameFor(''), /file name/);
  });
});

describe('images/sidecar', () => {
  it('records prompt, revised prompt, model, size, quality, time and file', () => {
    const json = buildSidecar({
      prompt: 'A fox',
      revisedPrompt: 'A red fox in snow',
      model: 'img-1',
      size: '1024x1024',
      quality: 'high',
      createdAt: new Date(Date.UTC(2026, 10, 22, 7, 34, 55)),
      file: 'a-fox-20261122-073455.png',
    });
    assert.ok(json.endsWith('}\n'));
    assert.deepEqual(JSON.parse(json), {
      version: 1,
      generator: 'Model Gateway',
      file: 'a-fox-20261122-073455.png',
      prompt: 'A fox',
      revisedPrompt: 'A red fox in snow',
      model: 'img-1',
      size: '1024x1024',
      quality: 'high',
      createdAt: '2026-11-22T07:34:55.000Z',
    });
  });

  it('leaves out what is unknown and keeps awkward prompts intact', () => {
    const prompt = 'quotes " and \\ and </script> and\nnewlines 😀';
    const parsed = JSON.parse(buildSidecar({ prompt, model: 'm', createdAt: 0, file: 'x.png' })) as Record<
      string,
      unknown
    >;
    assert.equal(parsed.prompt, prompt);
    assert.equal('revisedPrompt' in parsed, false);
    assert.equal('size' in parsed, false);
    assert.equal(parsed.createdAt, '1970-01-01T00:00:00.000Z');
    assert.equal(sidecarNameFor('x.png'), 'x.png.json');
  });
});
