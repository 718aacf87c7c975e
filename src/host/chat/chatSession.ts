import * as vscode from 'vscode';
import { addUserTurn, createConversation, startAssistantTurn, truncateFrom } from '../../chat/conversation';
import { MessageMemo } from '../../chat/messageMemo';
import type { CodeQuote, Conversation, UserTurn } from '../../chat/types';
import type { Attachment } from '../../chat/context';
import { CONTEXT_TOKENS } from '../../gateway/models';
import { ChatContext } from '../context/chatContext';
import { openAttachment } from '../context/openAttachment';
import { buildChatRequest, maxTokensFor } from '../chatRequest';
import type { ChatViewState, HostToWebview } from '../../protocol';
import type { ChatSessionActions, ChatState, InFlight } from './chatPorts';
import { streamTurn } from './streamTurn';
import { CONTEXT, fitContext, overContextRefusal } from './contextFit';
import { createWebviewDispatcher } from './webviewActions';
import { ChatImages } from './chatImages';
import { agentAvailability, ChatAgent, type ConfirmAction } from '../agent/chatAgent';
import { applyAskRules, readAskRules } from './askRules';
import { isSlashImage } from '../../images/slashImage';

/** How a session differs from the default: tests answer its confirmations, which are modal dialogs otherwise. */
export interface SessionOptions {
  confirm?: ConfirmAction;
}

/** One chat UI (sidebar view or editor tab) and the conversation it shows; survives its webview being recreated. */
export class ChatSession implements ChatSessionActions, vscode.Disposable {
  private webview: vscode.Webview | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly attachment: vscode.Disposable[] = [];
  /** Each turn's message and estimate, so a send does not format and count the whole conversation again. */
  private readonly memo = new MessageMemo();

  private readonly dispatch: (raw: unknown) => Promise<void>;
  /** The composer's attachments (chips) and the `#` picker. */
  readonly context: ChatContext;
  /** `/image` turns: generating, showing and acting on images. */
  readonly images: ChatImages;
  /** Agent mode: runs, changed files, approvals and checkpoints. */
  readonly agent: ChatAgent;

  constructor(
    private readonly chat: ChatState,
    public conversation: Conversation,
    options: SessionOptions = {},
  ) {
    this.dispatch = createWebviewDispatcher(this, chat);
    this.context = new ChatContext(
      chat.contextServices,
      (m) => this.post(m),
      () => CONTEXT_TOKENS,
    );
    this.disposables.push(this.context);
    this.images = new ChatImages(chat, this);
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const session = this;
    this.agent = new ChatAgent({
      get conversation() {
        return session.conversation;
      },
      get config() {
        return chat.config.current;
      },
      services: chat.agentServices,
      log: chat.log,
      client: () => chat.gateway.current(),
      post: (m) => this.post(m),
      postState: () => this.postState(),
      persist: (c) => chat.persist(c),
      scheduleSave: (c) => chat.scheduleSave(c),
      send: (text) => this.send(text),
      inFlight: (work) => this.inFlight(work),
      confirm: options.confirm,
    });
  }

  /** The webview showing this session, if any. */
  get view(): vscode.Webview | undefined {
    return this.webview;
  }

  /** Connects a (new) webview; it will ask for the state with `ready`. */
  attach(webview: vscode.Webview): void {
    this.detach();
    this.webview = webview;
    webview.onDidReceiveMessage((raw) => void this.receive(raw), undefined, this.attachment);
  }

  /** Forgets the webview (only `webview`, when given); a stream in progress goes on and is saved. */
  detach(webview?: vscode.Webview): void {
    if (webview && webview !== this.webview) return;
    this.webview = undefined;
    vscode.Disposable.from(...this.attachment.splice(0)).dispose();
  }

  /** The answer or image in progress in this conversation, started here or in another chat showing it. */
  private get inflight(): InFlight | undefined {
    return this.chat.inflight.get(this.conversation);
  }

  /** True while an answer is streaming. */
  get busy(): boolean {
    return this.inflight !== undefined;
  }

  post(message: HostToWebview): void {
    void this.webview?.postMessage(message);
  }

  /** Posts everything the webview needs to draw itself. */
  postState(): void {
    const state: ChatViewState = {
      conversation: this.conversation,
      models: this.chat.modelOptions(),
      history: this.chat.history,
      onboarding: this.chat.onboarding,
      busy: this.busy,
      agent: agentAvailability(this.chat.config.current),
    };
    this.post({ type: 'state', state });
    this.context.postChips();
    void this.images.postSources();
  }

  /**
   * Switches to another conversation, stopping the answer in progress unless another chat of this window still
   * shows it (that chat then draws its end).
   */
  async show(conversation: Conversation): Promise<void> {
    if (!this.chat.shownElsewhere(this.conversation, this)) await this.stop();
    this.conversation = conversation;
    this.postState();
  }

  /** Starts a new, empty conversation unless the current one is already empty. */
  async newChat(): Promise<void> {
    if (this.conversation.turns.length === 0 && !this.busy) return this.postState();
    await this.show(createConversation(this.chat.config.current.chat.model, Date.now()));
  }

  /** Keeps the reader's choice on the answer, saved with the conversation (a reload shows it the same way). */
  setThinkingOpen(turnId: string, open: boolean): void {
    const turn = this.conversation.turns.find((t) => t.id === turnId);
    if (turn?.role !== 'assistant' || turn.thinkingOpen === open) return;
    turn.thinkingOpen = open;
    this.chat.scheduleSave(this.conversation);
  }

  /** Sets the conversation's model; a conversation with turns is saved at once. */
  async setModel(model: string): Promise<void> {
    this.conversation.model = model;
    if (this.conversation.turns.length) await this.chat.persist(this.conversation);
    this.chat.changed(this.conversation, this);
  }

  /**
   * Sends what the user typed with the composer's attachments, read now. A send that cannot go out as the user
   * composed it (an attachment gone, over the context) is refused with the reason and the text put back.
   */
  async sendFromComposer(text: string): Promise<void> {
    if (!text.trim()) return;
    if (isSlashImage(text)) return this.images.fromComposer(text);
    // The rules files are read while the attachments are: the request waits for both, and each waits on the disk.
    const rules = this.agent.active ? undefined : readAskRules(this.chat.config.current);
    const snapshot = await this.context.snapshot();
    const config = this.chat.config.current;
    const refusal = snapshot.ok
      ? overContextRefusal(text, snapshot.attachments, {
          historyTokens: () => this.memo.messages(this.conversation, config.chat.systemPrompt).estimate,
          reservedTokens: maxTokensFor(this.conversation.model, config),
        })
      : snapshot.message;
    if (refusal || !snapshot.ok) {
      this.post({ type: 'notice', level: 'error', message: refusal ?? vscode.l10n.t('Not sent.') });
      this.post({ type: 'restoreDraft', text });
      return;
    }
    this.context.clear();
    await this.send(text, undefined, snapshot.attachments, undefined, rules);
  }

  /** Opens an attachment of a sent turn: the file at its lines, or the text that was sent. */
  async openAttachment(turnId: string, attachmentId: string): Promise<void> {
    const turn = this.conversation.turns.find((t): t is UserTurn => t.id === turnId && t.role === 'user');
    const attachment = turn?.attachments?.find((a) => a.id === attachmentId);
    if (attachment) await openAttachment(attachment);
  }

  /**
   * Adds a user turn (with optional quoted code or attachments) and streams the answer. `modelText`, from a
   * command, is what the model is sent in place of `text` (see `UserTurn.modelText`); `rules`, the rules files'
   * text when the caller started reading it already.
   */
  async send(
    text: string,
    quote?: CodeQuote,
    attachments?: Attachment[],
    modelText?: string,
    rules?: Promise<string>,
  ): Promise<void> {
    if (!text.trim() && !quote) return;
    await this.stop();
    const turn = addUserTurn(this.conversation, text, quote, Date.now());
    if (attachments?.length) turn.attachments = attachments;
    if (modelText) turn.modelText = modelText;
    this.post({ type: 'turnsAdded', turns: [turn] });
    await this.answer({}, rules);
  }

  /** Aborts the answer in progress, keeping what arrived. */
  async stop(): Promise<void> {
    const current = this.inflight;
    if (!current) return;
    current.abort.abort();
    await current.done;
  }

  /** Runs work as the one request in flight: Stop aborts its signal, and the next request waits for it to end. */
  async inFlight(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    await this.stop();
    const conversation = this.conversation;
    const { abort, end } = this.begin(conversation);
    try {
      await work(abort.signal);
    } finally {
      end();
      this.chat.changed(conversation, this);
    }
  }

  /** Marks `conversation` busy with a new request; `end()` clears the mark and lets a waiting `stop()` return. */
  private begin(conversation: Conversation): { abort: AbortController; end: () => void } {
    const abort = new AbortController();
    let release!: () => void;
    this.chat.inflight.set(conversation, {
      abort,
      done: new Promise<void>((resolve) => (release = resolve)),
    });
    return {
      abort,
      end: () => {
        this.chat.inflight.delete(conversation);
        release();
      },
    };
  }

  /** Drops the last answer and asks again (regenerate, retry). */
  async rerunLast(options: { dropOldest?: boolean } = {}): Promise<void> {
    await this.stop();
    const last = this.conversation.turns.at(-1);
    // An image turn has its own Regenerate; a chat answer is never asked for in its place.
    if (!last || last.role === 'image') return;
    if (last.role === 'assistant') {
      truncateFrom(this.conversation, last.id);
      this.post({ type: 'turnsRemoved', fromTurnId: last.id });
    }
    await this.answer(options);
  }

  /** Replaces a user message and everything after it, then asks again. */
  async editAndResend(turnId: string, text: string): Promise<void> {
    await this.stop();
    const original = this.conversation.turns.find((t): t is UserTurn => t.id === turnId && t.role === 'user');
    if (!original || !text.trim()) return;
    truncateFrom(this.conversation, turnId);
    this.post({ type: 'turnsRemoved', fromTurnId: turnId });
    // The command's wording for the model belonged to the old text; an edited message is sent as the user wrote it.
    const modelText = text === original.content ? original.modelText : undefined;
    await this.send(text, original.quote, original.attachments, modelText);
  }

  private async answer(options: { dropOldest?: boolean } = {}, rulesAhead?: Promise<string>): Promise<void> {
    const chat = this.chat;
    const config = chat.config.current;
    // Started before the work below, which needs no disk: the files are read meanwhile.
    const rules = this.agent.active ? undefined : (rulesAhead ?? readAskRules(config));
    // The conversation answered, even if this chat shows another one by the time the answer ends.
    const conversation = this.conversation;
    const model = conversation.model;
    const turn = startAssistantTurn(conversation, model, Date.now());
    this.post({ type: 'turnsAdded', turns: [turn] });
    chat.touched(conversation);
    // Saved now, not at the first token: a thinking model may take minutes to start, and a crash meanwhile
    // must not lose the question. Not deferred to after the request leaves: the crash trials caught a question
    // not on disk 364 ms after its request when it was.
    chat.scheduleSave(conversation);

    let saved = false;
    const { abort, end } = this.begin(conversation);
    // Another chat of this window showing the conversation draws the question and the answer in progress (it
    // is redrawn again when the answer ends).
    chat.changed(conversation, this);
    try {
      const messages = await fitContext(
        this.memo.messages(conversation, config.chat.systemPrompt),
        maxTokensFor(model, config),
        options,
      );
      const key = messages && (await chat.gateway.requireKey());
      if (!messages || !key) {
        const error = !messages
          ? {
              message: vscode.l10n.t(
                'This conversation is over the {0} context of {1} tokens. Retry to drop the oldest turns, or start a new chat.',
                model,
                CONTEXT,
              ),
              action: 'dropOldestTurns' as const,
            }
          : {
              message: vscode.l10n.t("No API key is set. Run 'Model Gateway: Set API Key'."),
              action: 'setApiKey' as const,
            };
        this.finishWithError(turn.id, error);
        return;
      }
      if (this.agent.active) {
        await this.agent.answerAndFinish(turn, messages, abort.signal);
        saved = true;
        return;
      }
      applyAskRules(messages, await (rules ?? readAskRules(config)));
      const request = buildChatRequest(model, messages, config);
      const outcome = await streamTurn({
        client: chat.gateway.current(),
        request,
        conversation,
        turn,
        signal: abort.signal,
        // Drawn here while this chat shows the conversation; after it switched away, only the other chat does.
        post: (m) => {
          if (this.conversation === conversation) this.post(m);
        },
        onChange: () => chat.scheduleSave(conversation),
        saveFinished: async () => {
          saved = true;
          await chat.persist(conversation);
        },
      });
      chat.log.info(`Chat answer ${outcome.status} (${model}).`);
    } finally {
      end();
      if (!saved) await chat.persist(conversation);
      chat.changed(conversation, this);
    }
  }

  private finishWithError(
    turnId: string,
    error: { message: string; action?: 'dropOldestTurns' | 'setApiKey' },
  ): void {
    const turn = this.conversation.turns.find((t) => t.id === turnId);
    if (turn?.role === 'assistant') {
      turn.status = 'error';
      turn.error = error;
    }
    this.post({ type: 'turnFinished', turnId, status: 'error', error });
  }

  /**
   * Handles one message from the webview: validated, then acted on. Settles when the action is done and never
   * rejects: failures are logged, never thrown into VS Code's event loop.
   */
  receive(raw: unknown): Promise<void> {
    return this.dispatch(raw).catch((error: unknown) => {
      this.chat.log.error(`Chat action failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  dispose(): void {
    // A closed chat stops its answer, unless another chat of this window shows the conversation.
    if (!this.chat.shownElsewhere(this.conversation, this)) this.inflight?.abort.abort();
    this.detach();
    vscode.Disposable.from(...this.disposables).dispose();
  }
}
