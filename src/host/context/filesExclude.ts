/**
 * `files.exclude` applied to one path, as the `#` picker's listing applies it (ripgrep's globs, fileListArgs.ts): a
 * file the watcher reports later is left out when a listing would have left it out.
 */
import picomatch from 'picomatch';
import { anchoredGlob } from './fileListArgs';

/** Compiled glob lists, by the list (the settings rarely change, and every created file is checked). */
const compiled = new Map<string, (path: string) => boolean>();
const MAX_COMPILED = 32;

/**
 * True when the `files.exclude` globs that are on hide `path` (relative to its workspace folder, `/`-separated):
 * a glob matches the whole path (`*.tmp` only at the top, `**` at any depth), and a hidden folder hides everything
 * in it (globs read as `anchoredGlob` reads them).
 */
export function hiddenByFilesExclude(path: string, globs: readonly string[]): boolean {
  if (globs.length === 0) return false;
  const key = globs.join('\0');
  let matches = compiled.get(key);
  if (!matches) {
    // The globs ripgrep is given, matched here against paths without the leading '/' that anchors them there.
    const patterns = globs.map((glob) => anchoredGlob(glob).replace(/^\//, ''));
    matches = picomatch(patterns, { dot: true, windows: false });
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, matches);
  }
  const parts = path.split('/');
  for (let end = 1; end <= parts.length; end++) if (matches(parts.slice(0, end).join('/'))) return true;
  return false;
}
