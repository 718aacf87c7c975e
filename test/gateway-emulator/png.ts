// Minimal PNG encoder (8-bit RGB, filter 0) on node:zlib, with a table CRC32.
import { randomFillSync } from 'node:crypto';
import * as zlib from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 (IEEE) of the bytes, continuing from `crc` (pass the previous result to chain). */
export function crc32(bytes: Uint8Array, crc = 0): number {
  // zlib.crc32 exists from Node 20.15 and is several times faster on tens of MB of noise.
  const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  if (typeof native === 'function') return native(bytes, crc);
  return tableCrc32(bytes, crc);
}

/** The portable table implementation of crc32. */
export function tableCrc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** IDAT is split so no single chunk is huge, as common encoders do. */
const IDAT_MAX = 1 << 20;

/** One PNG chunk: length, type, data, CRC over type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, tail]);
}

/** Encodes raw scanlines (each starting with its filter byte) as an RGB PNG. */
export function encodePng(width: number, height: number, scanlines: Buffer, level: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const compressed = zlib.deflateSync(scanlines, { level });
  const parts = [SIGNATURE, chunk('IHDR', ihdr)];
  for (let at = 0; at < compressed.length; at += IDAT_MAX) {
    parts.push(chunk('IDAT', compressed.subarray(at, at + IDAT_MAX)));
  }
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

export type Rgb = readonly [number, number, number];

/** A scanline of `width` pixels: the left part in `left`, the rest in `right`. */
function twoToneRow(width: number, left: Rgb, right: Rgb, split: number): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) {
    const c = x < split ? left : right;
    row[1 + x * 3] = c[0];
    row[2 + x * 3] = c[1];
    row[3 + x * 3] = c[2];
  }
  return row;
}

/**
 * A mostly flat image in four quadrants of the given colours. Rows repeat, so building is a few memcpys
 * and deflate level 1 stays fast even at 4096x4096.
 */
export function quadrantPng(width: number, height: number, colours: readonly [Rgb, Rgb, Rgb, Rgb]): Buffer {
  const split = Math.floor(width / 2);
  const top = twoToneRow(width, colours[0], colours[1], split);
  const bottom = twoToneRow(width, colours[2], colours[3], split);
  const rowLength = top.length;
  const raw = Buffer.allocUnsafe(rowLength * height);
  const middle = Math.floor(height / 2);
  for (let y = 0; y < height; y++) (y < middle ? top : bottom).copy(raw, y * rowLength);
  return encodePng(width, height, raw, 1);
}

/** Random RGB noise, which does not compress, so the PNG is as large as the raw pixels. */
export function noisePng(width: number, height: number): Buffer {
  const rowLength = 1 + width * 3;
  const raw = Buffer.allocUnsafe(rowLength * height);
  randomFillSync(raw);
  for (let y = 0; y < height; y++) raw[y * rowLength] = 0; // filter type None
  return encodePng(width, height, raw, 0);
}
