/**
 * Checks that keep secrets, binaries and paths outside the workspace out of a request. They run on
 * paths and bytes the host has already resolved; the host still resolves symlinks and workspace
 * membership itself, since that needs the file system.
 */
import picomatch from 'picomatch';

/** The default of `modelGateway.context.exclude`: files that usually hold credentials. */
export const DEFAULT_CONTEXT_EXCLUDE = [
  '**/.env',
  '**/.env.*',
  '**/*.pem',
  '**/*.key',
  '**/id_rsa*',
  '**/*.p12',
  '**/.npmrc',
  '**/.netrc',
] as const;

type Matcher = (path: string) => boolean;

/** Compiled patterns, by pattern text; an invalid pattern maps to null. Settings hold few patterns. */
const compiled = new Map<string, Matcher | null>();
const MAX_CACHED_PATTERNS = 1000;

/**
 * The first of `patterns` that matches `relativePath`, or undefined. Dotfiles match (`dot`), case is
 * ignored (macOS and Windows file systems ignore it, so `.ENV` is the same file as `.env`), and a
 * pattern without '/' also matches the base name in any folder, as in `.gitignore`. Patterns that do
 * not compile are skipped rather than thrown, since they come from user settings.
 */
export function matchExclude(relativePath: string, patterns: readonly string[]): string | undefined {
  const path = relativePath.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  const base = path.slice(path.lastIndexOf('/') + 1);
  for (const pattern of patterns) {
    const matcher = matcherFor(pattern);
    if (!matcher) continue;
    if (matcher(path) || (!pattern.includes('/') && matcher(base))) return pattern;
  }
  return undefined;
}

function matcherFor(pattern: unknown): Matcher | null {
  if (typeof pattern !== 'string' || pattern.trim() === '') return null;
  let matcher = compiled.get(pattern);
  if (matcher === undefined) {
    try {
      matcher = picomatch(pattern, { dot: true, nocase: true, windows: false });
    } catch {
      matcher = null;
    }
    if (compiled.size >= MAX_CACHED_PATTERNS) compiled.clear();
    compiled.set(pattern, matcher);
  }
  return matcher;
}

/** The result of `decodeText`. */
export type DecodeResult = { ok: true; text: string } | { ok: false; reason: 'binary' };

/**
 * Decodes file bytes as UTF-8 text, or refuses them as binary: any NUL byte, or bytes that are not
 * valid UTF-8. A leading byte order mark is dropped.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  // A native scan, much faster than letting the decoder produce the NULs first.
  if (bytes.indexOf(0) !== -1) return { ok: false, reason: 'binary' };
  try {
    // fatal: throws on invalid UTF-8 instead of inserting U+FFFD; ignoreBOM false strips the BOM.
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'binary' };
  }
}

/**
 * Whether a path claimed to be relative to the workspace could point elsewhere: empty, absolute
 * (`/x`, `\x`, `C:x`, `\\server`), containing a `..` segment, or holding a NUL character.
 */
export function isUnsafeRelativePath(p: string): boolean {
  if (p.trim() === '' || p.includes('\0')) return true;
  if (/^[\\/]/.test(p) || /^[a-zA-Z]:/.test(p)) return true;
  return p.split(/[\\/]/).some((segment) => segment === '..');
}

/** The shortest secret looked for: shorter strings would match ordinary text by chance. */
export const MIN_SECRET_LENGTH = 8;

/** Whether `text` contains `secret` (the stored API key), when the secret is long enough to be one. */
export function containsSecret(text: string, secret: string | undefined): boolean {
  const s = secret?.trim();
  return !!s && s.length >= MIN_SECRET_LENGTH && text.includes(s);
}
