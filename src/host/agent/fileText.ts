import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import * as vscode from 'vscode';
import { decodeText } from '../../chat/context/safety';
import type { Refusal } from '../../agent/toolText';
import { readDiskFile } from '../context/diskRead';
import { openDocument } from '../context/workspacePaths';

/** Files up to this size are read whole (their line count is then known); larger ones only as far as a page needs. */
export const WHOLE_READ_BYTES = 4 * 1024 * 1024;
/** Files on other file systems (remote) are read whole through `workspace.fs`, up to this size. */
const MAX_REMOTE_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
/** A huge file is never read further than this, whatever page is asked for. */
const MAX_PREFIX_BYTES = 32 * 1024 * 1024;

/** A file's text as a tool reads it: whole, or the start of a huge file. */
export interface ToolText {
  text: string;
  /** False when `text` is only the start of the file. */
  complete: boolean;
  /** Bytes on disk (undefined for an open document). */
  size?: number;
  /** True when the text came from an open editor with unsaved changes. */
  unsaved: boolean;
}

/**
 * The text of a workspace file for a tool: an open editor's text first (unsaved changes win over the disk), else
 * the disk. A file over WHOLE_READ_BYTES is read only until it holds `linesNeeded` whole lines, so a page of a
 * gigabyte log costs a page. Binary files (a NUL byte, or bytes that are not UTF-8) are refused.
 */
export async function readToolText(
  uri: vscode.Uri,
  linesNeeded: number,
  signal: AbortSignal,
): Promise<ToolText | { refusal: Refusal }> {
  const document = openDocument(uri);
  if (document) return { text: document.getText(), complete: true, unsaved: document.isDirty };
  try {
    if (uri.scheme === 'file') {
      const read = await readDiskFile(uri.fsPath, WHOLE_READ_BYTES);
      if (read.kind === 'folder') return { refusal: { kind: 'isFolder' } };
      if (read.kind === 'tooLarge') return await readPrefix(uri.fsPath, read.size, linesNeeded, signal);
      return decoded(read.bytes, true, read.bytes.length);
    }
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return { refusal: { kind: 'isFolder' } };
    if (stat.size > MAX_REMOTE_BYTES) {
      // l10n-exempt: read by the model
      return { refusal: { kind: 'unreadable', detail: `it is over ${MAX_REMOTE_BYTES / 1048576} MB.` } };
    }
    return decoded(await vscode.workspace.fs.readFile(uri), true, stat.size);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || (error instanceof vscode.FileSystemError && error.code === 'FileNotFound'))
      return { refusal: { kind: 'notFound' } };
    return {
      refusal: { kind: 'unreadable', detail: error instanceof Error ? error.message : String(error) },
    };
  }
}

function decoded(bytes: Uint8Array, complete: boolean, size: number): ToolText | { refusal: Refusal } {
  const result = decodeText(bytes);
  return result.ok ? { text: result.text, complete, size, unsaved: false } : { refusal: { kind: 'binary' } };
}

/** The start of a huge file: chunks until `linesNeeded` whole lines (plus one, to know whether more follow). */
async function readPrefix(
  fsPath: string,
  size: number,
  linesNeeded: number,
  signal: AbortSignal,
): Promise<ToolText | { refusal: Refusal }> {
  const handle = await open(fsPath, constants.O_RDONLY);
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const parts: string[] = [];
    let lines = 0;
    let position = 0;
    while (lines <= linesNeeded && position < MAX_PREFIX_BYTES) {
      signal.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      if (chunk.indexOf(0) !== -1) return { refusal: { kind: 'binary' } };
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        return { refusal: { kind: 'binary' } };
      }
      if (parts.length === 0) text = text.replace(/^\uFEFF/, '');
      parts.push(text);
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    }
    return { text: parts.join(''), complete: position >= size, size, unsaved: false };
  } finally {
    handle.close().catch(() => undefined);
  }
}
