import * as vscode from 'vscode';
import type { StoreFs } from '../chat/store';
import { uriExists } from './uriExists';

/** The conversation store's filesystem, over `workspace.fs` below a base folder (works in remote windows). */
export function workspaceStoreFs(): StoreFs {
  const fs = vscode.workspace.fs;
  const uri = (path: string): vscode.Uri => vscode.Uri.file(path);
  return {
    readFile: (path) => Promise.resolve(fs.readFile(uri(path))),
    writeFile: (path, data) => Promise.resolve(fs.writeFile(uri(path), data)),
    rename: (from, to, options) => Promise.resolve(fs.rename(uri(from), uri(to), options)),
    delete: (path) => Promise.resolve(fs.delete(uri(path), { useTrash: false })),
    createDirectory: (path) => Promise.resolve(fs.createDirectory(uri(path))),
    readDirectory: async (path) => (await fs.readDirectory(uri(path))).map(([name]) => name),
    exists: (path) => uriExists(uri(path)),
    stat: async (path) => {
      try {
        const { mtime, size } = await fs.stat(uri(path));
        return { mtime, size };
      } catch (error) {
        if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
        throw error;
      }
    },
  };
}
