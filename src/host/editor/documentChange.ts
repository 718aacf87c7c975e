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
  return documentChange(document, () => true, retryMs);
}

/** Resolves at the first change of `document` for which `settled` holds, or after `timeoutMs`. */
export function documentChange(
  document: vscode.TextDocument,
  settled: () => boolean,
  timeoutMs: number,
): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === document && settled()) done();
    });
  });
}
