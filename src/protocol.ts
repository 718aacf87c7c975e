/** Typed messages between the extension host and the chat webview. Shared by both bundles. */
import type {
  AssistantTurn,
  Conversation,
  ConversationSummary,
  Turn,
  TurnError,
  TurnStatus,
} from './chat/types';
import type { ContextHostMessage, ContextWebviewMessage } from './contextProtocol';
import type { Usage } from './gateway/types';

/** A model as the picker shows it. */
export interface ModelOption {
  id: string;
  label: string;
  thinking: boolean;
  /** From `modelGateway.chat.extraModels`, not the built-in catalogue. */
  extra: boolean;
}

export interface OnboardingState {
  hasApiKey: boolean;
  hasBaseUrl: boolean;
}

/** Everything the webview needs to draw itself from nothing (first load, reload, switching chats). */
export interface ChatViewState {
  conversation: Conversation;
  models: ModelOption[];
  history: ConversationSummary[];
  onboarding: OnboardingState;
  /** True while an answer is streaming in this conversation. */
  busy: boolean;
}

export type HostToWebview =
  | { type: 'state'; state: ChatViewState }
  | { type: 'turnsAdded'; turns: Turn[] }
  /** Streaming increments: only new text crosses, never the whole conversation. */
  /** `retractReasoning`: first discard the turn's reasoning so far (it was the answer; see StreamEvent). */
  | { type: 'delta'; turnId: string; text?: string; reasoning?: string; retractReasoning?: true }
  | {
      type: 'turnFinished';
      turnId: string;
      status: Exclude<TurnStatus, 'streaming'>;
      finishReason?: string;
      usage?: Usage;
      error?: TurnError;
      reasoningMs?: number;
    }
  /** The turns from `fromTurnId` on were dropped (edit and resend, regenerate). */
  | { type: 'turnsRemoved'; fromTurnId: string }
  | { type: 'history'; history: ConversationSummary[] }
  | { type: 'models'; models: ModelOption[]; selected: string }
  | { type: 'onboarding'; onboarding: OnboardingState }
  | { type: 'focusComposer' }
  | ContextHostMessage;

export type CodeBlockAction = 'insert' | 'replace' | 'newFile' | 'apply';

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'regenerate' }
  | { type: 'retry' }
  | { type: 'editAndResend'; turnId: string; text: string }
  | { type: 'setModel'; model: string }
  | { type: 'newChat' }
  | { type: 'openConversation'; id: string }
  | { type: 'renameConversation'; id: string }
  | { type: 'deleteConversation'; id: string }
  | { type: 'exportConversation'; id: string }
  | { type: 'copy'; text: string }
  /** `target`: the file an Apply block names; `turnId`: the assistant turn holding the block. */
  | {
      type: 'codeAction';
      action: CodeBlockAction;
      code: string;
      language: string;
      target?: string;
      turnId?: string;
    }
  | { type: 'openLink'; href: string }
  | { type: 'setApiKey' }
  | { type: 'openSettings' }
  | { type: 'errorAction'; turnId: string; action: NonNullable<TurnError['action']> }
  | ContextWebviewMessage;

/** Narrows an unknown message from the webview to a `WebviewToHost`, or undefined when malformed. */
export function parseWebviewMessage(value: unknown): WebviewToHost | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' && WEBVIEW_MESSAGE_TYPES.has(type) ? (value as WebviewToHost) : undefined;
}

const WEBVIEW_MESSAGE_TYPES = new Set<string>([
  'ready',
  'send',
  'stop',
  'regenerate',
  'retry',
  'editAndResend',
  'setModel',
  'newChat',
  'openConversation',
  'renameConversation',
  'deleteConversation',
  'exportConversation',
  'copy',
  'codeAction',
  'openLink',
  'setApiKey',
  'openSettings',
  'errorAction',
  'contextQuery',
  'addContext',
  'removeContext',
  'openContext',
  'openAttachment',
  'acceptSuggestion',
  'dismissSuggestion',
  'dropFiles',
]);

export type { AssistantTurn };
