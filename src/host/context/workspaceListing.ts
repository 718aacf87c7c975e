import * as vscode from 'vscode';
import { filesExcludeGlobs } from '../agent/ignores';
import { findRipgrep, type RipgrepEnv } from '../search/ripgrep';
import { type RipgrepEnd, ripgrepLines } from '../search/ripgrepLines';
import { listedPath, ripgrepFileListArgs } from './fileListArgs';

/**
 * A workspace folder whose files ripgrep listed by name: a file's URI is made from it only when asked for, since
 * making 50,000 URIs up front costs the extension host's thread time that nobody needs.
 */
export class ListedFolder {
  /** `prefix`: what the folder's paths start with in the index (its name and '/' in a multi-root workspace). */
  constructor(
    readonly uri: vscode.Uri,
    readonly prefix: string,
  ) {}

  /** The URI of one of its paths (prefix included). */
  uriOf(path: string): vscode.Uri {
    return vscode.Uri.joinPath(this.uri, path.slice(this.prefix.length));
  }
}

/** One chunk of a listing: paths named by ripgrep in a folder, or URIs found by `workspace.findFiles`. */
export type ListedChunk =
  { kind: 'names'; folder: ListedFolder; paths: string[] } | { kind: 'uris'; uris: vscode.Uri[] };

/** What a listing needs besides the workspace: where ripgrep is, and where to say which way a folder was listed. */
export interface ListingEnv extends RipgrepEnv {
  /** Told how each folder is listed (the file index logs each message once). */
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
}

const STOPPED: RipgrepEnd = { code: null, stopped: true, stderr: '' };

/**
 * The workspace's files for the `#` picker, at most `max`, a chunk at a time. A `file:` folder is listed by VS
 * Code's own ripgrep, streamed, so no single chunk grows with the folder; any other folder, or one that ripgrep
 * cannot list (missing, failed to start, an error before its first file), by `workspace.findFiles`, whose answer
 * comes in one piece. Leaving the loop early, or the signal, stops ripgrep.
 */
export async function* listWorkspace(
  env: ListingEnv,
  max: number,
  token: vscode.CancellationToken,
  signal: AbortSignal,
): AsyncGenerator<ListedChunk, void, undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  let left = max;
  for (const folder of folders) {
    if (left <= 0 || signal.aborted) return;
    const prefix = folders.length > 1 ? `${folder.name}/` : '';
    const rg = folder.uri.scheme === 'file' ? findRipgrep(env) : undefined;
    if (rg) {
      const listed = new ListedFolder(folder.uri, prefix);
      const lines = ripgrepLines(rg, fileListArgs(folder), folder.uri.fsPath, signal, env.onSpawn);
      let count = 0;
      let failure: string | undefined;
      try {
        for (;;) {
          const step = await lines.next();
          if (step.done) {
            // 2 is also ripgrep's answer when one entry could not be read (a broken link): only an error before
            // the first file means the folder was not listed.
            if (step.value.code === 2 && count === 0) failure = step.value.stderr.trim() || 'exit code 2';
            break;
          }
          const paths = step.value.filter((line) => line !== '').map((line) => listedPath(line, prefix));
          if (paths.length > left) paths.length = left;
          left -= paths.length;
          count += paths.length;
          yield { kind: 'names', folder: listed, paths };
          if (left <= 0) break;
        }
      } catch (error) {
        // Not started at all (or its output failed before a file came): the folder is listed another way.
        if (count === 0) failure = String(error);
        else env.log.warn(`File index: ripgrep stopped listing ${folder.name} early (${String(error)})`);
      } finally {
        await lines.return(STOPPED); // Kills ripgrep when the loop was left before its end.
      }
      if (signal.aborted) return;
      if (failure === undefined) {
        env.log.info(`File index: listing ${folder.name} with ripgrep (${rg})`);
        continue;
      }
      env.log.warn(`File index: ripgrep could not list ${folder.name} (${failure}); using findFiles`);
    } else
      env.log.info(
        `File index: listing ${folder.name} with findFiles (${folder.uri.scheme === 'file' ? 'no ripgrep found' : `a ${folder.uri.scheme}: folder`})`,
      );
    const uris = await vscode.workspace.findFiles(
      new vscode.RelativePattern(folder, '**/*'),
      undefined,
      left,
      token,
    );
    if (token.isCancellationRequested) return;
    left -= uris.length;
    yield { kind: 'uris', uris };
  }
}

/** ripgrep's arguments for `folder` from its settings (files.exclude, search.followSymlinks). */
function fileListArgs(folder: vscode.WorkspaceFolder): string[] {
  const followSymlinks = vscode.workspace
    .getConfiguration('search', folder.uri)
    .get<boolean>('followSymlinks', true);
  return ripgrepFileListArgs({ excludes: filesExcludeGlobs(folder), followSymlinks });
}
