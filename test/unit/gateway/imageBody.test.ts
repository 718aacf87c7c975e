import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  type ImageBodyParts,
  ImageBodyReader,
  ImageNotBase64Error,
  ImageTooLargeError,
} from '../../../src/gateway/imageBody';

/** Feeds `text` to a reader in pieces of `size` bytes. */
async function read(text: string, size: number, max = 1 << 20, bodyBytes?: number): Promise<ImageBodyParts> {
  const reader = new ImageBodyReader(max, bodyBytes);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) {
    reader.push(bytes.subarray(at, at + size));
    if (reader.hasUnjoined) await reader.joinImages();
  }
  return reader.end();
}

describe('gateway/imageBody ImageBodyReader', async () => {
  const images = [randomBytes(3000), randomBytes(1), randomBytes(2)];
  const body = JSON.stringify({
    created: 1,
    data: images.map((b, i) => ({ revised_prompt: `p "b64_json": ${i}`, b64_json: b.toString('base64') })),
  });

  it('decodes every b64_json whatever the chunking, and keeps the rest of the JSON', async () => {
    for (const size of [1, 2, 3, 7, 64, 1000, body.length]) {
      // With the Content-Length, each image decodes into a buffer sized from the bytes still to come.
      const parts = await read(body, size, 1 << 20, size % 2 ? Buffer.byteLength(body) : undefined);
      assert.equal(parts.images.length, 3);
      parts.images.forEach((bytes, i) => assert.deepEqual(Buffer.from(bytes), images[i]));
      const parsed = JSON.parse(parts.json) as { data: Array<{ b64_json: string; revised_prompt: string }> };
      assert.deepEqual(
        parsed.data.map((d) => d.b64_json),
        ['#0', '#1', '#2'],
      );
      assert.equal(parsed.data[0].revised_prompt, 'p "b64_json": 0');
    }
  });

  it('handles escaped slashes, line breaks, whitespace around the colon and data URIs', async () => {
    const b64 = images[0].toString('base64');
    // Line breaks first, so no break lands inside an escaped slash.
    const escaped = b64.replace(/(.{76})/g, '$1\\n').replace(/\//g, '\\/');
    const text = `{"data":[{"b64_json" : \t"${escaped}"},{"b64_json":"data:image/png;base64,${b64}"}]}`;
    for (const size of [1, 5, 100, text.length]) {
      const parts = await read(text, size);
      assert.deepEqual(Buffer.from(parts.images[0]), images[0]);
      assert.deepEqual(Buffer.from(parts.images[1]), images[0]);
    }
  });

  it('decodes an image of many megabytes without a Content-Length across its segments, byte for byte', async () => {
    // 1 + 2 + 4 + 8 MB segments, and part of a fifth: every segment boundary falls inside a quartet's bytes.
    const large = randomBytes(17 * (1 << 20) + 5);
    const text = JSON.stringify({ data: [{ b64_json: large.toString('base64') }, { b64_json: 'AAEC' }] });
    for (const size of [65_536, 1_000_003]) {
      const parts = await read(text, size, 32 << 20);
      assert.equal(parts.images.length, 2);
      assert.ok(Buffer.from(parts.images[0]).equals(large), `pieces of ${size}`);
      assert.deepEqual(Buffer.from(parts.images[1]), Buffer.from([0, 1, 2]));
    }
    // The limit holds across segments: one byte over is refused, the exact size is taken.
    await assert.rejects(read(text, 65_536, large.length - 1), ImageTooLargeError);
    assert.equal((await read(text, 65_536, large.length)).images[0].length, large.length);
  });

  it('leaves bodies without images untouched', async () => {
    const text = '{"error":{"message":"b64_json is not allowed","code":"x"}}';
    assert.deepEqual(await read(text, 3), { json: text, images: [] });
  });

  it('stops once an image is larger than the limit, and refuses data URIs that are not base64', async () => {
    await assert.rejects(read(body, 100, 2999), ImageTooLargeError);
    await assert.rejects(read('{"data":[{"b64_json":"data:image/png,abcd"}]}', 4), ImageNotBase64Error);
  });
});
