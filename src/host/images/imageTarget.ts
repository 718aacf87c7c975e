import * as vscode from 'vscode';
import { isInside, resolveInsideWorkspace } from '../../images/safePath';
import { promises as fsp, realpathSync } from 'node:fs';
import { DEFAULT_IMAGES_FOLDER } from '../settings';

/** Where images go: a folder inside a workspace folder, checked to stay inside it. */
export interface ImageTarget {
  folder: vscode.Uri;
  /** The workspace folder (or chosen folder) it is inside. */
  root: vscode.Uri;
}

/** Picks the workspace folder and resolves the images folder inside it; undefined (with a message) when refused. */
export async function resolveImageTarget(
  folderSetting: string,
  workspaceFolderName?: string,
): Promise<ImageTarget | undefined> {
  const resolved = await resolveImageFolder(folderSetting, workspaceFolderName);
  if ('refused' in resolved) {
    if (resolved.refused !== noFolder()) void refuse(resolved.refused);
    return undefined;
  }
  return resolved;
}

/** The refusal when the user was asked for a folder and chose none. */
const noFolder = (): string =>
  vscode.l10n.t('No folder to save the images in: open a folder, or choose one when asked.');

/** Like resolveImageTarget, but returns the reason for a refusal instead of showing it (for the chat's image turns). */
export async function resolveImageFolder(
  folderSetting: string,
  workspaceFolderName?: string,
): Promise<ImageTarget | { refused: string }> {
  const root = await pickRoot(workspaceFolderName);
  if (!root) return { refused: noFolder() };
  if (!vscode.workspace.workspaceFolders?.length) return { folder: root, root };
  const resolved = resolveInsideWorkspace(root.path, folderSetting);
  if (!resolved.ok)
    return {
      refused: vscode.l10n.t('The images folder "{0}" is refused: {1}', folderSetting, resolved.reason),
    };
  let folder = root;
  for (const segment of resolved.segments) {
    folder = vscode.Uri.joinPath(folder, segment);
    if (!(await staysInside(root, folder))) {
      return {
        refused: vscode.l10n.t(
          'The images folder "{0}" leads outside the workspace through a symbolic link.',
          folderSetting,
        ),
      };
    }
  }
  // A file: folder is on this host's disk: Node's fs, without a round trip to the window (see saveImages).
  if (folder.scheme === 'file') await fsp.mkdir(folder.fsPath, { recursive: true });
  else await vscode.workspace.fs.createDirectory(folder);
  return { folder, root };
}

async function refuse(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(
    vscode.l10n.t(
      "{0} Set 'modelGateway.images.folder' to a path inside the workspace, such as {1}.",
      message,
      DEFAULT_IMAGES_FOLDER,
    ),
    vscode.l10n.t('Open Settings'),
  );
  if (choice)
    await vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway.images.folder');
}

/** False when an existing part of the path is a symbolic link that resolves outside the root. */
async function staysInside(root: vscode.Uri, candidate: vscode.Uri): Promise<boolean> {
  let link: boolean;
  try {
    link =
      candidate.scheme === 'file'
        ? (await fsp.lstat(candidate.fsPath)).isSymbolicLink()
        : ((await vscode.workspace.fs.stat(candidate)).type & vscode.FileType.SymbolicLink) !== 0;
  } catch {
    return true; // does not exist yet: it will be created as a plain folder
  }
  if (!link) return true;
  if (candidate.scheme !== 'file') return false; // cannot resolve remote links safely
  try {
    return isInside(realpathSync(root.fsPath), realpathSync(candidate.fsPath));
  } catch {
    return false;
  }
}

async function pickRoot(name?: string): Promise<vscode.Uri | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (name) {
    const named = folders.find((f) => f.name === name);
    if (named) return named.uri;
  }
  if (folders.length === 1) return folders[0].uri;
  if (folders.length > 1) {
    const picked = await vscode.window.showWorkspaceFolderPick({
      placeHolder: vscode.l10n.t('Save the images in which workspace folder?'),
    });
    return picked?.uri;
  }
  const chosen = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: vscode.l10n.t('Save images here'),
    title: vscode.l10n.t('No folder is open: choose where to save the generated images'),
  });
  return chosen?.[0];
}
