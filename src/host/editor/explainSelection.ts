import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import { explainRequestText } from '../../chat/prompts';
import type { ChatViews } from '../chat/chatViews';
import { lastActiveTextEditor } from '../editorTracker';
import { selectionOrBlock, surroundingLines } from './editorContext';

/** Registers Explain Selection: the selection (or the block at the cursor) goes to the chat as a quoted turn. */
export function registerExplainSelection(context: vscode.ExtensionContext, chat: ChatViews): void {
  context.subscriptions.push(
    registerCommand('modelGateway.explainSelection', async () => {
      const editor = vscode.window.activeTextEditor ?? lastActiveTextEditor();
      if (!editor) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Open a file and select the code to explain.'));
        return false;
      }
      const range = selectionOrBlock(editor);
      if (!range) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('Nothing to explain: select some code, or put the cursor on a line that has code.'),
        );
        return false;
      }
      const { document } = editor;
      const fileName = vscode.workspace.asRelativePath(document.uri);
      const { before, after } = surroundingLines(document, range, 3);
      const text = explainRequestText(fileName, document.languageId, before.trimEnd(), after.trimStart());
      await chat.sendToView(text, {
        code: document.getText(range),
        language: document.languageId,
        fileName,
        startLine: range.start.line + 1,
      });
      return true;
    }),
  );
}
