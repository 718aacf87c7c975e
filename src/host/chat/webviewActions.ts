import * as vscode from 'vscode';
import { conversationToMarkdown } from '../../chat/exportMarkdown';
import { slugify } from '../../images/naming';
import { checkWebviewMessage, type WebviewMessageType, type WebviewToHost } from '../../protocol';
import type { CodeQuote, ErrorAction } from '../../chat/types';
import type { Attachment } from '../../chat/context/types';
import { applyCode, openLink } from '../editor/codeActions';
import { openBaseUrlSetting } from '../errors';
import { confirmInStatusBar } from '../statusConfirm';
import type { ChatSessionActions, ChatState } from './chatPorts';

interface ActionContext {
  session: ChatSessionActions;
  chat: ChatState;
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
  openSettings: () => openBaseUrlSetting(),
  showLog: () => vscode.commands.executeCommand('modelGateway.showLog'),
  dropOldestTurns: ({ session }) => session.rerunLast({ dropOldest: true }),
};

/** One handler per message type: the compiler refuses a message type without one. */
const HANDLERS: { [K in WebviewMessageType]: Handler<K> } = {
  ready: async ({ session, chat }) => {
    await chat.ready();
    session.postState();
  },
  send: ({ session }, m) => session.sendFromComposer(m.text),
  openAttachment: ({ session }, m) => session.openAttachment(m.turnId, m.attachmentId),
  imageAction: ({ session }, m) => session.images.act(m.turnId, m.index, m.action),
  contextQuery: ({ session }, m) => session.context.handle(m),
  addContext: ({ session }, m) => session.context.handle(m),
  removeContext: ({ session }, m) => session.context.handle(m),
  openContext: ({ session }, m) => session.context.handle(m),
  acceptSuggestion: ({ session }, m) => session.context.handle(m),
  dismissSuggestion: ({ session }, m) => session.context.handle(m),
  dropFiles: ({ session }, m) => session.context.handle(m),
  stop: ({ session }) => session.stop(),
  regenerate: ({ session }) => session.rerunLast(),
  retry: ({ session }) => session.rerunLast(),
  editAndResend: ({ session }, m) => session.editAndResend(m.turnId, m.text),
  setModel: ({ session }, m) => session.setModel(m.model),
  setThinkingOpen: ({ session }, m) => session.setThinkingOpen(m.turnId, m.open),
  newChat: ({ session }) => session.newChat(),
  openConversation: async ({ session, chat }, m) => {
    const conversation = await chat.open(m.id);
    if (conversation) await session.show(conversation);
  },
  renameConversation: ({ session, chat }, m) => renameConversation(chat, session, m.id),
  deleteConversation: ({ chat }, m) => deleteConversation(chat, m.id),
  exportConversation: ({ chat }, m) => exportConversation(chat, m.id),
  copy: (_, m) => vscode.env.clipboard.writeText(m.text),
  codeAction: ({ session }, m) =>
    m.action === 'apply' ? applyToFile(session, m) : applyCode(m.action, m.code, m.language),
  openLink: (_, m) => openLink(m.href),
  setApiKey,
  openSettings,
  errorAction: (context, m) => ERROR_ACTION_HANDLERS[m.action](context),
  setMode: ({ session }, m) => session.agent.setMode(m.mode),
  agentDecision: ({ session }, m) => session.agent.decide(m.turnId, m.path, m.decision),
  openChangedFile: ({ session }, m) => session.agent.openChangedFile(m.turnId, m.path),
  agentContinue: ({ session }, m) => session.agent.continueRun(m.turnId),
  agentApproval: ({ session }, m) => session.agent.approve(m.turnId, m.callId, m.choice),
  restoreCheckpoint: ({ session }, m) => session.agent.restoreCheckpoint(m.turnId),
  openTools: ({ session }) => session.agent.openTools(),
  listTools: ({ session }) => session.agent.listTools(),
  setToolEnabled: ({ session }, m) => session.agent.setToolEnabled(m.name, m.enabled),
  startWithAgent: ({ session }, m) => session.agent.startWithAgent(m.turnId),
};

/**
 * Returns the dispatcher of one chat webview's messages. A message that fails validation is dropped and
 * changes nothing; the first of each type is logged (without its content), so a misbehaving page cannot
 * flood the log.
 */
export function createWebviewDispatcher(
  session: ChatSessionActions,
  chat: ChatState,
): (raw: unknown) => Promise<void> {
  const context: ActionContext = { session, chat };
  const reported = new Set<string>();
  return async (raw) => {
    const check = checkWebviewMessage(raw);
    if (!check.ok) {
      const bucket = check.type ?? '(unknown type)';
      if (reported.has(bucket)) return;
      reported.add(bucket);
      chat.log.warn(
        `Ignored an invalid chat message ${check.type ? `"${check.type}"` : 'of no known type'} from the webview (${check.problem}); later invalid ones of this type are not logged.`,
      );
      return;
    }
    const handler = HANDLERS[check.message.type] as Handler<WebviewMessageType>;
    await handler(context, check.message);
  };
}

/** Apply: the block goes through the in-place review of its target file (src/host/editor/applyBlock.ts). */
async function applyToFile(
  session: ChatSessionActions,
  message: Extract<WebviewToHost, { type: 'codeAction' }>,
): Promise<void> {
  const turns = session.conversation.turns;
  const index = turns.findIndex((t) => t.id === message.turnId);
  const asked = index > 0 ? turns[index - 1] : undefined;
  await vscode.commands.executeCommand('modelGateway.applyCodeBlock', {
    code: message.code,
    language: message.language,
    target: message.target,
    quote: asked?.role === 'user' ? (asked.quote ?? selectionQuote(asked.attachments)) : undefined,
  });
}

/** The question's one selection attachment as a quote (Explain Selection's code), so Apply can find it. */
function selectionQuote(attachments: readonly Attachment[] | undefined): CodeQuote | undefined {
  const selections = (attachments ?? []).filter((a) => a.kind === 'selection' && a.startLine !== undefined);
  if (selections.length !== 1) return undefined;
  const [a] = selections;
  return { code: a.content, language: a.language, fileName: a.path, startLine: a.startLine ?? 1 };
}

async function renameConversation(chat: ChatState, session: ChatSessionActions, id: string): Promise<void> {
  const conversation = await chat.open(id);
  if (!conversation) return;
  const title = await vscode.window.showInputBox({
    title: vscode.l10n.t('Rename conversation'),
    value: conversation.title,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('The title cannot be empty.')),
  });
  if (!title?.trim()) return;
  conversation.title = title.trim();
  await chat.persist(conversation);
  if (session.conversation === conversation) session.postState();
  chat.changed(conversation, session);
}

async function deleteConversation(chat: ChatState, id: string): Promise<void> {
  const title = chat.history.find((s) => s.id === id)?.title ?? vscode.l10n.t('this conversation');
  const remove = vscode.l10n.t('Delete');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Delete "{0}"?', title),
    { modal: true },
    remove,
  );
  if (choice === remove) await chat.remove(id);
}

async function exportConversation(chat: ChatState, id: string): Promise<void> {
  const conversation = await chat.open(id);
  if (!conversation) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const fileName = `${slugify(conversation.title)}.md`;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
    filters: { Markdown: ['md'] },
    title: vscode.l10n.t('Export conversation as Markdown'),
  });
  if (!target) return;
  // Images link relative to the exported file's folder (their paths are relative to the workspace folder).
  const root = vscode.workspace.getWorkspaceFolder(target)?.uri.path.replace(/\/$/, '');
  const targetDir = vscode.Uri.joinPath(target, '..').path;
  const imageLinkBase = root !== undefined ? targetDir.slice(root.length + 1) : '';
  const markdown = conversationToMarkdown(conversation, imageLinkBase);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(markdown));
  confirmInStatusBar(vscode.l10n.t('Exported {0}', vscode.workspace.asRelativePath(target)), {
    title: vscode.l10n.t('Open'),
    command: 'vscode.open',
    arguments: [target],
  });
  const open = await vscode.window.showInformationMessage(
    vscode.l10n.t('Conversation exported to {0}.', target.fsPath),
    vscode.l10n.t('Open'),
  );
  if (open) await vscode.window.showTextDocument(target);
}
