import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import { randomUUID } from 'node:crypto';
import { attachmentTokens } from '../../chat/context/format';
import type { Attachment } from '../../chat/context/types';
import { declaredName, explainModelText, lineRangeLabel } from '../../chat/prompts';
import type { ChatViews } from '../chat/chatViews';
import { selectionLines } from '../context/readers';
import { lastActiveTextEditor } from '../editorTracker';
import { selectionOrBlock, surroundingLines } from './editorContext';

/**
 * Registers Explain Selection: the chat shows what the user asked ("Explain `add` in sample.ts:3-7") with the
 * code as a selection chip; the model gets the code, the lines around it and the instruction.
 */
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
      const { startLine, endLine } = selectionLines(range);
      const code = document.getText(range);
      const modelText = explainModelText({
        fileName,
        languageId: document.languageId,
        code,
        startLine,
        endLine,
        before: before.trimEnd(),
        after: after.trimStart(),
      });
      const path = vscode.workspace.asRelativePath(document.uri, false);
      const title = explainTitle(declaredName(code), path, lineRangeLabel(startLine, endLine));
      const attachment = selectionAttachment(path, document.languageId, code, startLine, endLine);
      await chat.sendToView(title, { attachments: [attachment], modelText, ask: true });
      return true;
    }),
  );
}

/** The explained code as the turn's selection attachment, like one chosen with `#`. */
function selectionAttachment(
  path: string,
  language: string,
  content: string,
  startLine: number,
  endLine: number,
): Attachment {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const item = {
    id: randomUUID(),
    kind: 'selection' as const,
    name,
    path,
    startLine,
    endLine,
    language,
    content,
  };
  return { ...item, tokens: attachmentTokens(item) };
}

/** What the transcript shows the user asked: "Explain `add` in sample.ts:3-7". */
function explainTitle(name: string | undefined, path: string, lines: string): string {
  const where = `${path.slice(path.lastIndexOf('/') + 1)}:${lines}`;
  return name ? vscode.l10n.t('Explain `{0}` in {1}', name, where) : vscode.l10n.t('Explain {0}', where);
}
