import { realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import * as vscode from 'vscode';
import { isUnsafeRelativePath } from '../../chat/context/safety';
import { uriExists } from '../uriExists';

/** A workspace file as the context code sees it: its URI, folder and path relative to that folder. */
export interface WorkspaceFile {
  uri: vscode.Uri;
  folder: vscode.WorkspaceFolder;
  /** Relative to the folder, '/' separators. */
  path: string;
}

/**
 * Places `uri` inside a workspace folder, or says why it cannot be attached: outside every folder, a path
 * with `..`, or (on disk, unless `checkLinks` is false) a symbolic link whose target lies outside its folder.
 */
export async function locateInWorkspace(
  uri: vscode.Uri,
  { checkLinks = true }: { checkLinks?: boolean } = {},
): Promise<WorkspaceFile | { refused: string }> {
  const shown = uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
  // Checked before getWorkspaceFolder, which compares prefixes and would place /ws/../etc inside /ws.
  if (uri.path.split('/').includes('..'))
    return { refused: vscode.l10n.t("{0} has '..' in its path; it was not attached.", shown) };
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder)
    return {
      refused: vscode.l10n.t(
        '{0} is outside the workspace folders; only workspace files can be attached.',
        shown,
      ),
    };
  const root = folder.uri.path.replace(/\/+$/, '');
  const path = uri.path.startsWith(root + '/') ? uri.path.slice(root.length + 1) : '';
  if (isUnsafeRelativePath(path))
    return { refused: vscode.l10n.t('{0} is not a file inside the workspace; it was not attached.', shown) };
  if (uri.scheme === 'file' && checkLinks) {
    try {
      const [real, realRoot] = await Promise.all([realpath(uri.fsPath), realpath(folder.uri.fsPath)]);
      if (real !== realRoot && !real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) {
        return {
          refused: vscode.l10n.t(
            '{0} is a link that leads outside the workspace (to {1}); it was not attached.',
            path,
            real,
          ),
        };
      }
    } catch {
      return { refused: vscode.l10n.t('{0} no longer exists (deleted or renamed).', path) };
    }
  }
  return { uri, folder, path };
}

/** Finds a workspace file by the relative path stored in an attachment (first folder that has it). */
export async function findWorkspaceFile(path: string): Promise<vscode.Uri | undefined> {
  if (isUnsafeRelativePath(path)) return undefined;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, ...path.split('/'));
    if (await uriExists(uri)) return uri;
  }
  return undefined;
}

/** The open document for `uri`, if any: its text includes unsaved changes. */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}
