/**
 * The protected-files rule of the agent: files that configure the editor, the agent or a build, or that run code by
 * themselves, are never written without the user's click. A prompt-injected agent must not widen its own permissions
 * (CVE-2025-53773: an agent set `chat.tools.autoApprove` in `.vscode/settings.json`).
 */
import picomatch from 'picomatch';

/** The default of `modelGateway.agent.protectedFiles`. */
export const DEFAULT_PROTECTED_FILES = [
  '.vscode/**',
  '*.code-workspace',
  '.git/**',
  '.devcontainer/**',
  '.github/workflows/**',
  '.env*',
] as const;

type Matcher = (path: string) => boolean;

/**
 * Whether `relativePath` (relative to its workspace folder) is protected by one of `patterns`. Errs on the side of
 * protecting, since a miss lets the agent write unasked:
 * - a pattern matches at any depth (`.vscode/**` also protects `app/.vscode/tasks.json`, which a nested workspace
 *   folder or a multi-root workspace reads), unless it starts with '/', which anchors it at the folder's root;
 * - case is ignored (`.VSCode` is the same folder on macOS and Windows) and dotfiles match;
 * - each segment loses trailing dots and spaces first, which Windows drops (`.vscode./settings.json` is
 *   `.vscode/settings.json` there);
 * - a path that is empty, absolute or climbs with `..` is protected: it cannot be placed, so it cannot be cleared.
 * Patterns that are not strings or do not compile are skipped (they come from user settings).
 */
export function isProtected(
  relativePath: string,
  patterns: readonly string[] = DEFAULT_PROTECTED_FILES,
): boolean {
  return protectingPattern(relativePath, patterns) !== undefined;
}

/** The first of `patterns` that protects `relativePath` (see `isProtected`), or undefined. */
export function protectingPattern(relativePath: string, patterns: readonly string[]): string | undefined {
  const path = normalize(relativePath);
  if (path === undefined) return '..';
  for (const pattern of patterns) {
    const matcher = matcherFor(pattern);
    if (matcher?.(path)) return pattern;
  }
  return undefined;
}

/** '/' separators, no `./` segments, no trailing dots or spaces per segment; undefined for a path that escapes. */
function normalize(relativePath: string): string | undefined {
  if (typeof relativePath !== 'string' || relativePath.includes('\0')) return undefined;
  const raw = relativePath.replace(/\\/g, '/');
  if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw)) return undefined;
  const segments = raw
    .split('/')
    .map((s) => s.replace(/[. ]+$/, (tail) => (s === tail ? tail : '')))
    .filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '..')) return undefined;
  return segments.join('/');
}

const compiled = new Map<string, Matcher | null>();

function matcherFor(pattern: unknown): Matcher | null {
  if (typeof pattern !== 'string' || pattern.trim() === '') return null;
  let matcher = compiled.get(pattern);
  if (matcher === undefined) {
    const text = pattern.trim().replace(/\\/g, '/');
    const anchored = text.startsWith('/');
    const body = text.replace(/^\/+/, '');
    try {
      const globs = anchored ? [body] : [body, `**/${body}`];
      // A folder pattern also protects the folder itself (deleting `.vscode` deletes what is in it).
      if (body.endsWith('/**')) globs.push(...globs.map((g) => g.slice(0, -3)));
      matcher = picomatch(globs, { dot: true, nocase: true, windows: false });
    } catch {
      matcher = null;
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, matcher);
  }
  return matcher;
}
