import * as assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { readImageDimensions } from '../../support/pngInfo';

const bytes = (...parts: Array<number[] | Uint8Array | string>): Uint8Array =>
  Uint8Array.from(
    parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : [...p])),
  );
const u32be = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16be = (n: number): number[] => [(n >>> 8) & 255, n & 255];
const u16le = (n: number): number[] => [n & 255, (n >>> 8) & 255];
const u24le = (n: number): number[] => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255];
const u32le = (n: number): number[] => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = bytes(type, data);
  return bytes(u32be(data.length), typed, u32be(crc32(typed)));
}

/** A complete, valid RGB PNG of the given size (all black). */
function png(width: number, height: number): Uint8Array {
  const raw = new Uint8Array((width * 3 + 1) * height); // filter byte 0 + pixels per row
  return bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    chunk('IHDR', bytes(u32be(width), u32be(height), [8, 2, 0, 0, 0])),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array()),
  );
}

/** A JPEG header: APP0, DQT, DHT, fill bytes, then the frame header, then the scan. */
function jpeg(width: number, height: number, sof = 0xc0): Uint8Array {
  return bytes(
    [0xff, 0xd8],
    [0xff, 0xe0],
    u16be(16),
    'JFIF\0',
    [1, 1, 0, 0, 1, 0, 1, 0, 0],
    [0xff, 0xdb],
    u16be(67),
    new Uint8Array(65).fill(1),
    [0xff, 0xc4],
    u16be(20),
    new Uint8Array(18).fill(0xc0), // a DHT whose payload looks like SOF markers must not fool the scan
    [0xff, 0xff, 0xff],
    [0xff, sof],
    u16be(17),
    [8],
    u16be(height),
    u16be(width),
    [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
    [0xff, 0xda],
    u16be(12),
    new Uint8Array(10),
    [0x12, 0x34, 0xff, 0xd9],
  );
}

function riff(fourcc: string, payload: Uint8Array): Uint8Array {
  return bytes('RIFF', u32le(4 + 8 + payload.length), 'WEBP', fourcc, u32le(payload.length), payload);
}

const vp8 = (w: number, h: number, scale = 0): Uint8Array =>
  riff(
    'VP8 ',
    bytes([0x50, 0x01, 0x00], [0x9d, 0x01, 0x2a], u16le(w | (scale << 14)), u16le(h), new Uint8Array(8)),
  );
const vp8l = (w: number, h: number): Uint8Array =>
  riff('VP8L', bytes([0x2f], u32le(((w - 1) | ((h - 1) << 14) | (1 << 28)) >>> 0), new Uint8Array(4)));
const vp8x = (w: number, h: number): Uint8Array =>
  riff('VP8X', bytes([0x10, 0, 0, 0], u24le(w - 1), u24le(h - 1)));

describe('images/pngInfo readImageDimensions', () => {
  it('reads PNG dimensions from IHDR', () => {
    assert.deepEqual(readImageDimensions(png(3, 2)), { format: 'png', width: 3, height: 2 });
    assert.deepEqual(readImageDimensions(png(1536, 1024).slice(0, 24)), {
      format: 'png',
      width: 1536,
      height: 1024,
    });
  });

  it('reads baseline and progressive JPEG frames, skipping other segments', () => {
    assert.deepEqual(readImageDimensions(jpeg(1024, 1536)), { format: 'jpeg', width: 1024, height: 1536 });
    assert.deepEqual(readImageDimensions(jpeg(4096, 4096, 0xc2)), {
      format: 'jpeg',
      width: 4096,
      height: 4096,
    });
    assert.deepEqual(readImageDimensions(jpeg(17, 9, 0xc1)), { format: 'jpeg', width: 17, height: 9 });
  });

  it('reads WebP VP8, VP8L and VP8X headers', () => {
    assert.deepEqual(readImageDimensions(vp8(1024, 768, 2)), { format: 'webp', width: 1024, height: 768 });
    assert.deepEqual(readImageDimensions(vp8l(2048, 2048)), { format: 'webp', width: 2048, height: 2048 });
    assert.deepEqual(readImageDimensions(vp8l(1, 16384)), { format: 'webp', width: 1, height: 16384 });
    assert.deepEqual(readImageDimensions(vp8x(4096, 1)), { format: 'webp', width: 4096, height: 1 });
    assert.deepEqual(readImageDimensions(vp8x(16777216, 300)), {
      format: 'webp',
      width: 16777216,
      height: 300,
    });
  });

  it('returns undefined for unknown, empty and truncated data', () => {
    assert.equal(readImageDimensions(new Uint8Array()), undefined);
    assert.equal(readImageDimensions(bytes('GIF89a', new Uint8Array(20))), undefined);
    assert.equal(readImageDimensions(png(3, 2).slice(0, 20)), undefined);
    const j = jpeg(10, 10);
    const sofAt = j.findIndex((b, i) => b === 0xff && j[i + 1] === 0xc0);
    assert.equal(readImageDimensions(j.slice(0, sofAt + 6)), undefined);
    assert.equal(readImageDimensions(bytes([0xff, 0xd8, 0xff, 0xda], new Uint8Array(10))), undefined);
    assert.equal(readImageDimensions(vp8(10, 10).slice(0, 27)), undefined);
    assert.equal(readImageDimensions(riff('ALPH', new Uint8Array(10))), undefined);
  });

  it('never throws on random or mutilated bytes', () => {
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 0x1000000;
    const seeds = [png(5, 5), jpeg(5, 5), vp8(5, 5), vp8l(5, 5), vp8x(5, 5)];
    for (let i = 0; i < 3000; i++) {
      const base = seeds[i % seeds.length].slice(0, Math.floor(random() * 80));
      for (let k = 0; k < 4; k++)
        if (base.length > 0) base[Math.floor(random() * base.length)] = random() * 256;
      const result = readImageDimensions(base);
      if (result) assert.ok(result.width > 0 && result.height > 0);
    }
  });
});
