import * as vscode from 'vscode';
import { saveImageBatch, type ImageFs, type SaveBatch } from '../../images/saveBatch';
import { uriExists } from '../uriExists';

/** A batch to save: what `saveImageBatch` takes, with the folder as a URI and a cancellation token. */
type SaveRequest = Omit<SaveBatch, 'folder' | 'now' | 'isCancelled' | 'cancelError'> & {
  folder: vscode.Uri;
  token: vscode.CancellationToken;
};

/**
 * Writes every image atomically into `request.folder` (see `saveImageBatch`): a cancel or an error
 * leaves no partial file, and nothing is ever overwritten.
 */
export async function saveImages(request: SaveRequest): Promise<vscode.Uri[]> {
  const { folder, token, ...what } = request;
  const paths = await saveImageBatch(workspaceImageFs(folder), {
    ...what,
    folder: folder.path,
    now: new Date(),
    isCancelled: () => token.isCancellationRequested,
    cancelError: () => new vscode.CancellationError(),
  });
  return paths.map((path) => folder.with({ path }));
}

/** The save's filesystem over `workspace.fs`, for paths on the folder's scheme and authority. */
function workspaceImageFs(folder: vscode.Uri): ImageFs {
  const fs = vscode.workspace.fs;
  const uri = (path: string): vscode.Uri => folder.with({ path });
  return {
    writeFile: (path, data) => Promise.resolve(fs.writeFile(uri(path), data)),
    renameNoOverwrite: async (from, to) => {
      try {
        await fs.rename(uri(from), uri(to), { overwrite: false });
        return true;
      } catch (error) {
        if (error instanceof vscode.FileSystemError && error.code === 'FileExists') return false;
        throw error;
      }
    },
    delete: (path) => Promise.resolve(fs.delete(uri(path))),
    exists: (path) => uriExists(uri(path)),
  };
}
