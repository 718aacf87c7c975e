/**
 * Naming for the write-then-rename of image files. The host writes the bytes to a hidden partial
 * file next to the target and renames it when complete, so an interrupted download or a full disk
 * never leaves a truncated image under the final name.
 */

/** Marker that identifies partial files, so leftovers of a crash can be recognised and removed. */
const PARTIAL_MARKER = '.partial-';

/** The hidden temporary name for `finalName` in the same folder: `.<finalName>.partial-<random>`. */
export function tempNameFor(finalName: string): string {
  if (finalName === '' || /[\\/]/.test(finalName)) {
    throw new Error(`tempNameFor expects a file name, not a path: "${finalName}".`);
  }
  return `.${finalName}${PARTIAL_MARKER}${randomHex(8)}`;
}

/** Whether `name` is a partial file made by `tempNameFor` (a leftover when it outlives its write). */
export function isPartialName(name: string): boolean {
  return name.startsWith('.') && /\.partial-[0-9a-f]{16}$/.test(name);
}

/** `bytes` random bytes as lowercase hex, from the platform crypto (Node 20 and browsers). */
function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, '0')).join('');
}
