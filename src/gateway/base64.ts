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
const NOT_STANDARD = /[^A-Za-z0-9+/]/;
const NOT_URL_SAFE = /[^A-Za-z0-9_-]/;
const STANDARD_ONLY = /[+/]/;
const URL_SAFE_ONLY = /[-_]/;
const NOT_PADDING = /[^=]/;

/** Checks base64 text piece by piece as it streams (whitespace already removed); `end` checks the whole. */
export class Base64Check {
  private chars = 0;
  private padding = 0;
  private alphabet: 'standard' | 'url' | undefined;

  /** Checks the next piece; throws ImageNotBase64Error. */
  piece(text: string): void {
    if (!text) return;
    const at = text.indexOf('=');
    const data = at < 0 ? text : text.slice(0, at);
    if (at >= 0 && NOT_PADDING.test(text.slice(at))) fail('padding in the middle of the data');
    if (data && this.padding) fail('padding in the middle of the data');
    // One pass per piece once the alphabet is known: the test that fails on any other character.
    const outside =
      this.alphabet === 'standard' ? NOT_STANDARD : this.alphabet === 'url' ? NOT_URL_SAFE : NOT_EITHER;
    if (outside.test(data)) {
      if (NOT_EITHER.test(data)) fail('a character outside the base64 alphabet');
      fail('both base64 alphabets mixed');
    }
    if (!this.alphabet) {
      const standard = STANDARD_ONLY.test(data);
      const url = URL_SAFE_ONLY.test(data);
      if (standard && url) fail('both base64 alphabets mixed');
      if (standard) this.alphabet = 'standard';
      else if (url) this.alphabet = 'url';
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
  const compact = text.replace(BASE64_WHITESPACE, '');
  const check = new Base64Check();
  check.piece(compact);
  check.end();
  return compact;
}

function fail(reason: string): never {
  throw new ImageNotBase64Error(reason);
}
