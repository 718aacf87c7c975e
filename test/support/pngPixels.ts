/**
 * Pixels of a PNG screenshot (8-bit RGB or RGBA, not interlaced: what Chromium writes) decoded with node:zlib,
 * and the WCAG contrast of text measured on them: tests read the colours the user really sees.
 */
import { inflateSync } from 'node:zlib';

/** Decoded pixels, 4 bytes (RGBA) each, row by row. */
export interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Decodes an 8-bit RGB or RGBA PNG; throws on anything else (the check is part of the test). */
export function decodePng(bytes: Uint8Array): Pixels {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset + 8 <= buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colour, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
        throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? rows[y * stride + x - channels] : 0;
      const b = y > 0 ? rows[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? rows[(y - 1) * stride + x - channels] : 0;
      rows[y * stride + x] = (line[x] + unfilter(filter, a, b, c)) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba.set(rows.subarray(i * channels, i * channels + 3), i * 4);
    rgba[i * 4 + 3] = channels === 4 ? rows[i * channels + 3] : 255;
  }
  return { width, height, rgba };
}

function unfilter(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`bad PNG filter ${filter}`);
  }
}

/** WCAG relative luminance of an sRGB colour. */
export function luminance([r, g, b]: readonly number[]): number {
  const channel = (v: number): number => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** What a text measurement found: the background, the text colour and their contrast. */
export interface TextContrast {
  background: number[];
  text: number[];
  ratio: number;
  /** How many pixels differ from the background (the glyphs and their antialiasing). */
  glyphPixels: number;
}

/**
 * The contrast of the text inside a rectangle of a screenshot: the background is the commonest colour; the
 * text colour is the glyph pixel at the 90th percentile of contrast against it, so that antialiased edges do
 * not lower it and a stray pixel does not raise it.
 */
export function textContrast(
  pixels: Pixels,
  box: { x: number; y: number; width: number; height: number },
): TextContrast {
  const counts = new Map<number, number>();
  const colours: number[][] = [];
  const x0 = Math.max(0, Math.round(box.x));
  const y0 = Math.max(0, Math.round(box.y));
  const x1 = Math.min(pixels.width, Math.round(box.x + box.width));
  const y1 = Math.min(pixels.height, Math.round(box.y + box.height));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * pixels.width + x) * 4;
      const colour = [pixels.rgba[i], pixels.rgba[i + 1], pixels.rgba[i + 2]];
      const key = (colour[0] << 16) | (colour[1] << 8) | colour[2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
      colours.push(colour);
    }
  }
  if (colours.length === 0) throw new Error('empty rectangle');
  const commonest = [...counts.entries()].sort((p, q) => q[1] - p[1])[0][0];
  const background = [(commonest >> 16) & 0xff, (commonest >> 8) & 0xff, commonest & 0xff];
  const glyphs = colours
    .map((colour) => ({ colour, ratio: contrastRatio(colour, background) }))
    .filter((g) => g.ratio > 1.1)
    .sort((p, q) => p.ratio - q.ratio);
  if (glyphs.length === 0) return { background, text: background, ratio: 1, glyphPixels: 0 };
  const pick = glyphs[Math.min(glyphs.length - 1, Math.floor(glyphs.length * 0.9))];
  return { background, text: pick.colour, ratio: pick.ratio, glyphPixels: glyphs.length };
}

/** The colour of one pixel. */
export function pixelAt(pixels: Pixels, x: number, y: number): number[] {
  const i = (Math.round(y) * pixels.width + Math.round(x)) * 4;
  return [pixels.rgba[i], pixels.rgba[i + 1], pixels.rgba[i + 2]];
}

/** The share of the pixels of row `y`, from `x` over `width`, that visibly differ from `colour`. */
export function rowDifference(
  pixels: Pixels,
  x: number,
  width: number,
  y: number,
  colour: readonly number[],
): number {
  let differing = 0;
  const count = Math.max(1, Math.round(width));
  for (let i = 0; i < count; i++) {
    const c = pixelAt(pixels, x + i, y);
    if (Math.abs(c[0] - colour[0]) + Math.abs(c[1] - colour[1]) + Math.abs(c[2] - colour[2]) > 30)
      differing++;
  }
  return differing / count;
}
