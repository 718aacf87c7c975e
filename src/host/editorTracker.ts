import * as vscode from 'vscode';

let lastTextEditor: vscode.TextEditor | undefined;

/** Remembers the last focused text editor, since focus moves to the chat webview before its buttons are clicked. */
export function registerEditorTracker(context: vscode.ExtensionContext): void {
  lastTextEditor = vscode.window.activeTextEditor;
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor) lastTextEditor = editor;
    }),
  );
}

/** The active text editor, else the last one still visible. */
export function lastActiveTextEditor(): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active) return active;
  if (lastTextEditor && vscode.window.visibleTextEditors.includes(lastTextEditor)) return lastTextEditor;
  return vscode.window.visibleTextEditors[0];
}
