// The `#` picker's workspace files, with the index's run-time (src/host/context/fileIndexRuntime.ts: listing,
// watcher and ranking) loaded on first use: the shipped extension builds it into dist/fileIndex.js (esbuild.mjs),
// so a window that never searches files does not parse it, and its watcher starts with the first search.
import * as vscode from 'vscode';
import { filesExcludeGlobs } from '../agent/ignores';
import type { FileIndex } from './fileIndex';
import { hiddenByFilesExclude } from './filesExclude';

/** What the picker asks of the workspace's files (FileIndex's API). */
export type WorkspaceFiles = Pick<FileIndex, 'ready' | 'load' | 'search' | 'uriOf' | 'dispose'>;

function fileIndexRuntime(): typeof import('./fileIndexRuntime') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./fileIndexRuntime') as typeof import('./fileIndexRuntime');
}

/** A FileIndex made, and its run-time loaded, on the first call that needs it. */
export class LazyFileIndex implements WorkspaceFiles {
  private index: FileIndex | undefined;
  private disposed = false;

  constructor(private readonly log?: Pick<vscode.LogOutputChannel, 'warn' | 'info'>) {}

  get ready(): boolean {
    return this.index?.ready ?? false;
  }

  load(): Promise<void> {
    return this.loaded()?.load() ?? Promise.resolve();
  }

  async search(query: string, limit: number): Promise<Array<{ path: string; uri: vscode.Uri }>> {
    return (await this.loaded()?.search(query, limit)) ?? [];
  }

  /** Paths come from `search`: before any, there is none to know. */
  uriOf(path: string): vscode.Uri | undefined {
    return this.index?.uriOf(path);
  }

  dispose(): void {
    this.disposed = true;
    this.index?.dispose();
  }

  private loaded(): FileIndex | undefined {
    if (this.disposed) return undefined;
    this.index ??= fileIndexRuntime().createFileIndex(this.log, hiddenInItsFolder);
    return this.index;
  }
}

/**
 * True when files.exclude, as set for the file's workspace folder, hides it. Checked here, in the extension's
 * bundle, which has the glob matcher already: the index's own bundle stays without it.
 */
function hiddenInItsFolder(file: vscode.Uri): boolean {
  const folder = vscode.workspace.getWorkspaceFolder(file);
  if (!folder) return false;
  return hiddenByFilesExclude(vscode.workspace.asRelativePath(file, false), filesExcludeGlobs(folder));
}
