/**
 * Strict checks of an image's base64 text. Node's `Buffer.from(…, 'base64')` (and `buf.write`) silently
 * skips characters outside the alphabet and ignores misplaced padding, so a damaged image would decode to
 * damaged bytes and be saved as if it were fine. Line breaks and spaces (wrapped base64) are allowed; the
 * URL-safe alphabet (`-_`) is too, but not mixed with the standard one (`+/`).
 */

/** Thrown when image text is not valid base64; the message says what is wrong with it. */
export class ImageNotBase64Error extends Error {}

/** Whitespace that wrapped base64 may hold; removed before checking and decoding. */
export const BASE64_WHITESPACE = /[\t\n\r ]+/g;

const NOT_EITHER = /[^A-Za-z0-9+/_-]/;
const NOT_PADDING = /[^=]/;

/** Whether `text` holds a character of the standard alphabet's own two (`+/`), or of the URL-safe one's (`-_`). */
const hasStandard = (text: string): boolean => text.includes('+') || text.includes('/');
const hasUrlSafe = (text: string): boolean => text.includes('-') || text.includes('_');

/** Whether `text` holds whitespace that wrapped base64 may hold (four `includes` scan faster than a regex). */
export function hasBase64Whitespace(text: string): boolean {
  return text.includes('\n') || text.includes('\r') || text.includes(' ') || text.includes('\t');
}

/**
 * The bytes that base64 text decodes to when every character is in the alphabet: its characters before the
 * padding, 6 bits each. Node's decoder skips any other character of a one-byte string (`latin1`), so a
 * decode of fewer bytes than this found one; a character above U+00FF is not skipped but cut to its low
 * byte, so text from `\u` escapes must be checked before.
 */
export function base64DecodedLength(text: string): number {
  let data = text.length;
  while (data > 0 && text.charCodeAt(data - 1) === 0x3d) data--;
  return Math.floor((data * 3) / 4);
}

/** Checks base64 text piece by piece as it streams (whitespace already removed); `end` checks the whole. */
export class Base64Check {
  private chars = 0;
  private padding = 0;
  private alphabet: 'standard' | 'url' | undefined;

  /**
   * @param lettersByDecoder the caller checks that every character is in the alphabet itself, from the
   *   length decoded (`base64DecodedLength`): a piece is then only searched for padding and for the other
   *   alphabet's two characters. A regular expression over each piece of a 4096×4096 image's 67 MB of text
   *   took about 15 ns a character, several times the decoding itself (the image bench's profile).
   */
  constructor(private readonly lettersByDecoder = false) {}

  /** Checks the next piece; throws ImageNotBase64Error. */
  piece(text: string): void {
    if (!text) return;
    const at = text.indexOf('=');
    const data = at < 0 ? text : text.slice(0, at);
    if (at >= 0 && NOT_PADDING.test(text.slice(at))) fail('padding in the middle of the data');
    if (data && this.padding) fail('padding in the middle of the data');
    if (!this.lettersByDecoder && NOT_EITHER.test(data)) fail('a character outside the base64 alphabet');
    if (this.alphabet !== 'url' && hasUrlSafe(data)) {
      if (this.alphabet === 'standard' || hasStandard(data)) fail('both base64 alphabets mixed');
      this.alphabet = 'url';
    } else if (this.alphabet !== 'standard' && hasStandard(data)) {
      if (this.alphabet === 'url') fail('both base64 alphabets mixed');
      this.alphabet = 'standard';
    }
    this.chars += data.length;
    this.padding += text.length - data.length;
  }

  /** Checks that the text ended where base64 can end, with padding (if any) that completes the last group. */
  end(): void {
    const rest = this.chars % 4;
    if (rest === 1) fail('a lone character at the end');
    if (this.padding && (rest === 0 || this.padding !== 4 - rest))
      fail('padding that does not complete the last group');
  }
}

/** Throws ImageNotBase64Error unless `text` (whitespace allowed) is valid base64. */
export function checkBase64(text: string): string {
  const compact = hasBase64Whitespace(text) ? text.replace(BASE64_WHITESPACE, '') : text;
  const check = new Base64Check();
  check.piece(compact);
  check.end();
  return compact;
}

function fail(reason: string): never {
  throw new ImageNotBase64Error(reason);
}
