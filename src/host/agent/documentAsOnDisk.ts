// An open document can lag behind its file: VS Code reloads it when its file watcher reports a write, some time
// after the agent's atomic write (or another program's). A review computed from that stale text finds nothing to
// review, or reviews text that is no longer the file's. A document without unsaved changes is brought up to the
// disk before its review opens.
import * as vscode from 'vscode';
import { decodeText } from '../../chat/context/safety';
import { readDiskFile } from '../context/diskRead';
import { documentChange } from '../editor/documentChange';

/** How long the reload may take before the review goes on with what the editor shows. */
const RELOAD_WAIT_MS = 5000;
/** Larger files are not compared (the agent's tools read files whole only up to this size too). */
const MAX_COMPARED_BYTES = 4 * 1024 * 1024;

/**
 * Resolves once `document` (shown in the active editor) holds its file's text, reloading it from disk when it is
 * clean and stale. A document with unsaved changes, a file that cannot be read as UTF-8 text, or a reload that does
 * not come within RELOAD_WAIT_MS leave the document as it is.
 */
export async function documentAsOnDisk(document: vscode.TextDocument): Promise<void> {
  if (document.isDirty || document.uri.scheme !== 'file') return;
  const disk = await diskText(document.uri.fsPath);
  if (disk === undefined || sameText(document.getText(), disk)) return;
  const caughtUp = untilText(document, disk);
  // Reverting a clean document reloads it from the disk at once, instead of waiting for the file watcher.
  if (!document.isDirty && vscode.window.activeTextEditor?.document === document)
    await vscode.commands.executeCommand('workbench.action.files.revert');
  await caughtUp;
}

async function diskText(fsPath: string): Promise<string | undefined> {
  try {
    const read = await readDiskFile(fsPath, MAX_COMPARED_BYTES);
    if (read.kind !== 'bytes') return undefined;
    const decoded = decodeText(read.bytes);
    return decoded.ok ? decoded.text : undefined;
  } catch {
    return undefined;
  }
}

/** Equal but for line endings, which the editor makes uniform. */
function sameText(a: string, b: string): boolean {
  return a === b || a.replace(/\r\n?/g, '\n') === b.replace(/\r\n?/g, '\n');
}

/** Until the document holds `text` (or has unsaved changes: the user typed, nothing to reload then). */
function untilText(document: vscode.TextDocument, text: string): Promise<void> {
  return documentChange(
    document,
    () => document.isDirty || sameText(document.getText(), text),
    RELOAD_WAIT_MS,
  );
}
