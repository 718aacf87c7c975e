/**
 * Pixel dimensions read from an encoded image's header, for PNG, JPEG and WebP: tests use it to check the
 * images the extension wrote. Every read is bounds-checked: the bytes may be truncated or hostile.
 */
import type { ImageFormat } from '../../src/gateway/types';

/** The format and size of an image. */
interface ImageDimensions {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Width and height from the header of a PNG, JPEG or WebP image; undefined when unreadable. */
export function readImageDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  return readPng(bytes) ?? readJpeg(bytes) ?? readWebp(bytes);
}

/** Width and height of a PNG; throws when the bytes are not a readable PNG (the check is part of the test). */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const info = readImageDimensions(bytes);
  if (info?.format !== 'png') throw new Error(`not a PNG (${info?.format ?? 'unreadable'})`);
  return { width: info.width, height: info.height };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function at(bytes: Uint8Array, offset: number, expected: readonly number[]): boolean {
  return offset + expected.length <= bytes.length && expected.every((b, i) => bytes[offset + i] === b);
}

function ascii(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

const u16be = (b: Uint8Array, o: number): number => (b[o] << 8) | b[o + 1];
const u16le = (b: Uint8Array, o: number): number => b[o] | (b[o + 1] << 8);
const u24le = (b: Uint8Array, o: number): number => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16);
const u32be = (b: Uint8Array, o: number): number =>
  ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;

function result(format: ImageFormat, width: number, height: number): ImageDimensions | undefined {
  return width > 0 && height > 0 ? { format, width, height } : undefined;
}

/** PNG: the first chunk must be IHDR, whose data starts with width and height (big-endian). */
function readPng(b: Uint8Array): ImageDimensions | undefined {
  if (!at(b, 0, PNG_SIGNATURE) || !at(b, 12, ascii('IHDR')) || b.length < 24) return undefined;
  return result('png', u32be(b, 16), u32be(b, 20));
}

/**
 * JPEG: walk the marker segments until a start-of-frame (SOFn), whose data is
 * precision(1), height(2), width(2). Stops at start-of-scan, after which entropy-coded data follows.
 */
function readJpeg(b: Uint8Array): ImageDimensions | undefined {
  if (!at(b, 0, [0xff, 0xd8])) return undefined;
  let o = 2;
  while (o + 1 < b.length) {
    if (b[o] !== 0xff) return undefined;
    const marker = b[o + 1];
    if (marker === 0xff) {
      o++; // fill byte before a marker
      continue;
    }
    o += 2;
    // Markers without a length field: TEM, RST0–7, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;
    if (marker === 0xd9 || marker === 0xda || o + 2 > b.length) return undefined;
    const length = u16be(b, o);
    if (length < 2) return undefined;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return o + 7 <= b.length ? result('jpeg', u16be(b, o + 5), u16be(b, o + 3)) : undefined;
    o += length;
  }
  return undefined;
}

/** WebP: RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended). */
function readWebp(b: Uint8Array): ImageDimensions | undefined {
  if (!at(b, 0, ascii('RIFF')) || !at(b, 8, ascii('WEBP'))) return undefined;
  const data = 20; // after the chunk's fourcc (12) and size (16)
  if (at(b, 12, ascii('VP8 '))) {
    // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height (2 bits of scale above).
    if (!at(b, data + 3, [0x9d, 0x01, 0x2a]) || b.length < data + 10) return undefined;
    return result('webp', u16le(b, data + 6) & 0x3fff, u16le(b, data + 8) & 0x3fff);
  }
  if (at(b, 12, ascii('VP8L'))) {
    // Signature 0x2F, then width-1 and height-1 as two 14-bit fields, little-endian bit order.
    if (b[data] !== 0x2f || b.length < data + 5) return undefined;
    const bits = (b[data + 1] | (b[data + 2] << 8) | (b[data + 3] << 16) | (b[data + 4] << 24)) >>> 0;
    return result('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (at(b, 12, ascii('VP8X'))) {
    // Flags (4 bytes), then canvas width-1 and height-1 as 24-bit little-endian values.
    if (b.length < data + 10) return undefined;
    return result('webp', u24le(b, data + 4) + 1, u24le(b, data + 7) + 1);
  }
  return undefined;
}
