import * as vscode from 'vscode';
import { matchExclude } from '../../chat/context';

/** Files larger than this get no suggestions: each keystroke would carry too much editor work. */
export const MAX_COMPLETION_FILE_CHARS = 1_000_000;
/** Schemes of editable documents; output, debug, git and other virtual views are left out. */
const EDITABLE_SCHEMES = new Set(['file', 'untitled', 'vscode-remote', 'vscode-vfs', 'vscode-notebook-cell']);

/** Why a document gets no suggestion, or undefined when it may get one. Cheap: runs on every keystroke. */
export function ineligibleReason(
  document: vscode.TextDocument,
  exclude: readonly string[],
): 'scheme' | 'readonly' | 'excluded' | 'size' | undefined {
  if (!EDITABLE_SCHEMES.has(document.uri.scheme)) return 'scheme';
  if (vscode.workspace.fs.isWritableFileSystem(document.uri.scheme) === false) return 'readonly';
  if (document.uri.scheme !== 'untitled') {
    const relative = vscode.workspace.asRelativePath(document.uri, false);
    if (matchExclude(relative, exclude)) return 'excluded';
  }
  const last = document.lineAt(document.lineCount - 1);
  if (document.offsetAt(last.range.end) > MAX_COMPLETION_FILE_CHARS) return 'size';
  return undefined;
}

/** Read-only files (file permissions or `files.readonlyInclude`), remembered per document while open. */
export class ReadonlyFiles implements vscode.Disposable {
  private readonly known = new Map<string, boolean>();
  private readonly closing = vscode.workspace.onDidCloseTextDocument((d) =>
    this.known.delete(d.uri.toString()),
  );

  /** True when the document's file cannot be written. */
  async isReadonly(document: vscode.TextDocument): Promise<boolean> {
    if (document.uri.scheme === 'untitled') return false;
    const key = document.uri.toString();
    let readonly = this.known.get(key);
    if (readonly === undefined) {
      try {
        const stat = await vscode.workspace.fs.stat(document.uri);
        readonly = ((stat.permissions ?? 0) & vscode.FilePermission.Readonly) !== 0;
      } catch {
        readonly = false;
      }
      this.known.set(key, readonly);
    }
    return readonly;
  }

  dispose(): void {
    this.closing.dispose();
    this.known.clear();
  }
}
