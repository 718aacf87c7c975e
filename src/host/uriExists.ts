import * as vscode from 'vscode';

/** Whether anything (file or folder) is at `uri`, through `workspace.fs` (so it works in remote windows). */
export async function uriExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
