import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import type { Attachment } from '../../chat/context/types';
import type { ChatHub } from './chatHub';
import type { ChatSession } from './chatSession';
import { buildChatHtml, chatWebviewOptions } from './webviewHtml';

const CHAT_VIEW_ID = 'modelGateway.chatView';
const CHAT_PANEL_TYPE = 'modelGateway.chatEditor';

/** The chat UIs: the sidebar view and any editor tabs, and the commands that open them. */
export class ChatViews
  implements vscode.WebviewViewProvider, vscode.WebviewPanelSerializer<{ conversationId?: string }>
{
  private viewSession: ChatSession | undefined;
  /** The side bar's session while it is being created: VS Code can resolve the view again meanwhile. */
  private viewSessionCreated: Promise<ChatSession> | undefined;
  private viewReady: Promise<ChatSession> | undefined;
  private resolveViewReady: ((session: ChatSession) => void) | undefined;

  constructor(
    private readonly hub: ChatHub,
    private readonly extensionUri: vscode.Uri,
  ) {}

  /** Called by VS Code when the sidebar view becomes visible (again). */
  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    const webview = view.webview;
    webview.options = chatWebviewOptions(this.extensionUri);
    // Watched from the start: VS Code can dispose this view while the history loads and resolve a new one, and
    // the session must end up attached to the one shown, whichever load finishes last.
    let disposed = false;
    view.onDidDispose(() => {
      disposed = true;
      this.viewSession?.detach(webview); // only this webview, never a successor already attached
    });
    const session = await loadInto(webview, this.extensionUri, () => this.sidebarSessionCreated(), {
      shown: () => !disposed,
    });
    this.hub.log.info(`Chat view ${disposed ? 'closed before it was shown' : 'shown'}.`);
    if (!disposed) this.resolveViewReady?.(session);
  }

  /**
   * The side bar's one session. Created once, even when VS Code resolves the view again while the history is
   * still loading (a reload, then the view hidden and shown): two sessions would leave the commands (Add File,
   * Explain Selection) writing into one that no view shows.
   */
  private sidebarSessionCreated(): Promise<ChatSession> {
    this.viewSessionCreated ??= this.hub.createSession().then(
      (session) => (this.viewSession = session),
      (error: unknown) => {
        this.viewSessionCreated = undefined; // the next resolve tries again
        throw error;
      },
    );
    return this.viewSessionCreated;
  }

  /** Restores an editor-tab chat after a window reload. */
  async deserializeWebviewPanel(
    panel: vscode.WebviewPanel,
    state: { conversationId?: string } | undefined,
  ): Promise<void> {
    await this.attachPanel(
      panel,
      typeof state?.conversationId === 'string' ? state.conversationId : undefined,
    );
  }

  /** Focuses the sidebar chat and returns its session. */
  async openView(): Promise<ChatSession> {
    if (!this.viewSession) {
      this.viewReady ??= new Promise((resolve) => (this.resolveViewReady = resolve));
    }
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    return this.viewSession ?? (await this.viewReady!);
  }

  /** Opens the chat UI as an editor tab. */
  async openInEditor(): Promise<ChatSession> {
    const panel = vscode.window.createWebviewPanel(
      CHAT_PANEL_TYPE,
      vscode.l10n.t('Model Gateway Chat'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { ...chatWebviewOptions(this.extensionUri), retainContextWhenHidden: true },
    );
    return this.attachPanel(panel, this.viewSession?.conversation.id);
  }

  /**
   * Sends a message from a command (e.g. Explain Selection, with its code attached) into the sidebar chat.
   * `ask`: the command asks a question, which an agent must not answer with edits or commands, so a conversation
   * in Agent or Plan mode is switched to Ask first (the Mode select shows it).
   */
  async sendToView(
    text: string,
    request: { attachments?: Attachment[]; modelText?: string; ask?: boolean } = {},
  ): Promise<ChatSession> {
    const session = await this.openView();
    if (request.ask && (session.conversation.mode ?? 'ask') !== 'ask') await session.agent.setMode('ask');
    void session.send(text, undefined, request.attachments, request.modelText);
    return session;
  }

  private async attachPanel(
    panel: vscode.WebviewPanel,
    conversationId: string | undefined,
  ): Promise<ChatSession> {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'model-gateway.svg');
    panel.webview.options = chatWebviewOptions(this.extensionUri);
    const session = await loadInto(panel.webview, this.extensionUri, () =>
      this.hub.createSession(conversationId),
    );
    panel.onDidDispose(() => this.hub.release(session));
    return session;
  }

  /** The sidebar session, if the view was ever shown. */
  get sidebarSession(): ChatSession | undefined {
    return this.viewSession;
  }
}

/**
 * Loads the chat page into a webview and connects it to its session, unless `shown()` says the webview was
 * disposed meanwhile. The page may say `ready` before the session exists (loading history takes a moment), so
 * messages that arrive early are kept and replayed.
 */
async function loadInto(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  session: () => Promise<ChatSession>,
  options: { shown: () => boolean } = { shown: () => true },
): Promise<ChatSession> {
  const early: unknown[] = [];
  const buffer = webview.onDidReceiveMessage((message) => early.push(message));
  webview.html = buildChatHtml(webview, extensionUri);
  try {
    const ready = await session();
    if (!options.shown()) return ready; // disposed meanwhile: its successor is (or will be) attached
    ready.attach(webview);
    for (const message of early) void ready.receive(message);
    return ready;
  } finally {
    buffer.dispose();
  }
}

/** Registers the chat view, the editor-tab serializer and the chat commands. */
export function registerChat(context: vscode.ExtensionContext, hub: ChatHub): ChatViews {
  const views = new ChatViews(hub, context.extensionUri);
  context.subscriptions.push(
    hub,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, views, {
      webviewOptions: { retainContextWhenHidden: true },
    }),
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, views),
    registerCommand('modelGateway.openChat', async () => {
      await views.openView();
    }),
    registerCommand('modelGateway.openChatInEditor', async () => {
      await views.openInEditor();
    }),
    registerCommand('modelGateway.newChat', async () => {
      const session = await views.openView();
      await session.newChat();
      session.post({ type: 'focusComposer' });
    }),
  );
  return views;
}
