/**
 * Reads an images response as it arrives: every `"b64_json"` string is decoded from base64 chunk by chunk
 * and left out of the JSON text, which keeps only a `"#<index>"` stand-in. A 4096×4096 PNG is about 67 MB
 * of base64; holding the body, its string and JSON.parse's copy before decoding took several times the
 * image's size and blocked the event loop for hundreds of milliseconds. Here the peak is about the decoded
 * bytes, and the work is spread over the body's chunks.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KEY = 'b64_json';
const NOT_BASE64 = /[^A-Za-z0-9+/=_-]+/g;
const DATA_URI = /^data:([^,]*?),/i;
/** A data-URI prefix longer than this is not one. */
const MAX_PREFIX = 256;
const EMPTY = Buffer.alloc(0);
/** Without a Content-Length, an image buffer starts at this size and doubles. */
const FIRST_CAPACITY = 1 << 20;
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

/** Thrown by `push` when a b64_json value is a data URI that is not base64. */
export class ImageNotBase64Error extends Error {}

/** Feed it the body's chunks with `push`, then call `end`. */
export class ImageBodyReader {
  private readonly json: Buffer[] = [];
  private readonly images: Uint8Array[] = [];
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
  private target = EMPTY;
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
  end(): ImageBodyParts {
    if (this.inImage) this.closeImage();
    return { json: Buffer.concat(this.json).toString('utf8'), images: this.images };
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
    this.size = 0;
    const left = this.bodyBytes === undefined ? -1 : this.bodyBytes - bodyOffset;
    const capacity = left > 0 ? Math.ceil((left * 3) / 4) + 3 : FIRST_CAPACITY;
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
        else out += String.fromCharCode(parseInt(e.slice(2), 16));
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
          if (this.head.length > MAX_PREFIX) throw new ImageNotBase64Error('data URI without a comma');
          return;
        }
        if (!/;base64$/i.test(prefix[1])) throw new ImageNotBase64Error('data URI that is not base64');
        text = this.head.slice(prefix[0].length);
      } else text = this.head;
      this.head = undefined;
    }
    text = text.replace(NOT_BASE64, '');
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

  /** Decodes base64 text into the image buffer, growing it when needed. */
  private decode(b64: string): void {
    const needed = this.size + Math.ceil((b64.length * 3) / 4);
    if (needed > this.target.length) {
      if (this.size + Math.floor((b64.replace(/=+$/, '').length * 3) / 4) > this.maxImageBytes)
        throw new ImageTooLargeError();
      const grown = Buffer.allocUnsafe(
        Math.min(Math.max(needed, this.target.length * 2), this.maxImageBytes + 3),
      );
      this.target.copy(grown, 0, 0, this.size);
      this.target = grown;
    }
    this.size += this.target.write(b64, this.size, 'base64');
    if (this.size > this.maxImageBytes) throw new ImageTooLargeError();
  }

  private closeImage(): void {
    if (this.head) {
      const head = this.head;
      this.head = undefined;
      if (/^data:/i.test(head)) throw new ImageNotBase64Error('data URI without a comma');
      this.text(head);
    }
    if (this.carry) this.decode(this.carry);
    let image = this.target.subarray(0, this.size);
    // A buffer sized for the rest of a multi-image body is far too large for the first images: keep an
    // exact copy (only the written pages were ever committed, so this costs this image once).
    if (this.target.length > this.size * 1.25 + 4096) image = Buffer.from(image);
    this.json.push(Buffer.from(`"#${this.images.length}"`));
    this.images.push(new Uint8Array(image.buffer, image.byteOffset, image.length));
    this.inImage = false;
    this.target = EMPTY;
    this.carry = '';
    this.imageEscape = '';
  }
}
