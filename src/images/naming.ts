/**
 * File names for generated images, derived from the prompt. The prompt is arbitrary user text
 * (any script, slashes, `..`, control characters), so the name is rebuilt from a small safe
 * alphabet rather than "cleaned": whatever goes in, a single portable path segment comes out.
 */
import type { ImageFormat } from '../gateway/types';

/** Longest slug `slugify` returns by default. */
export const MAX_SLUG_LENGTH = 48;

/** Letters that NFKD does not decompose into ASCII, spelled the way a reader would expect. */
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** Device names Windows reserves in any folder, with or without an extension. */
const RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** Whether Windows treats `name` as a device (`con`, `NUL.txt`, `com1.png`, `lpt¹`…). */
export function isWindowsReservedName(name: string): boolean {
  const base = name.split('.')[0].replace(/[ .]+$/, '');
  return RESERVED.test(base);
}

/**
 * A lowercase ASCII slug of `text`: accents folded (NFKD, marks stripped), anything else outside
 * a–z/0–9 turned into single dashes, cut at a word boundary to `maxLength`. Never empty ('image')
 * and never a Windows device name.
 */
export function slugify(text: string, maxLength: number = MAX_SLUG_LENGTH): string {
  // Lowercase first: 'İ'.toLowerCase() yields 'i' plus a combining dot, which the mark strip then removes.
  let slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßæœøđðłþı]/g, (c) => TRANSLITERATIONS[c] ?? '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const limit = Math.max(1, Math.floor(maxLength));
  if (slug.length > limit) {
    const cut = slug.slice(0, limit);
    const dash = cut.lastIndexOf('-');
    slug = (dash >= limit / 2 ? cut.slice(0, dash) : cut).replace(/-+$/, '');
  }
  if (!slug) return 'image';
  return isWindowsReservedName(slug) ? `${slug}-image` : slug;
}

/** The usual file extension of an image format (`jpg` rather than `jpeg`, as most tools expect). */
export function extensionFor(format: ImageFormat): string {
  return format === 'jpeg' ? 'jpg' : format;
}

/** What `imageFileName` needs. */
interface ImageNameParts {
  prompt: string;
  /** When the image was made; written in local time, as the user reads it. */
  timestamp: Date;
  /** Position of the image in its batch, from 0. */
  index: number;
  /** How many images the batch has; a `-<index+1>` suffix is added only when it is more than one. */
  count: number;
  /** Extension without the dot, e.g. `png`. */
  ext: string;
}

/** e.g. `sunset-over-the-sea-20261122-073455-1.png` (the second image of a batch is `-2`). */
export function imageFileName(parts: ImageNameParts): string {
  const t = parts.timestamp;
  const two = (n: number): string => String(n).padStart(2, '0');
  const date = `${t.getFullYear()}${two(t.getMonth() + 1)}${two(t.getDate())}`;
  const time = `${two(t.getHours())}${two(t.getMinutes())}${two(t.getSeconds())}`;
  const suffix = parts.count > 1 ? `-${Math.floor(parts.index) + 1}` : '';
  return `${slugify(parts.prompt)}-${date}-${time}${suffix}.${cleanExtension(parts.ext)}`;
}

function cleanExtension(ext: string): string {
  const clean = ext
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 8);
  return clean || 'bin';
}

/** Attempts with a counter before switching to random suffixes. */
const MAX_COUNTER = 9999;
const MAX_RANDOM_TRIES = 32;

/**
 * `name`, or `stem-2.ext`, `stem-3.ext`… — the first that `exists` says is free. The caller should
 * still create the file exclusively, since another writer may take the name after the check.
 */
export async function uniqueName(name: string, exists: (name: string) => Promise<boolean>): Promise<string> {
  if (!(await exists(name))) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 2; i <= MAX_COUNTER; i++) {
    const candidate = `${stem}-${i}${ext}`;
    if (!(await exists(candidate))) return candidate;
  }
  for (let i = 0; i < MAX_RANDOM_TRIES; i++) {
    const random = Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
    const candidate = `${stem}-${random}${ext}`;
    if (!(await exists(candidate))) return candidate;
  }
  throw new Error(`Could not find a free file name like "${name}".`);
}
