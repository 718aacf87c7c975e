import * as vscode from 'vscode';
import type { Attachment } from '../../chat/context';
import { showRange } from './contextItems';
import { findWorkspaceFile } from './workspacePaths';

/**
 * Opens a sent attachment: the workspace file at its lines when it still exists, else (problems, terminal
 * output, a file since deleted) the text that was sent, in an untitled editor.
 */
export async function openAttachment(attachment: Attachment): Promise<void> {
  const uri = attachment.path ? await findWorkspaceFile(attachment.path) : undefined;
  if (uri) {
    const range =
      attachment.startLine !== undefined && attachment.endLine !== undefined
        ? { startLine: attachment.startLine, endLine: attachment.endLine }
        : undefined;
    await showRange(uri, range);
    return;
  }
  const document = await vscode.workspace.openTextDocument({
    content: attachment.content,
    language: attachment.language || 'plaintext',
  });
  await vscode.window.showTextDocument(document, { preview: true });
}
