// Looking for a leaked API key: the encoded forms it may take, and every file of a folder to search.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The forms in which `key` could leak, by name: as it is, in base64 (with Bearer), URL-, form- and JSON-escaped. */
export function keyForms(key: string): Record<string, string> {
  return {
    raw: key,
    base64: Buffer.from(key).toString('base64'),
    base64url: Buffer.from(key).toString('base64url'),
    'base64 Bearer': Buffer.from(`Bearer ${key}`).toString('base64'),
    'URL-encoded': encodeURIComponent(key),
    'form-encoded': new URLSearchParams({ k: key }).toString().slice(2),
    'JSON-escaped': JSON.stringify(key).slice(1, -1),
  };
}

/** The names of the `forms` found in `text`. */
export function formsIn(forms: Record<string, string>, text: string | Buffer): string[] {
  return Object.entries(forms).flatMap(([name, form]) => (text.includes(form) ? [name] : []));
}

/**
 * Calls `visit` with the path and bytes of every regular file below `dir` smaller than `maxBytes` (binary
 * files included; nothing when `dir` does not exist). Files that vanish during the walk are skipped.
 */
export function forEachFile(
  dir: string,
  visit: (path: string, bytes: Buffer) => void,
  maxBytes = 100_000_000,
): void {
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile() && stat.size < maxBytes) visit(full, readFileSync(full));
    }
  };
  if (existsSync(dir)) walk(dir);
}
