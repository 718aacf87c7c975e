// A rejected hunk puts the user's own lines back, and the disk must get exactly those lines. `document.save()` runs
// VS Code's save participants first (format on save, code actions on save, trimming trailing whitespace, adding a
// final newline), which would rewrite lines nobody chose to change. "Save without Formatting" skips them all, and
// VS Code offers it only as a command on the active editor.
import * as vscode from 'vscode';

const SAVE_WITHOUT_PARTICIPANTS = 'workbench.action.files.saveWithoutFormatting';

/**
 * Saves `document` as its buffer holds it, without the save participants. The document is brought to the front
 * first when another editor is active (the command saves the active one). Resolves true once it is saved.
 */
export async function saveAsIs(document: vscode.TextDocument): Promise<boolean> {
  if (!document.isDirty) return true;
  if (vscode.window.activeTextEditor?.document !== document)
    await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
  if (vscode.window.activeTextEditor?.document !== document) return false;
  await vscode.commands.executeCommand(SAVE_WITHOUT_PARTICIPANTS);
  return !document.isDirty;
}

/**
 * `saveAsIs` for a document whose last tab the user has just closed: it is shown for the save, then closed again.
 * A document that could not be saved stays open, with its unsaved text, for the user to see.
 */
export async function saveClosedAsIs(document: vscode.TextDocument): Promise<boolean> {
  const saved = await saveAsIs(document);
  if (!saved) return false;
  const uri = document.uri.toString();
  const tabs = vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri),
  );
  await vscode.window.tabGroups.close(tabs);
  return true;
}
