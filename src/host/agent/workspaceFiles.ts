import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { isUnsafeRelativePath } from '../../chat/context/safety';
import type { Refusal } from '../../agent/toolText';

/** A path the model gave, placed inside a workspace folder. */
export interface ResolvedPath {
  uri: vscode.Uri;
  folder: vscode.WorkspaceFolder;
  /** Relative to the folder, '/' separators ('' for the folder itself). */
  path: string;
  /** The path as the model should write it back: prefixed with the folder's name in a multi-root workspace. */
  shown: string;
}

/**
 * Turns a path the model gave into a URI inside the workspace, refusing everything that could reach above it:
 * absolute paths outside every folder, `..` segments, and (on disk) symbolic links anywhere on the way that lead out
 * of the folder. The path may not exist yet (a file to create): then its nearest existing parent is checked.
 * `allowRoot` lets '' and '.' name the folder itself (list_dir). In a multi-root workspace a path may start with a
 * folder's name.
 */
export async function resolveWorkspacePath(
  given: string,
  options: { allowRoot?: boolean } = {},
): Promise<ResolvedPath | { refusal: Refusal }> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return { refusal: { kind: 'outside' } };
  let text = given.trim().replace(/\\/g, '/');
  let folder = folders[0];
  if (isAbsolute(text) || /^[a-zA-Z]:\//.test(text)) {
    // Models often echo absolute paths back; one inside a folder is fine.
    const inside = folders
      .map((f) => ({ f, rel: f.uri.scheme === 'file' ? relative(f.uri.fsPath, text) : '..' }))
      .find(({ rel }) => !rel.startsWith('..') && !isAbsolute(rel));
    if (!inside || text.split('/').includes('..')) return { refusal: { kind: 'outside' } };
    folder = inside.f;
    text = inside.rel.split(sep).join('/');
  }
  text = text.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (text === '.' || text === '') {
    if (!options.allowRoot) return { refusal: { kind: 'unsafePath' } };
    text = '';
  } else if (isUnsafeRelativePath(text)) {
    return { refusal: { kind: 'unsafePath' } };
  }
  const segments = text === '' ? [] : text.split('/').filter((s) => s !== '' && s !== '.');
  if (folders.length > 1 && segments.length > 0) {
    const named = folders.find((f) => f.name === segments[0]);
    if (named) {
      folder = named;
      segments.shift();
    }
  }
  const uri = segments.length ? vscode.Uri.joinPath(folder.uri, ...segments) : folder.uri;
  const path = segments.join('/');
  const shown = folders.length > 1 ? [folder.name, ...segments].join('/') : path || '.';
  if (uri.scheme === 'file') {
    const escape = await linkTarget(uri.fsPath, folder.uri.fsPath);
    if (escape !== undefined) return { refusal: { kind: 'linkOut', target: escape } };
  }
  return { uri, folder, path, shown };
}

/**
 * Where `fsPath` really leads when that is outside `root` (a symbolic link on the way), else undefined. A path that
 * does not exist is judged by its nearest existing parent, so a file created later lands where it was checked.
 */
async function linkTarget(fsPath: string, root: string): Promise<string | undefined> {
  const realRoot = await realpath(root).catch(() => root);
  let probe = fsPath;
  for (let i = 0; i < 256; i++) {
    try {
      const real = await realpath(probe);
      const inside = real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
      return inside ? undefined : real;
    } catch {
      // A link whose target is missing: writing through it would create the target, wherever it is.
      const dangling = await lstat(probe).then(
        (s) => s.isSymbolicLink(),
        () => false,
      );
      if (dangling) return readlink(probe).catch(() => probe);
      const parent = dirname(probe);
      if (parent === probe) return undefined;
      probe = parent;
    }
  }
  return undefined;
}
