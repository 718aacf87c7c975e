import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import type { ChatViews } from '../chat/chatViews';
import { lastActiveTextEditor } from '../editorTracker';

/** Registers Add File to Chat and Add Selection to Chat: each opens the chat view and adds the chip. */
export function registerContextCommands(context: vscode.ExtensionContext, chat: ChatViews): void {
  context.subscriptions.push(
    registerCommand(
      'modelGateway.addFileToChat',
      async (clicked?: unknown, selected?: unknown): Promise<boolean> => {
        const uris = urisFrom(selected).length ? urisFrom(selected) : urisFrom(clicked);
        const targets = uris.length ? uris : activeFile();
        if (!targets.length) {
          void vscode.window.showWarningMessage(
            vscode.l10n.t('Open a file, or pick files in the Explorer, to add them to the chat.'),
          );
          return false;
        }
        const session = await chat.openView();
        await session.context.addUris(targets);
        return true;
      },
    ),
    registerCommand('modelGateway.addSelectionToChat', async (): Promise<boolean> => {
      const editor = vscode.window.activeTextEditor ?? lastActiveTextEditor();
      if (!editor || editor.selection.isEmpty) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('Select some code in an editor to add it to the chat.'),
        );
        return false;
      }
      const session = await chat.openView();
      await session.context.addSelection(editor);
      return true;
    }),
  );
}

/** The Explorer passes the clicked URI and the whole multi-selection; tab menus pass one URI. */
function urisFrom(value: unknown): vscode.Uri[] {
  if (value instanceof vscode.Uri) return [value];
  if (Array.isArray(value)) return value.filter((v): v is vscode.Uri => v instanceof vscode.Uri);
  return [];
}

function activeFile(): vscode.Uri[] {
  const editor = vscode.window.activeTextEditor ?? lastActiveTextEditor();
  return editor ? [editor.document.uri] : [];
}
