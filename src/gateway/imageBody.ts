/**
 * Reads an images response as it arrives: every `"b64_json"` string is decoded from base64 chunk by chunk
 * and left out of the JSON text, which keeps only a `"#<index>"` stand-in. A 4096×4096 PNG is about 67 MB
 * of base64; holding the body, its string and JSON.parse's copy before decoding took several times the
 * image's size and blocked the event loop for a long time. Here the peak is about the decoded bytes, and
 * the work is spread over the body's chunks (measurements: docs/performance.md, Design changes).
 *
 * Without a Content-Length the image's size is unknown until its closing quote. Growing one buffer by
 * doubling copied up to half the image at once into fresh memory (a long block, most of it page faults);
 * the image is decoded into segments instead, each allocated as data arrives. Its segments are joined once
 * it ends, by `joinImages`, a segment at a time with the event loop free in between (one large copy at
 * once blocks too, for the same reason).
 */

import {
  BASE64_WHITESPACE,
  Base64Check,
  ImageNotBase64Error,
  base64DecodedLength,
  hasBase64Whitespace,
} from './base64';

export { ImageNotBase64Error } from './base64';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KEY = 'b64_json';
const DATA_URI = /^data:([^,]*?),/i;
/** A data-URI prefix longer than this is not one. */
const MAX_PREFIX = 256;
const EMPTY = Buffer.alloc(0);
/** Without a Content-Length, an image's first segment has this size; each next one doubles, up to the cap. */
const FIRST_SEGMENT = 1 << 20;
const MAX_SEGMENT = 8 << 20;
/** Bytes copied between two turns of the event loop when joining an image. */
const JOIN_SLICE = 4 << 20;
const ESCAPES: Record<string, string> = {
  '/': '/',
  '\\': '\\',
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  b: '',
  f: '',
};

/** What the reader produced: the JSON text without the images, and the decoded images it refers to. */
export interface ImageBodyParts {
  /** The response's JSON text; each b64_json value is replaced by `"#<index into images>"`. */
  json: string;
  images: Uint8Array[];
}

/** Thrown by `push` when an image decodes to more than the limit. */
export class ImageTooLargeError extends Error {}

/** An image whose text has ended, still in pieces; `joinImages` puts it in `images[index]`. */
interface Unjoined {
  index: number;
  pieces: Buffer[];
  size: number;
}

/**
 * Feed it the body's chunks with `push`, awaiting `joinImages` whenever `hasUnjoined` is true, then
 * await `end`.
 */
export class ImageBodyReader {
  private readonly json: Buffer[] = [];
  private readonly images: Uint8Array[] = [];
  private unjoined: Unjoined[] = [];
  // Outside the images: a small tokenizer that spots a "b64_json" key followed by ':' and a string.
  private inString = false;
  private escaped = false;
  private stringText = '';
  private keyDone = false;
  private awaitingValue = false;
  // Inside an image value.
  private inImage = false;
  private imageEscape = '';
  private head: string | undefined = '';
  private carry = '';
  private check = new Base64Check(true);
  /** Full segments of the current image, and the one being written (`used` bytes of it). */
  private segments: Buffer[] = [];
  private target = EMPTY;
  private used = 0;
  /** Bytes of the current image decoded so far, over all its segments. */
  private size = 0;
  /** Body bytes pushed before the current chunk. */
  private consumed = 0;

  /**
   * @param maxImageBytes the largest decoded image accepted.
   * @param bodyBytes the body's Content-Length when known: an image then decodes straight into one buffer
   *   sized from the bytes still to come (pages never written are never committed), with no final copy.
   */
  constructor(
    private readonly maxImageBytes: number,
    private readonly bodyBytes?: number,
  ) {}

  /** Takes the next chunk of the body. */
  push(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let at = 0;
    while (at < bytes.length) at = this.inImage ? this.imageFrom(bytes, at) : this.jsonFrom(bytes, at);
    this.consumed += bytes.length;
  }

  /** The JSON text and the images, once the whole body was pushed. */
  async end(): Promise<ImageBodyParts> {
    if (this.inImage) this.closeImage();
    await this.joinImages();
    return { json: Buffer.concat(this.json).toString('utf8'), images: this.images };
  }

  /** True when an ended image waits to be joined. */
  get hasUnjoined(): boolean {
    return this.unjoined.length > 0;
  }

  /** Joins each ended image into one exact buffer, a piece at a time, yielding to the event loop. */
  async joinImages(): Promise<void> {
    for (const { index, pieces, size } of this.unjoined.splice(0)) {
      const image = Buffer.allocUnsafe(size);
      let at = 0;
      for (const piece of pieces.splice(0)) {
        for (let from = 0; from < piece.length; from += JOIN_SLICE) {
          at += piece.copy(image, at, from, Math.min(piece.length, from + JOIN_SLICE));
          await yieldToEventLoop();
        }
      }
      this.images[index] = new Uint8Array(image.buffer, image.byteOffset, image.length);
    }
  }

  /** Copies JSON text up to the start of an image value (or the chunk's end); returns where it stopped. */
  private jsonFrom(bytes: Buffer, from: number): number {
    for (let i = from; i < bytes.length; i++) {
      const c = bytes[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          this.keyDone = this.stringText === KEY;
        } else if (this.stringText.length <= KEY.length) this.stringText += String.fromCharCode(c);
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (c === QUOTE && this.awaitingValue) {
        this.json.push(Buffer.from(bytes.subarray(from, i)));
        this.awaitingValue = false;
        this.openImage(this.consumed + i + 1);
        return i + 1;
      }
      this.awaitingValue = c === 0x3a && this.keyDone;
      this.keyDone = false;
      if (c === QUOTE) {
        this.inString = true;
        this.stringText = '';
      }
    }
    this.json.push(Buffer.from(bytes.subarray(from)));
    return bytes.length;
  }

  private openImage(bodyOffset: number): void {
    this.inImage = true;
    this.head = '';
    this.carry = '';
    this.check = new Base64Check(true);
    this.size = 0;
    this.used = 0;
    this.segments = [];
    const left = this.bodyBytes === undefined ? -1 : this.bodyBytes - bodyOffset;
    const capacity = left > 0 ? Math.ceil((left * 3) / 4) + 3 : FIRST_SEGMENT;
    this.target = Buffer.allocUnsafe(Math.min(capacity, this.maxImageBytes + 3));
  }

  /** Decodes image text up to its closing quote (or the chunk's end); returns where it stopped. */
  private imageFrom(bytes: Buffer, from: number): number {
    const quote = bytes.indexOf(QUOTE, from);
    const stop = quote < 0 ? bytes.length : quote;
    const slash = bytes.indexOf(BACKSLASH, from);
    if (this.imageEscape || (slash >= 0 && slash < stop)) return this.escapedFrom(bytes, from);
    this.text(bytes.toString('latin1', from, stop));
    if (quote < 0) return bytes.length;
    this.closeImage();
    return quote + 1;
  }

  /** The slow path, for image text with JSON escapes (`\/` from some servers, `\n` line breaks). */
  private escapedFrom(bytes: Buffer, from: number): number {
    let out = '';
    for (let i = from; i < bytes.length; i++) {
      const ch = String.fromCharCode(bytes[i]);
      if (this.imageEscape) {
        this.imageEscape += ch;
        const e = this.imageEscape;
        if (e[1] !== 'u') out += ESCAPES[e[1]] ?? '';
        else if (e.length < 6) continue;
        else {
          // Node's decoder cuts a character above U+00FF to its low byte instead of skipping it.
          const code = parseInt(e.slice(2), 16);
          if (!(code < 0x80)) throw new ImageNotBase64Error('a character outside the base64 alphabet');
          out += String.fromCharCode(code);
        }
        this.imageEscape = '';
      } else if (ch === '\\') this.imageEscape = ch;
      else if (ch === '"') {
        this.text(out);
        this.closeImage();
        return i + 1;
      } else out += ch;
    }
    this.text(out);
    return bytes.length;
  }

  /** Decodes the whole groups of four characters, keeping the rest for the next piece. */
  private text(piece: string): void {
    let text = piece;
    if (this.head !== undefined) {
      // A data: URI prefix (`data:image/png;base64,`) is dropped once it is complete.
      this.head += text;
      if (this.head.length < 5) return;
      if (this.head.slice(0, 5).toLowerCase() === 'data:') {
        const prefix = DATA_URI.exec(this.head);
        if (!prefix) {
          if (this.head.length > MAX_PREFIX) throw new ImageNotBase64Error('a data URI without a comma');
          return;
        }
        if (!/;base64$/i.test(prefix[1])) throw new ImageNotBase64Error('a data URI that is not base64');
        text = this.head.slice(prefix[0].length);
      } else text = this.head;
      this.head = undefined;
    }
    if (hasBase64Whitespace(text)) text = text.replace(BASE64_WHITESPACE, '');
    // The padding and the alphabets here; each character's place in the alphabet by `decode`.
    this.check.piece(text);
    if (this.carry) {
      // Complete the quartet left over from the last piece, so the rest decodes without a copy.
      const need = 4 - this.carry.length;
      if (text.length < need) {
        this.carry += text;
        return;
      }
      this.decode(this.carry + text.slice(0, need));
      text = text.slice(need);
    }
    const whole = text.length - (text.length % 4);
    if (whole) this.decode(whole === text.length ? text : text.slice(0, whole));
    this.carry = text.slice(whole);
  }

  /**
   * Decodes whole quartets of base64 text into the image's segments, starting a new one when full. A
   * character outside the alphabet is found here: the decoder skips it, so fewer bytes come out.
   */
  private decode(b64: string): void {
    let text = b64;
    while (text) {
      const room = this.target.length - this.used;
      // A quartet decodes to at most 3 bytes: what surely fits goes into this segment.
      const fits = Math.floor(room / 3) * 4;
      const piece = fits >= text.length ? text : text.slice(0, fits);
      if (piece) {
        const written = this.target.write(piece, this.used, 'base64');
        if (written !== base64DecodedLength(piece))
          throw new ImageNotBase64Error('a character outside the base64 alphabet');
        this.used += written;
        this.size += written;
        if (this.size > this.maxImageBytes) throw new ImageTooLargeError();
        text = text.slice(piece.length);
      }
      if (text) this.nextSegment();
    }
  }

  /** Keeps the written part of the current segment and starts a larger one. */
  private nextSegment(): void {
    if (this.size >= this.maxImageBytes) throw new ImageTooLargeError();
    this.segments.push(this.target.subarray(0, this.used));
    const next = Math.min(Math.max(this.target.length * 2, FIRST_SEGMENT), MAX_SEGMENT);
    this.target = Buffer.allocUnsafe(Math.min(next, this.maxImageBytes - this.size + 3));
    this.used = 0;
  }

  private closeImage(): void {
    if (this.head) {
      const head = this.head;
      this.head = undefined;
      if (/^data:/i.test(head)) throw new ImageNotBase64Error('a data URI without a comma');
      this.text(head);
    }
    this.check.end();
    if (this.carry) this.decode(this.carry);
    const last = this.target.subarray(0, this.used);
    const index = this.images.length;
    this.json.push(Buffer.from(`"#${index}"`));
    // A buffer sized for the rest of a multi-image body is far too large for the first images: it is
    // joined into an exact copy too (only its written pages were ever committed).
    if (this.segments.length || this.target.length > this.size * 1.25 + 4096) {
      this.images.push(EMPTY);
      this.unjoined.push({ index, pieces: [...this.segments, last], size: this.size });
    } else this.images.push(new Uint8Array(last.buffer, last.byteOffset, last.length));
    this.inImage = false;
    this.target = EMPTY;
    this.segments = [];
    this.carry = '';
    this.imageEscape = '';
  }
}

/** Lets timers, I/O and other callbacks run before the caller goes on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
