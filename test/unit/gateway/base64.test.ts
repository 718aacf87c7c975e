// Images whose b64_json is not valid base64 (issue 15, item 4): Buffer.from(…, 'base64') would skip the bad
// characters and misplaced padding and hand on a corrupt image.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createGatewayClient } from '../../../src/gateway';
import { MalformedResponseError } from '../../../src/gateway/errors';
import { ImageBodyReader, ImageNotBase64Error } from '../../../src/gateway/imageBody';
import { decodeBase64Image } from '../../../src/gateway/images';
import { KEY, rejection, tinyServer } from './helpers';

const PNG_B64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Broken base64, each the way a server or a proxy can break it. */
const BROKEN: Record<string, string> = {
  'a character outside the alphabet': PNG_B64.replace('AAAA', 'AA*A'),
  'a dot in the middle': `${PNG_B64.slice(0, 40)}.${PNG_B64.slice(41)}`,
  'a non-ASCII letter': `${PNG_B64.slice(0, 20)}é${PNG_B64.slice(21)}`,
  'padding in the middle': `AB==${PNG_B64}`,
  'too much padding': `${PNG_B64}=`,
  'padding that does not complete a quartet': 'AAE==',
  'a lone character at the end': PNG_B64.slice(0, -3),
  'both alphabets mixed': 'AA-C+AEC',
  'only padding': '====',
  'a data URI with a bad character': `data:image/png;base64,${PNG_B64.replace('AAAA', 'AA!A')}`,
  // Node's decoder cuts U+0141 to 0x41 ('A') instead of skipping it: the decoded length would not tell.
  'an escaped character above U+00FF': `${PNG_B64.slice(0, 8)}\\u0141${PNG_B64.slice(9)}`,
  'an escaped non-ASCII character': `${PNG_B64.slice(0, 8)}\\u00e9${PNG_B64.slice(9)}`,
};

/** Valid base64 in every form servers use, with the bytes it stands for. */
const VALID: Record<string, string> = {
  padded: 'AAE=',
  'two padding characters': 'AA==',
  unpadded: 'AAE',
  'line breaks (escaped in JSON)': 'AAEC\\nAAEC\\r\\nAA==',
  'url-safe alphabet': '-_-_',
  'a whole PNG': PNG_B64,
};

async function readBody(text: string, size: number): Promise<Uint8Array[]> {
  const reader = new ImageBodyReader(1 << 20);
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) {
    reader.push(bytes.subarray(at, at + size));
    if (reader.hasUnjoined) await reader.joinImages();
  }
  return (await reader.end()).images;
}

describe('gateway: strict base64 for images', () => {
  for (const [name, b64] of Object.entries(BROKEN)) {
    it(`refuses ${name}, whatever the chunking and in the whole-string decoder`, async () => {
      for (const size of [1, 3, 7, 4096]) {
        await assert.rejects(
          readBody(`{"data":[{"b64_json":"${b64}"}]}`, size),
          ImageNotBase64Error,
          `${size}`,
        );
      }
      assert.throws(() => decodeBase64Image(b64, 1 << 20), /broken image/);
    });
  }

  for (const [name, b64] of Object.entries(VALID)) {
    it(`accepts ${name}`, async () => {
      const plain = JSON.parse(`"${b64}"`) as string;
      const expected = Buffer.from(plain, 'base64');
      for (const size of [1, 3, 4096]) {
        const [image] = await readBody(`{"data":[{"b64_json":"${b64}"}]}`, size);
        assert.deepEqual(Buffer.from(image), expected);
      }
      assert.deepEqual(Buffer.from(decodeBase64Image(plain, 1 << 20)), expected);
    });
  }

  it('refuses any byte outside the alphabet at any place of a long image, whatever the chunking', async () => {
    // The reader finds such bytes from the decoded length, not by a search of the text: every byte value
    // is tried, at places spread over the text and across chunk and quartet boundaries.
    const b64 = randomBytes(30_000).toString('base64');
    const allowed = new Set(
      Buffer.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=\t\n\r "\\'),
    );
    let tried = 0;
    for (let byte = 0; byte < 256; byte++) {
      if (allowed.has(byte)) continue;
      const at = (byte * 7919) % b64.length;
      const body = Buffer.concat([
        Buffer.from(`{"data":[{"b64_json":"${b64.slice(0, at)}`),
        Buffer.from([byte]),
        Buffer.from(`${b64.slice(at + 1)}"}]}`),
      ]);
      const reader = new ImageBodyReader(1 << 20, byte % 2 ? body.length : undefined);
      const chunk = 1 + (byte % 13) * 997;
      await assert.rejects(
        (async () => {
          for (let from = 0; from < body.length; from += chunk) {
            reader.push(body.subarray(from, from + chunk));
            if (reader.hasUnjoined) await reader.joinImages();
          }
          await reader.end();
        })(),
        ImageNotBase64Error,
        `byte ${byte} at ${at}`,
      );
      tried++;
    }
    assert.ok(tried > 180, `${tried} bytes tried`);
  });

  it('generateImages rejects a broken image with an error that says so', async () => {
    const gateway = await tinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ created: 1, data: [{ b64_json: BROKEN['a character outside the alphabet'] }] }),
      );
    });
    const client = createGatewayClient({ baseUrl: gateway.url, apiKey: KEY, retry: { maxRetries: 0 } });
    try {
      const error = await rejection(client.generateImages({ prompt: 'x' }));
      assert.ok(error instanceof MalformedResponseError, String(error));
      assert.match(error.message, /The gateway sent a broken image/);
    } finally {
      await client.close();
      await gateway.close();
    }
  });
});
