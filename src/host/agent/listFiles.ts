import * as vscode from 'vscode';
import { matchExclude } from '../../chat/context/safety';
import { formatPathList } from '../../agent/toolText';
import { filesExcludeGlobs, ripgrepScopeArgs } from './ignores';
import { refused, resolveReadable } from './refusals';
import { findRipgrep, runRipgrep } from '../search/ripgrep';
import type { HostTool, ToolEnv } from './types';

/** Entries or paths shown at most. */
export const SHOWN_PATHS = 200;
/** Files ripgrep may list for one call before the listing stops (a folder of a million generated files). */
const MAX_LISTED = 200_000;

/**
 * `list_dir(path)`: the folders (with a trailing '/') and files directly in a workspace folder, `.gitignore` and
 * `files.exclude` respected. With ripgrep, a folder is shown when it holds a file that is not ignored (as git sees
 * it, empty folders do not count); without it, the folder's entries minus `files.exclude`.
 */
export function listDirTool(env: ToolEnv): HostTool {
  return async (input, signal) => {
    const given = typeof input.path === 'string' ? input.path : '.';
    const resolved = await resolveReadable(given, { allowRoot: true });
    if ('result' in resolved) return resolved.result;
    try {
      const stat = await vscode.workspace.fs.stat(resolved.uri);
      if (!(stat.type & vscode.FileType.Directory)) return refused(resolved.shown, { kind: 'notFolder' });
    } catch {
      return refused(resolved.shown, { kind: 'notFound' });
    }
    const entries = await listEntries(env, resolved.folder, resolved.path, resolved.uri, signal);
    const shown = entries.slice(0, SHOWN_PATHS);
    return {
      content: formatPathList(
        `Entries of ${resolved.shown}`, // l10n-exempt: read by the model
        shown,
        entries.length,
        `${resolved.shown} is empty (or holds only ignored files).`,
      ),
      summary: vscode.l10n.t('Listed {0}: {1} entries', resolved.shown, entries.length),
    };
  };
}

async function listEntries(
  env: ToolEnv,
  folder: vscode.WorkspaceFolder,
  path: string,
  uri: vscode.Uri,
  signal: AbortSignal,
): Promise<string[]> {
  const rg = uri.scheme === 'file' ? findRipgrep(env) : undefined;
  if (rg) {
    const prefix = path ? `${path}/` : '';
    const folders = new Set<string>();
    const files = new Set<string>();
    let listed = 0;
    try {
      await runRipgrep(
        rg,
        ['--files', ...ripgrepScopeArgs(folder, { secrets: false }), '--', path || '.'],
        folder.uri.fsPath,
        signal,
        (line) => {
          const file = line.replace(/^\.\//, '');
          if (!file.startsWith(prefix)) return;
          const rest = file.slice(prefix.length);
          const slash = rest.indexOf('/');
          if (slash === -1) files.add(rest);
          else folders.add(`${rest.slice(0, slash)}/`);
          return ++listed < MAX_LISTED;
        },
        env,
      );
      signal.throwIfAborted();
      return [...[...folders].sort(), ...[...files].sort()];
    } catch (error) {
      if (signal.aborted) throw error;
      env.log?.warn(`list_dir: ripgrep could not run (${String(error)}); listing without it`);
    }
  }
  const excluded = filesExcludeGlobs(folder);
  const children = await vscode.workspace.fs.readDirectory(uri);
  const prefix = path ? `${path}/` : '';
  return children
    .filter(([name]) => name !== '.git' && matchExclude(prefix + name, excluded) === undefined)
    .map(([name, type]) => (type & vscode.FileType.Directory ? `${name}/` : name))
    .sort((a, b) => Number(!a.endsWith('/')) - Number(!b.endsWith('/')) || a.localeCompare(b));
}

/**
 * `find_files(glob)`: workspace files whose path matches a glob (`**\/*.test.ts`, `src/**`; a glob without '/' matches
 * file names at any depth), `.gitignore` and `files.exclude` respected, sorted and capped.
 */
export function findFilesTool(env: ToolEnv): HostTool {
  return async (input, signal) => {
    const glob = String(input.glob).trim().replace(/^\.\//, '');
    if (!glob) return { content: 'The glob is empty; pass a pattern such as **/*.ts.', isError: true }; // l10n-exempt: read by the model
    const paths = await findPaths(env, glob, signal);
    return {
      content: formatPathList(
        `Files matching ${glob}`, // l10n-exempt: read by the model
        paths.slice(0, SHOWN_PATHS),
        paths.length,
        `No files match ${glob}.`, // l10n-exempt: read by the model
      ),
      summary: vscode.l10n.t('Found {0} files for `{1}`', paths.length, glob),
    };
  };
}

async function findPaths(env: ToolEnv, glob: string, signal: AbortSignal): Promise<string[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const rg = folders.every((f) => f.uri.scheme === 'file') ? findRipgrep(env) : undefined;
  if (rg) {
    try {
      const paths: string[] = [];
      for (const folder of folders) {
        const prefix = folders.length > 1 ? `${folder.name}/` : '';
        await runRipgrep(
          rg,
          ['--files', ...ripgrepScopeArgs(folder, { secrets: false }), '--glob', glob, '.'],
          folder.uri.fsPath,
          signal,
          (line) => {
            if (line) paths.push(prefix + line.replace(/^\.\//, ''));
            return paths.length < MAX_LISTED;
          },
          env,
        );
        signal.throwIfAborted();
      }
      return paths.sort();
    } catch (error) {
      if (signal.aborted) throw error;
      env.log?.warn(`find_files: ripgrep could not run (${String(error)}); searching without it`);
    }
  }
  const source = new vscode.CancellationTokenSource();
  const cancel = (): void => source.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const include = glob.includes('/') ? glob : `**/${glob}`;
    const uris = await vscode.workspace.findFiles(include, undefined, MAX_LISTED, source.token);
    signal.throwIfAborted();
    return uris.map((uri) => vscode.workspace.asRelativePath(uri, folders.length > 1)).sort();
  } finally {
    signal.removeEventListener('abort', cancel);
    source.dispose();
  }
}
