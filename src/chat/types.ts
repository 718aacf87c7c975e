/** The conversation model shared by the host, the webview and persistence. */
import type { ImageQuality, ImageResponseFormat, ImageSize, Usage } from '../gateway/types';
import type { AgentRun, ChatMode } from './agentTurn';
import type { Attachment } from './context/types';

/** How an assistant turn ended. `streaming` only while the answer is arriving. */
export type TurnStatus = 'streaming' | 'complete' | 'stopped' | 'error' | 'interrupted' | 'truncated';

/**
 * What the user can do about an error, shown as a button next to Retry. `openSettings` (a gateway that
 * cannot be reached) opens `modelGateway.baseUrl` and comes with a Show Log button (`showLog`).
 */
export const ERROR_ACTIONS = ['setApiKey', 'openSettings', 'dropOldestTurns', 'showLog'] as const;
export type ErrorAction = (typeof ERROR_ACTIONS)[number];

export interface TurnError {
  /** A message that names the cause and the next step. */
  message: string;
  requestId?: string;
  action?: ErrorAction;
}

/** Code the user sent along with a message (explain selection). */
export interface CodeQuote {
  code: string;
  language: string;
  fileName: string;
  startLine: number;
}

export interface UserTurn {
  id: string;
  role: 'user';
  content: string;
  quote?: CodeQuote;
  /**
   * What the model is sent in place of `content`, when a command worded the request for it (Explain Selection:
   * the instruction and the lines around the code). `content` stays what the user asked, as the transcript shows.
   */
  modelText?: string;
  /** Context attached to the message, as it was when sent (files, selection, problems…). */
  attachments?: Attachment[];
  /** Sent in Agent mode and its run changed files: Restore Checkpoint puts them back. */
  checkpoint?: boolean;
  createdAt: number;
}

export interface AssistantTurn {
  id: string;
  role: 'assistant';
  model: string;
  content: string;
  /** Reasoning from a thinking model; shown, never sent back to the gateway. */
  reasoning?: string;
  /** How long the model reasoned, in ms. */
  reasoningMs?: number;
  /** The reader opened (true) or closed (false) the Thinking section; kept with the conversation. */
  thinkingOpen?: boolean;
  status: TurnStatus;
  finishReason?: string;
  usage?: Usage;
  error?: TurnError;
  /** Agent mode: the run's tool calls, changed files and meter. */
  agent?: AgentRun;
  createdAt: number;
}

/** How an image turn stands: `generating` only while the request is in flight. */
export type ImageTurnStatus = 'generating' | 'complete' | 'stopped' | 'error' | 'interrupted';

/** One saved image of an image turn: where it is, never its bytes. */
export interface ImageTurnFile {
  /** Path relative to its workspace folder, with `/` separators (e.g. `images/2025-…-fox.png`). */
  path: string;
  /** The workspace folder's name, when several are open. */
  workspaceFolder?: string;
  revisedPrompt?: string;
}

/** The options an image turn asked for: the image settings with the command's overrides applied. */
export interface ImageTurnOptions {
  size: ImageSize;
  quality: ImageQuality;
  n: number;
  responseFormat: ImageResponseFormat;
}

/** A `/image` command and its result; shown in the chat, never sent to the chat model. */
export interface ImageTurn {
  id: string;
  role: 'image';
  /** What the user typed, `/image …` included. */
  content: string;
  prompt: string;
  model: string;
  options: ImageTurnOptions;
  status: ImageTurnStatus;
  images: ImageTurnFile[];
  error?: TurnError;
  /** How long the request took, in ms. */
  durationMs?: number;
  createdAt: number;
}

export type Turn = UserTurn | AssistantTurn | ImageTurn;

export interface Conversation {
  id: string;
  title: string;
  model: string;
  /** Ask (the default) or Agent; kept with the conversation. */
  mode?: ChatMode;
  createdAt: number;
  updatedAt: number;
  turns: Turn[];
}

/** A line of the history list. */
export interface ConversationSummary {
  id: string;
  title: string;
  model: string;
  updatedAt: number;
  turnCount: number;
}
