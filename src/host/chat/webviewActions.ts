import * as vscode from 'vscode';
import { conversationToMarkdown } from '../../chat/exportMarkdown';
import { slugify } from '../../images/naming';
import {
  checkWebviewMessage,
  type CodeBlockAction,
  type WebviewMessageType,
  type WebviewToHost,
} from '../../protocol';
import type { ErrorAction } from '../../chat/types';
import { lastActiveTextEditor } from '../editorTracker';
import type { ChatHub } from './chatHub';
import type { ChatSession } from './chatSession';

interface ActionContext {
  session: ChatSession;
  hub: ChatHub;
}

type Handler<K extends WebviewMessageType> = (
  context: ActionContext,
  message: Extract<WebviewToHost, { type: K }>,
) => PromiseLike<unknown> | void;

const openSettings = () => vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway');
const setApiKey = () => vscode.commands.executeCommand('modelGateway.setApiKey');

/** What each error button does; typed by ErrorAction, so a new action needs an entry here. */
const ERROR_ACTION_HANDLERS: Record<ErrorAction, (context: ActionContext) => PromiseLike<unknown>> = {
  setApiKey,
  openSettings,
  dropOldestTurns: ({ session }) => session.rerunLast({ dropOldest: true }),
};

/** One handler per message type: the compiler refuses a message type without one. */
const HANDLERS: { [K in WebviewMessageType]: Handler<K> } = {
  ready: async ({ session, hub }) => {
    await hub.ready();
    session.postState();
  },
  send: ({ session }, m) => session.send(m.text),
  stop: ({ session }) => session.stop(),
  regenerate: ({ session }) => session.rerunLast(),
  retry: ({ session }) => session.rerunLast(),
  editAndResend: ({ session }, m) => session.editAndResend(m.turnId, m.text),
  setModel: async ({ session, hub }, m) => {
    session.conversation.model = m.model;
    if (session.conversation.turns.length) await hub.persist(session.conversation);
  },
  newChat: ({ session }) => session.newChat(),
  openConversation: async ({ session, hub }, m) => {
    const conversation = await hub.load(m.id);
    if (conversation) await session.show(conversation);
  },
  renameConversation: ({ session, hub }, m) => renameConversation(hub, session, m.id),
  deleteConversation: ({ hub }, m) => deleteConversation(hub, m.id),
  exportConversation: ({ session, hub }, m) => exportConversation(hub, session, m.id),
  copy: (_, m) => vscode.env.clipboard.writeText(m.text),
  codeAction: (_, m) => applyCode(m.action, m.code, m.language),
  openLink: (_, m) => openLink(m.href),
  setApiKey,
  openSettings,
  errorAction: (context, m) => ERROR_ACTION_HANDLERS[m.action](context),
};

/**
 * Returns the dispatcher of one chat webview's messages. A message that fails validation is dropped and
 * changes nothing; the first of each type is logged (without its content), so a misbehaving page cannot
 * flood the log.
 */
export function createWebviewDispatcher(context: ActionContext): (raw: unknown) => Promise<void> {
  const reported = new Set<string>();
  return async (raw) => {
    const check = checkWebviewMessage(raw);
    if (!check.ok) {
      const bucket = check.type ?? '(unknown type)';
      if (reported.has(bucket)) return;
      reported.add(bucket);
      context.hub.log.warn(
        `Ignored an invalid chat message ${check.type ? `"${check.type}"` : 'of no known type'} from the webview (${check.problem}); later invalid ones of this type are not logged.`,
      );
      return;
    }
    const handler = HANDLERS[check.message.type] as Handler<WebviewMessageType>;
    await handler(context, check.message);
  };
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
