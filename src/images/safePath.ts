/**
 * Decides where generated images may be written, from the folder setting, with string logic only.
 *
 * Backslashes count as separators on every OS: settings sync between machines, and a folder
 * setting such as `a\..\..\b` that is harmless on Linux escapes the workspace on Windows. The
 * filesystem part (symlinks) is left to the host, which calls `isInside` on real paths.
 */
import * as l10n from '@vscode/l10n';
import { isWindowsReservedName } from './naming';

/** The folder as normalised segments relative to the workspace root, or why it is refused. */
type SafePathResult = { ok: true; segments: string[] } | { ok: false; reason: string };

/** An absolute path split into its root (`''`, `c:` or `//server/share`) and its segments. */
interface AbsolutePath {
  prefix: string;
  segments: string[];
  /** Windows paths compare case-insensitively. */
  windows: boolean;
}

const refuse = (reason: string): SafePathResult => ({ ok: false, reason });

/**
 * Resolves the images folder setting against the workspace root. Relative paths (and
 * `${workspaceFolder}/…`) are resolved inside the root; an absolute path is accepted only when it
 * lies inside the root. An empty setting means the root itself (`segments: []`).
 */
export function resolveInsideWorkspace(workspaceRoot: string, folderSetting: string): SafePathResult {
  if (folderSetting.includes('\0')) return refuse(l10n.t('The folder contains a NUL character.'));
  const setting = folderSetting.trim().replace(/^\$\{workspaceFolder\}(?=[\\/]|$)[\\/]*/, '');
  const path = setting.replace(/\\/g, '/');
  if (path === '') return { ok: true, segments: [] };
  if (/^[A-Za-z]:(?!\/)/.test(path)) {
    return refuse(
      l10n.t(
        '"{0}" is relative to a drive\'s current folder; use a path inside the workspace.',
        folderSetting,
      ),
    );
  }
  if (path.startsWith('/') || /^[A-Za-z]:\//.test(path))
    return absoluteInside(workspaceRoot, path, folderSetting);
  return relativeSegments(path, folderSetting);
}

function relativeSegments(path: string, original: string): SafePathResult {
  const parts = path.replace(/\/+$/, '').split('/');
  if (parts[0] === '~')
    return refuse(l10n.t('"{0}": "~" is not expanded; use a path inside the workspace.', original));
  const segments: string[] = [];
  for (const part of parts) {
    if (part === '') return refuse(l10n.t('"{0}" contains an empty path segment.', original));
    if (part === '.') continue;
    if (part === '..') {
      if (segments.length === 0)
        return refuse(l10n.t('"{0}" points outside the workspace folder.', original));
      segments.pop();
      continue;
    }
    const problem = segmentProblem(part);
    if (problem) return refuse(`"${original}": ${problem}`);
    segments.push(part);
  }
  return { ok: true, segments };
}

function absoluteInside(workspaceRoot: string, path: string, original: string): SafePathResult {
  const root = parseAbsolute(workspaceRoot);
  const candidate = parseAbsolute(path);
  if (!root || !candidate) return refuse(l10n.t('"{0}" is not a path this workspace can use.', original));
  const rest = relativeTo(root, candidate);
  if (!rest)
    return refuse(l10n.t('"{0}" is outside the workspace folder; choose a folder inside it.', original));
  for (const segment of rest) {
    const problem = segmentProblem(segment);
    if (problem) return refuse(`"${original}": ${problem}`);
  }
  return { ok: true, segments: rest };
}

/** Why one path segment is unsafe to create on some OS, or undefined when it is fine. */
function segmentProblem(segment: string): string | undefined {
  if (Array.from(segment).some((c) => c.charCodeAt(0) < 0x20))
    return l10n.t('"{0}" contains a control character.', segment);
  // ':' also opens NTFS alternate data streams (`folder:stream`).
  if (/[<>:"|?*]/.test(segment))
    return l10n.t('"{0}" contains a character Windows does not allow (< > : " | ? *).', segment);
  if (/[. ]$/.test(segment))
    return l10n.t('"{0}" ends with a dot or space, which Windows silently drops.', segment);
  if (isWindowsReservedName(segment)) return l10n.t('"{0}" is a reserved device name on Windows.', segment);
  if (segment.length > 255) return l10n.t('"{0}…" is longer than 255 characters.', segment.slice(0, 20));
  return undefined;
}

/** Whether `candidateRealPath` is `rootRealPath` or below it; call it with realpath results to catch symlinks. */
export function isInside(rootRealPath: string, candidateRealPath: string): boolean {
  const root = parseAbsolute(rootRealPath);
  const candidate = parseAbsolute(candidateRealPath);
  return root !== undefined && candidate !== undefined && relativeTo(root, candidate) !== undefined;
}

/** The segments of `candidate` below `root`, or undefined when it is not inside. */
function relativeTo(root: AbsolutePath, candidate: AbsolutePath): string[] | undefined {
  const fold = (s: string): string => (root.windows ? s.toLowerCase() : s);
  if (root.windows !== candidate.windows || fold(root.prefix) !== fold(candidate.prefix)) return undefined;
  if (candidate.segments.length < root.segments.length) return undefined;
  for (let i = 0; i < root.segments.length; i++) {
    if (fold(root.segments[i]) !== fold(candidate.segments[i])) return undefined;
  }
  return candidate.segments.slice(root.segments.length);
}

/** Splits a POSIX, drive-letter or UNC absolute path, resolving `.` and `..` (which stop at the root). */
function parseAbsolute(input: string): AbsolutePath | undefined {
  if (input.includes('\0')) return undefined;
  let path = input.replace(/\\/g, '/');
  // Win32 device namespace: `\\?\C:\x` is `C:\x`, `\\?\UNC\server\share` is `\\server\share`.
  const device = /^\/\/[?.]\//.exec(path);
  if (device) {
    path = path.slice(device[0].length);
    path = /^unc\//i.test(path) ? `//${path.slice(4)}` : path;
  }
  let prefix: string;
  let rest: string;
  let windows = true;
  if (path.startsWith('//')) {
    const [server, share, ...others] = path.slice(2).split('/');
    if (!server || !share) return undefined;
    prefix = `//${server}/${share}`;
    rest = others.join('/');
  } else if (/^[A-Za-z]:\//.test(path)) {
    prefix = path.slice(0, 2);
    rest = path.slice(3);
  } else if (path.startsWith('/')) {
    prefix = '';
    rest = path.slice(1);
    windows = false;
  } else {
    return undefined;
  }
  const segments: string[] = [];
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') segments.pop();
    else segments.push(part);
  }
  return { prefix, segments, windows };
}
