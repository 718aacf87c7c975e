import * as vscode from 'vscode';
import type { AgentServices } from '../agent/chatAgent';
import { createConversation, markInterrupted, summarize } from '../../chat/conversation';
import type { ConversationStore } from '../../chat/store';
import type { Conversation, ConversationSummary } from '../../chat/types';
import { readableModelName } from '../../gateway/modelNames';
import type { HostToWebview, ModelOption, OnboardingState } from '../../protocol';
import type { ApiKeyStore } from '../apiKey';
import type { ConfigState } from '../configState';
import type { ContextServices } from '../context/chatContext';
import type { GatewayService } from '../gatewayService';
import type { ModelDirectory } from '../modelDirectory';
import type { ChatState, InFlight } from './chatPorts';
import { ChatSession, type SessionOptions } from './chatSession';

/** What every chat UI shares: the store, the gateway, settings, the history list and onboarding state. */
export class ChatHub implements ChatState, vscode.Disposable {
  history: ConversationSummary[] = [];
  onboarding: OnboardingState = { hasApiKey: false, hasBaseUrl: true };
  private readonly sessions = new Set<ChatSession>();
  readonly inflight = new WeakMap<Conversation, InFlight>();
  private readonly opening = new Map<string, Promise<Conversation | undefined>>();
  private readonly disposables: vscode.Disposable[] = [];
  private loaded: Promise<void> | undefined;

  constructor(
    readonly store: ConversationStore,
    readonly gateway: GatewayService,
    readonly config: ConfigState,
    readonly keys: ApiKeyStore,
    readonly log: vscode.LogOutputChannel,
    readonly models: ModelDirectory,
    readonly contextServices: ContextServices,
    readonly agentServices: AgentServices,
  ) {
    this.disposables.push(
      keys.onDidChange(() => void this.refreshOnboarding()),
      config.onDidChange(() => void this.refreshOnboarding()),
      // Fires on every settings change too, and when the server's model list arrives.
      models.onDidChange(() => {
        const options = this.modelOptions();
        // Each chat keeps its own model selected; only the list changes.
        for (const session of this.sessions) {
          session.post({ type: 'models', models: options, selected: session.conversation.model });
        }
      }),
    );
  }

  /** Loads the history list once; reports unreadable files without losing them. */
  ready(): Promise<void> {
    this.loaded ??= (async () => {
      const { summaries, problems } = await this.store.list();
      this.history = summaries;
      for (const problem of problems) {
        this.log.error(problem);
        void vscode.window.showWarningMessage(vscode.l10n.t('Model Gateway: {0}', problem));
      }
      await this.refreshOnboarding();
    })();
    return this.loaded;
  }

  /** A session showing the most recent conversation (or `conversationId`), or a new one. */
  async createSession(conversationId?: string, options?: SessionOptions): Promise<ChatSession> {
    await this.ready();
    const id = conversationId ?? this.history[0]?.id;
    const conversation = (id && (await this.open(id))) || this.newConversation();
    const session = new ChatSession(this, conversation, options);
    this.sessions.add(session);
    return session;
  }

  /** Forgets a session (its webview is gone for good). */
  release(session: ChatSession): void {
    this.sessions.delete(session);
    session.dispose();
  }

  newConversation(): Conversation {
    return createConversation(this.config.current.chat.model, Date.now());
  }

  /** Reads a conversation; answers cut off by a crash or reload are marked interrupted, their text kept. */
  async load(id: string): Promise<Conversation | undefined> {
    try {
      const { conversation, problems } = await this.store.load(id);
      for (const problem of problems) {
        this.log.error(problem);
        void vscode.window.showWarningMessage(vscode.l10n.t('Model Gateway: {0}', problem));
      }
      if (conversation) markInterrupted(conversation);
      return conversation;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Model Gateway: could not open that conversation. {0}', message),
      );
      return undefined;
    }
  }

  async open(id: string): Promise<Conversation | undefined> {
    for (const session of this.sessions) if (session.conversation.id === id) return session.conversation;
    // Two chats opening one conversation at once (the side bar and a restored tab, at start) share one read.
    let reading = this.opening.get(id);
    if (!reading) {
      reading = this.load(id).finally(() => this.opening.delete(id));
      this.opening.set(id, reading);
    }
    return reading;
  }

  changed(conversation: Conversation, from: object): void {
    for (const session of this.sessions) {
      if (session !== from && session.conversation === conversation) session.postState();
    }
  }

  shownElsewhere(conversation: Conversation, from: object): boolean {
    for (const session of this.sessions) {
      if (session !== from && session.conversation === conversation) return true;
    }
    return false;
  }

  modelOptions(): ModelOption[] {
    return this.models.list().map((m) => ({
      id: m.id,
      label: readableModelName(m.id),
      thinking: m.thinking,
      extra: m.extra === true,
      ...(m.unlisted ? { unlisted: true } : {}),
    }));
  }

  /** Updates the history line of a conversation that changed and tells every UI. */
  touched(conversation: Conversation): void {
    const summary = summarize(conversation);
    this.history = [summary, ...this.history.filter((s) => s.id !== summary.id)];
    this.broadcast({ type: 'history', history: this.history });
  }

  /** Saves a conversation soon; writes coalesce while an answer streams. */
  scheduleSave(conversation: Conversation): void {
    this.store.scheduleSave(conversation);
  }

  /** Saves a conversation now (end of a turn, rename, model change). */
  async persist(conversation: Conversation): Promise<void> {
    try {
      await this.store.save(conversation);
      this.touched(conversation);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error(`Saving conversation ${conversation.id} failed: ${message}`);
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Model Gateway could not save the conversation: {0}', message),
      );
    }
  }

  /**
   * A save found the conversation changed on disk by another window (or an extension host that outlived its
   * window) in a way this copy does not keep, so the store saved the copy as a new conversation.
   */
  forked(conversation: Conversation, fromId: string): void {
    this.log.warn(
      `Conversation ${fromId} was changed by another window or extension host; this copy was saved as ${conversation.id}.`,
    );
    for (const session of this.sessions) if (session.conversation === conversation) session.postState();
    this.touched(conversation);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Model Gateway: this conversation was changed in another window, so your copy was saved as a new conversation, "{0}". Both are in History.',
        conversation.title,
      ),
    );
  }

  /** Removes a conversation from disk and from every UI showing it. */
  async remove(id: string): Promise<void> {
    await this.store.delete(id);
    this.history = this.history.filter((s) => s.id !== id);
    for (const session of this.sessions) {
      if (session.conversation.id === id) await session.show(this.newConversation());
    }
    this.broadcast({ type: 'history', history: this.history });
  }

  broadcast(message: HostToWebview): void {
    for (const session of this.sessions) session.post(message);
  }

  private async refreshOnboarding(): Promise<void> {
    this.onboarding = {
      hasApiKey: (await this.keys.get()) !== undefined,
      hasBaseUrl: !!vscode.workspace.getConfiguration('modelGateway').get<string>('baseUrl'),
    };
    this.broadcast({ type: 'onboarding', onboarding: this.onboarding });
  }

  /** Flushes pending saves (deactivation). */
  async flush(): Promise<void> {
    await this.store.flush();
  }

  dispose(): void {
    for (const session of this.sessions) session.dispose();
    this.sessions.clear();
    vscode.Disposable.from(...this.disposables).dispose();
  }
}
