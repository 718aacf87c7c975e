import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import * as vscode from 'vscode';
import { containsSecret, decodeText, matchExclude } from '../../chat/context/safety';
import { invalidRegexText } from '../../agent/toolText';
import { readDiskFile } from '../context/diskRead';
import { openDocument } from '../context/workspacePaths';
import { COUNTED_MATCHES, SHOWN_MATCHES, type TextQuery, type TextSearch } from './textSearch';

/** Files the fallback looks at, at most. */
const MAX_FILES = 20_000;
/** Files larger than this are skipped by the fallback (ripgrep searches them; a line-by-line scan here would stall). */
const MAX_FILE_BYTES = 1024 * 1024;
/** Longest stretch of work before yielding, so the extension host keeps answering. */
const SLICE_MS = 8;

/**
 * search_text without ripgrep (a VS Code build that does not ship it, or a remote file system): the files
 * `workspace.findFiles` lists (files.exclude applied), read one by one up to MAX_FILE_BYTES, binaries and secrets
 * skipped, each line tested with the same regular expression rules (smart case) as the ripgrep search. Unlike
 * ripgrep it does not read `.gitignore` (findFiles does not); links that lead out of the workspace are skipped.
 */
export async function searchWithoutRipgrep(
  query: TextQuery,
  signal: AbortSignal,
): Promise<TextSearch | { error: string }> {
  let pattern: RegExp;
  try {
    const source = query.isRegex ? query.query : query.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(source, /[A-Z]/.test(query.query) ? 'u' : 'iu');
  } catch (error) {
    return { error: invalidRegexText((error as Error).message) };
  }
  const result: TextSearch = { matches: [], total: 0, capped: false, withheld: 0 };
  const source = new vscode.CancellationTokenSource();
  const cancel = (): void => source.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    // As in ripgrep, a glob without '/' matches names at any depth.
    const include = !query.glob ? '**/*' : query.glob.includes('/') ? query.glob : `**/${query.glob}`;
    const uris = await vscode.workspace.findFiles(include, undefined, MAX_FILES, source.token);
    signal.throwIfAborted();
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    uris.sort((a, b) => a.toString().localeCompare(b.toString()));
    let slice = performance.now();
    for (const uri of uris) {
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        signal.throwIfAborted();
        slice = performance.now();
      }
      const path = vscode.workspace.asRelativePath(uri, multiRoot);
      if (matchExclude(path, query.exclude) !== undefined || /(^|\/)\.git\//.test(path)) continue;
      if (!(await staysInside(uri))) continue;
      const text = await fileText(uri);
      if (text === undefined) continue;
      const lines = text.split(/\r?\n/);
      for (let i = 0; i < lines.length; i++) {
        if (!pattern.test(lines[i])) continue;
        if (containsSecret(lines[i], query.apiKey)) {
          result.withheld++;
          continue;
        }
        result.total++;
        if (result.matches.length < SHOWN_MATCHES) result.matches.push({ path, line: i + 1, text: lines[i] });
        if (result.total >= COUNTED_MATCHES) {
          result.capped = true;
          return result;
        }
      }
    }
    return result;
  } finally {
    signal.removeEventListener('abort', cancel);
    source.dispose();
  }
}

/** A file's text for the fallback (an open editor's first), or undefined for binary, huge or unreadable files. */
async function fileText(uri: vscode.Uri): Promise<string | undefined> {
  const document = openDocument(uri);
  if (document) return document.getText();
  try {
    let bytes: Uint8Array;
    if (uri.scheme === 'file') {
      const read = await readDiskFile(uri.fsPath, MAX_FILE_BYTES);
      if (read.kind !== 'bytes') return undefined;
      bytes = read.bytes;
    } else {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_FILE_BYTES) return undefined;
      bytes = await vscode.workspace.fs.readFile(uri);
    }
    const decoded = decodeText(bytes);
    return decoded.ok ? decoded.text : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a file found on disk really lies inside its workspace folder (findFiles follows symbolic links). */
async function staysInside(uri: vscode.Uri): Promise<boolean> {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return false;
  if (uri.scheme !== 'file') return true;
  try {
    const [real, root] = await Promise.all([realpath(uri.fsPath), realpath(folder.uri.fsPath)]);
    return real.startsWith(root.endsWith(sep) ? root : root + sep);
  } catch {
    return false;
  }
}
