// Pure parts of the emulator: PNG/JPEG/WebP encoders, fault parsing and stream planning.
import * as assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { collectFaults, parseFaultText } from '../../gateway-emulator/faults';
import { crc32, noisePng, quadrantPng, tableCrc32 } from '../../gateway-emulator/png';
import { expectedAnswer, expectedStreamText } from '../../gateway-emulator/index';
import { solidJpeg, solidWebp } from '../../gateway-emulator/tinyImages';
import { chatBody } from './helpers';

/** Splits a PNG into its chunks, checking every CRC. */
function pngChunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const data = png.subarray(at + 8, at + 8 + length);
    assert.equal(
      png.readUInt32BE(at + 8 + length),
      tableCrc32(png.subarray(at + 4, at + 8 + length)),
      `CRC of ${type}`,
    );
    chunks.push({ type, data });
    at += 12 + length;
  }
  return chunks;
}

describe('gateway emulator: encoders and planning', () => {
  it('computes CRC-32 like zlib', () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    assert.equal(tableCrc32(data), 0x414fa339);
    assert.equal(crc32(data), 0x414fa339);
    assert.equal(tableCrc32(data.subarray(10), tableCrc32(data.subarray(0, 10))), 0x414fa339);
  });

  it('encodes a valid quadrant PNG whose pixels decode back', () => {
    const colours = [
      [1, 2, 3],
      [4, 5, 6],
      [7, 8, 9],
      [10, 11, 12],
    ] as const;
    const png = quadrantPng(6, 4, colours);
    const chunks = pngChunks(png);
    assert.deepEqual(
      chunks.map((c) => c.type),
      ['IHDR', 'IDAT', 'IEND'],
    );
    assert.deepEqual([...chunks[0].data.subarray(8)], [8, 2, 0, 0, 0]);
    const raw = zlib.inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
    const row = 1 + 6 * 3;
    const pixel = (x: number, y: number): number[] => [
      ...raw.subarray(y * row + 1 + x * 3, y * row + 4 + x * 3),
    ];
    assert.deepEqual(pixel(0, 0), [1, 2, 3]);
    assert.deepEqual(pixel(5, 1), [4, 5, 6]);
    assert.deepEqual(pixel(2, 2), [7, 8, 9]);
    assert.deepEqual(pixel(3, 3), [10, 11, 12]);
  });

  it('builds a 4096x4096 PNG quickly, and noise that does not compress', () => {
    const started = Date.now();
    const flat = quadrantPng(4096, 4096, [
      [9, 9, 9],
      [0, 0, 0],
      [1, 1, 1],
      [2, 2, 2],
    ]);
    assert.ok(Date.now() - started < 3000);
    assert.ok(flat.length < 2_000_000);
    const noise = noisePng(512, 512);
    assert.ok(noise.length > 512 * 512 * 3);
    assert.ok(pngChunks(noise).filter((c) => c.type === 'IDAT').length >= 1);
  });

  it('builds structurally valid tiny JPEG and WebP files', () => {
    const jpeg = solidJpeg(37);
    assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    assert.ok(sof > 0);
    assert.deepEqual([jpeg.readUInt16BE(sof + 5), jpeg.readUInt16BE(sof + 7)], [8, 8]);
    const webp = solidWebp(16, 16, [200, 30, 90]);
    assert.equal(webp.subarray(12, 16).toString('latin1'), 'VP8L');
    assert.equal(webp[20], 0x2f);
    const bits = webp.readUInt32LE(21);
    assert.equal((bits & 0x3fff) + 1, 16);
    assert.equal(((bits >> 14) & 0x3fff) + 1, 16);
  });

  it('parses fault specs and dedupes markers repeated in the history', () => {
    assert.deepEqual(
      parseFaultText(' status:503:reseller , retry-after:2 ').map((s) => [s.name, s.args]),
      [
        ['status', ['503', 'reseller']],
        ['retry-after', ['2']],
      ],
    );
    const faults = collectFaults('keepalive', [
      'a [[fault:flaky:503:1]]',
      'b [[fault:flaky:503:1]] [[fault:cr]]',
    ]);
    assert.deepEqual(
      faults.specs.map((s) => s.name),
      ['keepalive', 'flaky', 'cr'],
    );
    assert.equal(faults.get('flaky')?.source, 'flaky:503:1');
    assert.deepEqual(collectFaults(undefined, ['oops [[fault:nope]]']).unknown, ['nope']);
  });

  it('predicts what a client reads under stream faults', () => {
    const body = chatBody('plan');
    const full = expectedStreamText(body, collectFaults(undefined, []));
    assert.equal(full.content, expectedAnswer(body));
    assert.ok(full.done);
    assert.equal(full.finishReason, 'stop');
    const cut = expectedStreamText(body, collectFaults('reset-mid-stream', []), 5);
    assert.equal(cut.content, Array.from(expectedAnswer(body)).slice(0, 10).join(''));
    assert.equal(cut.done, false);
  });
});
