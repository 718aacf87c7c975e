// The file index's run-time as one entry: the shipped extension builds it into dist/fileIndex.js and requires it
// on the first file search (lazyFileIndex.ts), so activation does not parse it (see esbuild.mjs).
import type * as vscode from 'vscode';
import { FileIndex } from './fileIndex';

/** A new index of the workspace's files (it lists on its first `load` or `search`). */
export function createFileIndex(log?: Pick<vscode.LogOutputChannel, 'warn' | 'info'>): FileIndex {
  return new FileIndex(log);
}
