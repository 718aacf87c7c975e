// Editor actions that both the chat webview and the `@gateway` participant offer on a model's code and links.
import * as vscode from 'vscode';
import type { CodeBlockAction } from '../../protocol';
import { lastActiveTextEditor } from '../editorTracker';
import { requireTrust } from '../trust';
import { codePlacer } from './editorContext';

/** Inserts, replaces or opens a code block; one edit, so one undo step. Newlines as review/placement.ts says. */
export async function applyCode(action: CodeBlockAction, code: string, language: string): Promise<void> {
  if (action === 'newFile') {
    const document = await vscode.workspace.openTextDocument({
      content: code,
      language: language || undefined,
    });
    await vscode.window.showTextDocument(document);
    return;
  }
  // A new untitled document touches no workspace file; inserting into an open file does.
  if (
    !(await requireTrust(
      action === 'replace' ? vscode.l10n.t('Replace selection') : vscode.l10n.t('Insert at cursor'),
    ))
  )
    return;
  const editor = lastActiveTextEditor();
  if (!editor) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Open a text editor first: there is no editor to put the code in.'),
    );
    return;
  }
  const document = editor.document;
  const text = document.getText();
  const applied = await editor.edit((edit) => {
    for (const selection of editor.selections) {
      // Every range is placed against the text before the edit, as the edits of one call are.
      const range =
        action === 'replace' && !selection.isEmpty
          ? new vscode.Range(selection.start, selection.end)
          : new vscode.Range(selection.active, selection.active);
      edit.replace(range, codePlacer(document, range, text)(code));
    }
  });
  if (!applied)
    void vscode.window.showWarningMessage(
      vscode.l10n.t('The code could not be inserted: the document is read-only.'),
    );
  else await vscode.window.showTextDocument(editor.document, editor.viewColumn);
}

/** Opens http(s) links in the browser; every other scheme is refused. */
export async function openLink(href: string): Promise<void> {
  let uri: vscode.Uri;
  try {
    const url = new URL(href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    uri = vscode.Uri.parse(url.toString(), true);
  } catch {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Only http and https links from the chat can be opened.'),
    );
    return;
  }
  await vscode.env.openExternal(uri);
}
