// The narrow interfaces a chat session and its webview dispatcher depend on, so neither imports the hub
// (which creates sessions): history, storage, settings, gateway and log, and what the dispatcher asks of a session.
import type { ApprovalChoiceId, ChatMode } from '../../chat/agentTurn';
import type { Conversation, ConversationSummary } from '../../chat/types';
import type { GatewayClient } from '../../gateway/types';
import type { ContextWebviewMessage, ImageAction, ModelOption, OnboardingState } from '../../protocol';
import type { ExtensionConfig } from '../config';
import type { AgentServices } from '../agent/chatAgent';
import type { ContextServices } from '../context/chatContext';

/** The log lines chat code writes. */
interface ChatLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What a session needs of the gateway: the client for the current settings, and the key (asking if unset). */
interface ChatGateway {
  current(): GatewayClient;
  requireKey(): Promise<string | undefined>;
}

/** The answer or image generation in progress in a conversation: Stop aborts it; `done` settles when it ends. */
export interface InFlight {
  abort: AbortController;
  done: Promise<void>;
}

/** The chat state every session shares (the hub implements it). */
export interface ChatState {
  /** Conversation summaries, newest first. */
  readonly history: ConversationSummary[];
  readonly onboarding: OnboardingState;
  readonly config: { readonly current: ExtensionConfig };
  readonly gateway: ChatGateway;
  readonly log: ChatLog;
  /** The file index, terminal capture and key check every chat's attachments share. */
  readonly contextServices: ContextServices;
  /** The agent's tools' environment, checkpoints and protocol memory, shared by every chat. */
  readonly agentServices: AgentServices;
  /** Resolves once the history list is loaded. */
  ready(): Promise<void>;
  /** The models the picker offers. */
  modelOptions(): ModelOption[];
  /** Reads a stored conversation, or undefined when it cannot be opened (the user is told why). */
  load(id: string): Promise<Conversation | undefined>;
  /**
   * The conversation another chat of this window shows (the same live object, so the two never hold diverging
   * copies), or else the stored one.
   */
  open(id: string): Promise<Conversation | undefined>;
  /** What is in progress in each conversation, whichever of its chats started it (so Stop works in each). */
  readonly inflight: WeakMap<Conversation, InFlight>;
  /** Redraws the other chats that show this conversation (a turn began, ended or was removed in `from`). */
  changed(conversation: Conversation, from: object): void;
  /** True when a chat other than `from` shows this conversation. */
  shownElsewhere(conversation: Conversation, from: object): boolean;
  /** Saves a conversation now and updates the history. */
  persist(conversation: Conversation): Promise<void>;
  /** Saves a conversation soon, coalescing writes while an answer streams. */
  scheduleSave(conversation: Conversation): void;
  /** Updates a conversation's history line without saving it. */
  touched(conversation: Conversation): void;
  /** Deletes a conversation everywhere. */
  remove(id: string): Promise<void>;
}

/** What the webview dispatcher asks of the session it serves. */
export interface ChatSessionActions {
  readonly conversation: Conversation;
  postState(): void;
  /** Sends the composer's text with its attachments (refused with a notice when they cannot go). */
  sendFromComposer(text: string): Promise<void>;
  /** Opens an attachment of a sent turn. */
  openAttachment(turnId: string, attachmentId: string): Promise<void>;
  /** `/image` turns: the buttons beside each image. */
  readonly images: { act(turnId: string, index: number, action: ImageAction): Promise<void> };
  /** The composer's attachments and the `#` picker. */
  readonly context: { handle(message: ContextWebviewMessage): Promise<void> };
  stop(): Promise<void>;
  rerunLast(options?: { dropOldest?: boolean }): Promise<void>;
  editAndResend(turnId: string, text: string): Promise<void>;
  newChat(): Promise<void>;
  show(conversation: Conversation): Promise<void>;
  /** Keeps the reader's open/closed choice of an answer's Thinking section. */
  setThinkingOpen(turnId: string, open: boolean): void;
  /** Sets the conversation's model (saved when the conversation has turns). */
  setModel(model: string): Promise<void>;
  /** Agent mode: the Mode select, changed files, Continue, approvals, checkpoints. */
  readonly agent: AgentActions;
}

/** What the webview asks of a session's agent. */
export interface AgentActions {
  setMode(mode: ChatMode): Promise<void>;
  /** Keeps or undoes one changed file of a run, or every file when `path` is undefined. */
  decide(turnId: string, path: string | undefined, decision: 'keep' | 'undo'): Promise<void>;
  /** Opens the file with its change against the checkpoint. */
  openChangedFile(turnId: string, path: string): Promise<void>;
  /** Resumes a run paused at the step limit. */
  continueRun(turnId: string): Promise<void>;
  /** The user's click on one of the choices (Approve, Skip, Run, Always Allow) of a call waiting for approval. */
  approve(turnId: string, callId: string, choice: ApprovalChoiceId): void;
  /** "Start with Agent" under a plan: Agent mode, and "Carry out this plan" sent. */
  startWithAgent(turnId: string): Promise<void>;
  /** Puts the files back as they were before this user turn's run, and removes the turns from it on. */
  restoreCheckpoint(turnId: string): Promise<void>;
  /** The Tools picker opened: posts the tools with their state. */
  openTools(): Promise<void>;
  /** The Tools button shown: posts the tools known so far (no MCP server started). */
  listTools(): Promise<void>;
  /** Turns one tool on or off for the workspace's runs. */
  setToolEnabled(name: string, enabled: boolean): Promise<void>;
}
