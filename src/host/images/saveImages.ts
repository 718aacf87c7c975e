import * as vscode from 'vscode';
import type { GeneratedImage, ImageQuality, ImageSize } from '../../gateway/types';
import { saveImageBatch, type ImageFs } from '../../images/saveBatch';

interface SaveRequest {
  folder: vscode.Uri;
  prompt: string;
  images: GeneratedImage[];
  model: string;
  size: ImageSize;
  quality: ImageQuality;
  writeMetadata: boolean;
  token: vscode.CancellationToken;
}

/**
 * Writes every image atomically into `request.folder` (see `saveImageBatch`): a cancel or an error
 * leaves no partial file, and nothing is ever overwritten.
 */
export async function saveImages(request: SaveRequest): Promise<vscode.Uri[]> {
  const paths = await saveImageBatch(workspaceImageFs(request.folder), {
    folder: request.folder.path,
    prompt: request.prompt,
    images: request.images,
    model: request.model,
    size: request.size,
    quality: request.quality,
    writeMetadata: request.writeMetadata,
    now: new Date(),
    isCancelled: () => request.token.isCancellationRequested,
    cancelError: () => new vscode.CancellationError(),
  });
  return paths.map((path) => request.folder.with({ path }));
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
    exists: async (path) => {
      try {
        await fs.stat(uri(path));
        return true;
      } catch {
        return false;
      }
    },
  };
}
