import { chmod, realpath, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { tempNameFor } from '../../images/atomicWrite';

/**
 * Writes `bytes` to `uri` atomically: first to a hidden temporary file in the same folder (so the rename stays on one
 * file system), then renamed over the target. A failed or interrupted write leaves the old file as it was and no
 * temporary file behind. On disk, a link inside the workspace is written through (the link stays a link) and the
 * file keeps its permissions (a script stays executable). The caller has resolved `uri` inside the workspace
 * (resolveWorkspacePath), which refuses links that lead out of it.
 */
export async function writeFileAtomic(uri: vscode.Uri, bytes: Uint8Array): Promise<void> {
  let target = uri;
  let mode: number | undefined;
  if (uri.scheme === 'file') {
    const real = await realpath(uri.fsPath).catch(() => undefined);
    if (real) {
      target = vscode.Uri.file(real);
      mode = (await stat(real)).mode & 0o7777;
    }
  }
  const name = target.path.slice(target.path.lastIndexOf('/') + 1);
  const temp = vscode.Uri.joinPath(target, '..', tempNameFor(name));
  try {
    await vscode.workspace.fs.writeFile(temp, bytes);
    if (mode !== undefined) await chmod(temp.fsPath, mode);
    await vscode.workspace.fs.rename(temp, target, { overwrite: true });
  } catch (error) {
    await Promise.resolve(vscode.workspace.fs.delete(temp)).catch(() => undefined);
    throw error;
  }
}
