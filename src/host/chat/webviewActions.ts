import * as vscode from 'vscode';
import { conversationToMarkdown } from '../../chat/exportMarkdown';
import { slugify } from '../../images/naming';
import { parseWebviewMessage, type CodeBlockAction, type WebviewToHost } from '../../protocol';
import { lastActiveTextEditor } from '../editorTracker';
import type { ChatHub } from './chatHub';
import type { ChatSession } from './chatSession';

/** Dispatches one message from a chat webview. Unknown or malformed messages are ignored. */
export async function handleWebviewAction(
  session: ChatSession,
  hub: ChatHub,
  raw: WebviewToHost,
): Promise<void> {
  const message = parseWebviewMessage(raw);
  if (!message) return;
  switch (message.type) {
    case 'ready':
      await hub.ready();
      return session.postState();
    case 'send':
      return session.sendFromComposer(String(message.text ?? ''));
    case 'openAttachment':
      return session.openAttachment(message.turnId, message.attachmentId);
    case 'contextQuery':
    case 'addContext':
    case 'removeContext':
    case 'openContext':
    case 'acceptSuggestion':
    case 'dismissSuggestion':
    case 'dropFiles':
      return session.context.handle(message);
    case 'stop':
      return session.stop();
    case 'regenerate':
    case 'retry':
      return session.rerunLast();
    case 'editAndResend':
      return session.editAndResend(message.turnId, String(message.text ?? ''));
    case 'setModel':
      session.conversation.model = String(message.model);
      if (session.conversation.turns.length) await hub.persist(session.conversation);
      return;
    case 'newChat':
      return session.newChat();
    case 'openConversation': {
      const conversation = await hub.load(message.id);
      if (conversation) await session.show(conversation);
      return;
    }
    case 'renameConversation':
      return renameConversation(hub, session, message.id);
    case 'deleteConversation':
      return deleteConversation(hub, message.id);
    case 'exportConversation':
      return exportConversation(hub, session, message.id);
    case 'copy':
      await vscode.env.clipboard.writeText(String(message.text ?? ''));
      return;
    case 'codeAction':
      if (message.action === 'apply') return applyToFile(session, message);
      return applyCode(message.action, String(message.code ?? ''), String(message.language ?? ''));
    case 'openLink':
      return openLink(String(message.href ?? ''));
    case 'setApiKey':
      await vscode.commands.executeCommand('modelGateway.setApiKey');
      return;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway');
      return;
    case 'errorAction':
      if (message.action === 'setApiKey') await vscode.commands.executeCommand('modelGateway.setApiKey');
      else if (message.action === 'openSettings')
        await vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway');
      else await session.rerunLast({ dropOldest: true });
      return;
  }
}

/** Inserts, replaces or opens a code block; one edit, so one undo step. */
export async function applyCode(action: CodeBlockAction, code: string, language: string): Promise<void> {
  if (action === 'newFile') {
    const document = await vscode.workspace.openTextDocument({
      content: code,
      language: language || undefined,
    });
    await vscode.window.showTextDocument(document);
    return;
  }
  const editor = lastActiveTextEditor();
  if (!editor) {
    void vscode.window.showWarningMessage('Open a text editor first: there is no editor to put the code in.');
    return;
  }
  const applied = await editor.edit((edit) => {
    for (const selection of editor.selections) {
      if (action === 'replace' && !selection.isEmpty) edit.replace(selection, code);
      else edit.insert(selection.active, code);
    }
  });
  if (!applied)
    void vscode.window.showWarningMessage('The code could not be inserted: the document is read-only.');
  else await vscode.window.showTextDocument(editor.document, editor.viewColumn);
}

/**
 * Apply: the block goes to the file it names (else the active editor's) through the edit review. The
 * quoted selection of the user turn the answer replies to lets a block that rewrites it be diffed directly.
 */
async function applyToFile(
  session: ChatSession,
  message: Extract<WebviewToHost, { type: 'codeAction' }>,
): Promise<void> {
  const turns = session.conversation.turns;
  const index = turns.findIndex((t) => t.id === message.turnId);
  const asked = index > 0 ? turns[index - 1] : undefined;
  await vscode.commands.executeCommand('modelGateway.applyCodeBlock', {
    code: String(message.code ?? ''),
    language: String(message.language ?? ''),
    target: typeof message.target === 'string' ? message.target : undefined,
    quote: asked?.role === 'user' ? asked.quote : undefined,
  });
}

/** Opens http(s) links in the browser; every other scheme is refused. */
async function openLink(href: string): Promise<void> {
  let uri: vscode.Uri;
  try {
    const url = new URL(href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    uri = vscode.Uri.parse(url.toString(), true);
  } catch {
    void vscode.window.showWarningMessage('Only http and https links from the chat can be opened.');
    return;
  }
  await vscode.env.openExternal(uri);
}

async function renameConversation(hub: ChatHub, session: ChatSession, id: string): Promise<void> {
  const conversation = session.conversation.id === id ? session.conversation : await hub.load(id);
  if (!conversation) return;
  const title = await vscode.window.showInputBox({
    title: 'Rename conversation',
    value: conversation.title,
    validateInput: (v) => (v.trim() ? undefined : 'The title cannot be empty.'),
  });
  if (!title?.trim()) return;
  conversation.title = title.trim();
  await hub.persist(conversation);
  if (session.conversation.id === id) session.postState();
}

async function deleteConversation(hub: ChatHub, id: string): Promise<void> {
  const title = hub.history.find((s) => s.id === id)?.title ?? 'this conversation';
  const choice = await vscode.window.showWarningMessage(`Delete "${title}"?`, { modal: true }, 'Delete');
  if (choice === 'Delete') await hub.remove(id);
}

async function exportConversation(hub: ChatHub, session: ChatSession, id: string): Promise<void> {
  const conversation = session.conversation.id === id ? session.conversation : await hub.load(id);
  if (!conversation) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const fileName = `${slugify(conversation.title)}.md`;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
    filters: { Markdown: ['md'] },
    title: 'Export conversation as Markdown',
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(conversationToMarkdown(conversation)));
  const open = await vscode.window.showInformationMessage(
    `Conversation exported to ${target.fsPath}.`,
    'Open',
  );
  if (open) await vscode.window.showTextDocument(target);
}
