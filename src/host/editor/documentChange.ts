import * as vscode from 'vscode';

/**
 * Resolves once `document` is past `version` (at once if it already is), or after `retryMs`: the moment an
 * edit refused for a stale version is worth trying again.
 */
export function documentChangedSince(
  document: vscode.TextDocument,
  version: number,
  retryMs: number,
): Promise<void> {
  if (document.version !== version) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, retryMs);
    const subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === document) done();
    });
  });
}
