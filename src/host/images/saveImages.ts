import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { saveImageBatch, type ImageFs, type SaveBatch } from '../../images/saveBatch';
import { renameNoReplace } from '../diskStoreFs';
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
  const fs = folder.scheme === 'file' ? diskImageFs(folder) : workspaceImageFs(folder);
  const paths = await saveImageBatch(fs, {
    ...what,
    folder: folder.path,
    now: new Date(),
    isCancelled: () => token.isCancellationRequested,
    cancelError: () => new vscode.CancellationError(),
  });
  return paths.map((path) => folder.with({ path }));
}

/**
 * The save's filesystem over Node's fs, for a `file:` folder (on the extension host's own disk, as the
 * workspace is wherever the extension runs). Not `workspace.fs`: there, each rename and each existence check
 * of a free name is a round trip to the window (in code-server through the browser and back), and a rename
 * runs in the window as several steps: saving one 4096×4096 noise PNG took 90–670 ms in the image bench's
 * extension host, 17–80 ms this way (the same loaded machine). A hard link that fails on an existing target,
 * then an unlink, moves the finished file without ever replacing one.
 */
function diskImageFs(folder: vscode.Uri): ImageFs {
  const local = (path: string): string => folder.with({ path }).fsPath;
  return {
    writeFile: (path, data) => fsp.writeFile(local(path), data, { flag: 'wx' }),
    renameNoOverwrite: async (from, to) => {
      try {
        await renameNoReplace(local(from), local(to));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      }
    },
    delete: (path) => fsp.rm(local(path)),
    exists: async (path) => {
      try {
        await fsp.lstat(local(path));
        return true;
      } catch {
        return false;
      }
    },
  };
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
