// The file index's run-time as one entry: the shipped extension builds it into dist/fileIndex.js and requires it
// on the first file search (lazyFileIndex.ts), so activation does not parse it (see esbuild.mjs).
import type * as vscode from 'vscode';
import { FileIndex } from './fileIndex';

/**
 * A new index of the workspace's files (it lists on its first `load` or `search`); `hidden`: whether files.exclude
 * hides a file the watcher reports.
 */
export function createFileIndex(
  log: Pick<vscode.LogOutputChannel, 'warn' | 'info'> | undefined,
  hidden: (file: vscode.Uri) => boolean,
): FileIndex {
  return new FileIndex(log, {}, undefined, hidden);
}
