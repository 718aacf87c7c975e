// Typed messages between the extension host and the chat webview; the webview imports only types from here.
// To add a message from the webview: one entry in WEBVIEW_MESSAGES (its fields' schemas); the compiler then asks
// for its handler in src/host/chat/webviewActions.ts. To the webview: extend HostToWebview and vscodeApi.ts's table.
// The display language's strings reach the webview before any message, as the page's data-l10n attribute; they are
// checked like a message by src/l10nContents.ts (samples with the oracle in test/support/webviewMessages.ts).
import * as v from 'valibot';
import {
  APPROVAL_CHOICES,
  CHAT_MODES,
  type AgentMeter,
  type AgentToolRow,
  type ChangedFile,
  type ChatMode,
} from './chat/agentTurn';
import type { ToolChoiceEntry } from './agent/toolChoice';
import { ERROR_ACTIONS } from './chat/types';
import type {
  AssistantTurn,
  Conversation,
  ConversationSummary,
  ImageTurn,
  Turn,
  TurnError,
  TurnStatus,
} from './chat/types';
import { PICKER_MODES, type ContextHostMessage } from './contextProtocol';
import type { Usage } from './gateway/types';

/** A model as the picker shows it. */
export interface ModelOption {
  id: string;
  label: string;
  thinking: boolean;
  /** From `modelGateway.chat.extraModels`, not the built-in catalogue. */
  extra: boolean;
  /** A catalogue model the server's `/v1/models` list did not name; still offered, marked as such. */
  unlisted?: boolean;
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
  /** Whether the Mode select offers Agent, and why not when it does not. */
  agent: AgentAvailability;
}

/**
 * Agent and Plan modes are offered unless `modelGateway.agent.enabled` is off; in Restricted Mode Agent is shown
 * disabled (Plan, read-only, stays).
 */
export interface AgentAvailability {
  /** `modelGateway.agent.enabled`: false hides Agent and Plan from the Mode select. */
  enabled: boolean;
  /** Set when Agent is shown but cannot be chosen (Restricted Mode): the reason, for its tooltip. */
  disabledReason?: string;
}

export type HostToWebview =
  | { type: 'state'; state: ChatViewState }
  | { type: 'turnsAdded'; turns: Turn[] }
  /** Streaming increments: only new text crosses, never the whole conversation. */
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
  /** An image turn changed (finished, stopped, failed), with its images' webview URIs. */
  | { type: 'imageTurn'; turn: ImageTurn; sources: Array<string | null> }
  /** The webview URIs of image turns' files, by turn id, after a (re)load. */
  | { type: 'imageSources'; sources: ImageSources }
  /** Agent runs: a tool row added or changed (by id); the run's text arrives as `delta`s in between. */
  | { type: 'agentRow'; turnId: string; row: AgentToolRow }
  /** The run's changed files, with their Keep/Undo decisions. */
  | { type: 'agentFiles'; turnId: string; files: ChangedFile[] }
  | { type: 'agentMeter'; turnId: string; meter: AgentMeter }
  /** The run paused at the step limit (Continue shows) or went on. */
  | { type: 'agentPaused'; turnId: string; paused: boolean }
  /** The user turn's run changed files, so Restore Checkpoint shows on it. */
  | { type: 'checkpoint'; turnId: string }
  | { type: 'mode'; mode: ChatMode; agent: AgentAvailability }
  /** The Tools picker's list: every tool an agent run can offer, and whether it is on. */
  | { type: 'tools'; tools: ToolChoiceEntry[] }
  | ContextHostMessage;

/** For each image turn, its images' webview resource URIs, index by index; null for a file deleted or moved. */
export type ImageSources = Record<string, Array<string | null>>;

/** The buttons beside each image of an image turn. */
export const IMAGE_ACTIONS = ['open', 'reveal', 'copyPath', 'insertLink', 'regenerate'] as const;
export type ImageAction = (typeof IMAGE_ACTIONS)[number];

/** What a code block's toolbar can do with its code (besides copying it). */
const CODE_BLOCK_ACTIONS = ['insert', 'replace', 'newFile', 'apply'] as const;
export type CodeBlockAction = (typeof CODE_BLOCK_ACTIONS)[number];

const text = v.string();
const id = v.pipe(v.string(), v.nonEmpty());
/** A model id: never empty (a missing one used to be stored as the text "undefined"). */
const modelId = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(256));

/**
 * Every message the webview may send, by `type`, with the schema of its other fields. The `WebviewToHost`
 * type is derived from this table, and the host's dispatcher must handle each entry (a typed table, too).
 */
const WEBVIEW_MESSAGES = {
  ready: v.object({}),
  send: v.object({ text }),
  stop: v.object({}),
  regenerate: v.object({}),
  retry: v.object({}),
  editAndResend: v.object({ turnId: id, text }),
  setModel: v.object({ model: modelId }),
  newChat: v.object({}),
  openConversation: v.object({ id }),
  renameConversation: v.object({ id }),
  deleteConversation: v.object({ id }),
  exportConversation: v.object({ id }),
  copy: v.object({ text }),
  codeAction: v.object({
    action: v.picklist(CODE_BLOCK_ACTIONS),
    code: text,
    language: text,
    /** Apply: the file the block names (fence info string or first comment), when it names one. */
    target: v.optional(v.pipe(v.string(), v.maxLength(4096))),
    /** Apply: the answer the block is in, so a quoted selection of the question can be found. */
    turnId: v.optional(id),
  }),
  openLink: v.object({ href: text }),
  setApiKey: v.object({}),
  openSettings: v.object({}),
  errorAction: v.object({ turnId: id, action: v.picklist(ERROR_ACTIONS) }),
  /** The reader opened or closed an answer's Thinking section (kept with the conversation, across reloads). */
  setThinkingOpen: v.object({ turnId: id, open: v.boolean() }),
  // Context (attachments): the # picker's searches and choices, the chips, files dropped on the view.
  contextQuery: v.object({
    requestId: v.pipe(v.number(), v.integer(), v.minValue(0)),
    mode: v.picklist(PICKER_MODES),
    query: v.pipe(v.string(), v.maxLength(1000)),
  }),
  addContext: v.object({ key: v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096)) }),
  removeContext: v.object({ id }),
  openContext: v.object({ id }),
  openAttachment: v.object({ turnId: id, attachmentId: id }),
  // Image turns (/image): a button beside one of the images.
  imageAction: v.object({
    turnId: id,
    index: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(99)),
    action: v.picklist(IMAGE_ACTIONS),
  }),
  acceptSuggestion: v.object({}),
  dismissSuggestion: v.object({}),
  dropFiles: v.object({ uris: v.pipe(v.array(v.pipe(v.string(), v.maxLength(4096))), v.maxLength(100)) }),
  // Agent mode: the Mode select, the changed files' Keep/Undo, Continue, approvals and Restore Checkpoint.
  setMode: v.object({ mode: v.picklist(CHAT_MODES) }),
  /** Keep or Undo one changed file of a run (`path`), or all of them (no `path`). */
  agentDecision: v.object({
    turnId: id,
    path: v.optional(v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096))),
    decision: v.picklist(['keep', 'undo']),
  }),
  openChangedFile: v.object({ turnId: id, path: v.pipe(v.string(), v.nonEmpty(), v.maxLength(4096)) }),
  agentContinue: v.object({ turnId: id }),
  /**
   * The user's answer to a call that waits (Approve/Skip for a protected file; Run/Skip/Always Allow for a
   * command). Only a click sends this; the host accepts only a choice the row offered.
   */
  agentApproval: v.object({ turnId: id, callId: id, choice: v.picklist(APPROVAL_CHOICES) }),
  restoreCheckpoint: v.object({ turnId: id }),
  /** The Tools picker opened: the host answers with `tools`. */
  openTools: v.object({}),
  /** The Tools button shown (or a run ended): the host answers with `tools`, starting no MCP server. */
  listTools: v.object({}),
  /** A Tools picker checkbox; the host knows each tool's source, so only the name crosses. */
  setToolEnabled: v.object({
    name: v.pipe(v.string(), v.nonEmpty(), v.maxLength(256)),
    enabled: v.boolean(),
  }),
  /** "Start with Agent" under a finished plan. */
  startWithAgent: v.object({ turnId: id }),
} satisfies Record<string, v.ObjectSchema<v.ObjectEntries, undefined>>;

type WebviewMessages = typeof WEBVIEW_MESSAGES;
export type WebviewMessageType = keyof WebviewMessages;
export type WebviewToHost = {
  [K in WebviewMessageType]: { type: K } & v.InferOutput<WebviewMessages[K]>;
}[WebviewMessageType];

/** The messages about attachments, handled by the session's context (src/host/context/chatContext.ts). */
export type ContextWebviewMessage = Extract<
  WebviewToHost,
  {
    type:
      | 'contextQuery'
      | 'addContext'
      | 'removeContext'
      | 'openContext'
      | 'openAttachment'
      | 'acceptSuggestion'
      | 'dismissSuggestion'
      | 'dropFiles';
  }
>;

/** The message types, for tests and for the dispatcher's coverage. */
export const WEBVIEW_MESSAGE_TYPES = Object.keys(WEBVIEW_MESSAGES) as WebviewMessageType[];

const schemas = new Map<string, v.ObjectSchema<v.ObjectEntries, undefined>>(Object.entries(WEBVIEW_MESSAGES));

/** The outcome of checking one message: the typed message, or which type it claimed and what is wrong. */
type WebviewMessageCheck =
  | { ok: true; message: WebviewToHost }
  /** `type` is the claimed message type, or undefined when it names none; `problem` never quotes the value. */
  | { ok: false; type: WebviewMessageType | undefined; problem: string };

/** Validates an unknown message from the webview field by field. */
export function checkWebviewMessage(value: unknown): WebviewMessageCheck {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  const schema = typeof type === 'string' ? schemas.get(type) : undefined;
  if (!schema) return { ok: false, type: undefined, problem: 'no known message type' };
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, message: { ...result.output, type } as WebviewToHost };
  // Names the field and what it should be; the value itself may be a user's text and is not logged.
  const problem = result.issues.map(describeIssue).join('; ');
  return { ok: false, type: type as WebviewMessageType, problem };
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const field = v.getDotPath(issue) ?? 'message';
  if (issue.kind !== 'schema') return `${field}: fails ${issue.type} (expected ${issue.expected})`;
  return issue.input === undefined ? `${field}: missing` : `${field}: expected ${issue.expected}`;
}

/** Narrows an unknown message from the webview to a `WebviewToHost`, or undefined when malformed. */
export function parseWebviewMessage(value: unknown): WebviewToHost | undefined {
  const check = checkWebviewMessage(value);
  return check.ok ? check.message : undefined;
}

export type { AssistantTurn };
