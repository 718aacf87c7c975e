// Tiny but valid JPEG and WebP files, built bit by bit, for the image-jpeg / image-webp faults.

/** Collects bits least-significant first (WebP VP8L order). */
class LsbBitWriter {
  private readonly bytes: number[] = [];
  private bitCount = 0;

  /** Appends the low `n` bits of `value`. */
  write(value: number, n: number): void {
    for (let i = 0; i < n; i++) {
      if (this.bitCount % 8 === 0) this.bytes.push(0);
      if ((value >> i) & 1) this.bytes[this.bytes.length - 1] |= 1 << (this.bitCount % 8);
      this.bitCount++;
    }
  }

  toBuffer(): Buffer {
    return Buffer.from(this.bytes);
  }
}

/**
 * A lossless WebP (VP8L) of one solid colour: no transforms, no colour cache, and five "simple" prefix
 * codes of one symbol each, so every pixel takes zero bits.
 */
export function solidWebp(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const bits = new LsbBitWriter();
  bits.write(0x2f, 8); // VP8L signature
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // alpha is not used
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [rgb[1], rgb[0], rgb[2], 255]) {
    bits.write(1, 1); // simple code
    bits.write(0, 1); // one symbol
    bits.write(1, 1); // 8-bit symbol
    bits.write(symbol, 8);
  }
  bits.write(1, 1); // distance code: simple, one 1-bit symbol 0
  bits.write(0, 1);
  bits.write(0, 1);
  bits.write(0, 1);
  const data = bits.toBuffer();
  const padded = data.length % 2 === 1 ? Buffer.concat([data, Buffer.alloc(1)]) : data;
  const header = Buffer.alloc(20);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + 8 + padded.length, 4);
  header.write('WEBP', 8, 'latin1');
  header.write('VP8L', 12, 'latin1');
  header.writeUInt32LE(data.length, 16);
  return Buffer.concat([header, padded]);
}

/** Collects bits most-significant first (JPEG entropy order), with 0xFF byte stuffing. */
function jpegEntropy(codes: Array<[number, number]>): Buffer {
  const out: number[] = [];
  let current = 0;
  let used = 0;
  const flush = (): void => {
    out.push(current);
    if (current === 0xff) out.push(0x00);
    current = 0;
    used = 0;
  };
  for (const [value, n] of codes) {
    for (let i = n - 1; i >= 0; i--) {
      current = (current << 1) | ((value >> i) & 1);
      if (++used === 8) flush();
    }
  }
  if (used > 0) {
    current = (current << (8 - used)) | ((1 << (8 - used)) - 1); // pad with ones
    flush();
  }
  return Buffer.from(out);
}

/** A JPEG segment: marker, big-endian length (including itself), payload. */
function segment(marker: number, payload: number[]): Buffer {
  const length = payload.length + 2;
  return Buffer.from([0xff, marker, length >> 8, length & 0xff, ...payload]);
}

/**
 * A baseline greyscale 8x8 JPEG of one grey level: a single block whose only coefficient is DC, with
 * one-symbol Huffman tables (DC category, AC end-of-block).
 */
export function solidJpeg(grey: number): Buffer {
  const dc = 8 * (Math.max(0, Math.min(255, Math.round(grey))) - 128); // DC of a flat block, quantiser 1
  const category = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1;
  const extra = dc >= 0 ? dc : dc + (1 << category) - 1; // negative values are stored one's-complement
  // One code of length 1 ('0') for the single symbol of each table.
  const dht = (tableClass: number, symbol: number): Buffer =>
    segment(0xc4, [tableClass << 4, 1, ...new Array<number>(15).fill(0), symbol]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    segment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]),
    dht(0, category),
    dht(1, 0x00),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    jpegEntropy([
      [0, 1],
      [extra, category],
      [0, 1],
    ]),
    Buffer.from([0xff, 0xd9]),
  ]);
}
