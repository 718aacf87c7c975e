/** The webview's only channel to the extension host: typed postMessage plus UI-ephemeral state. */
import type { HostToWebview, WebviewToHost } from '../protocol';

/** What the webview remembers across reloads; the conversation itself lives in the host. */
interface UiState {
  conversationId?: string;
  /** Distance from the bottom of the transcript in px, so a reload lands where the reader was. */
  scrollFromBottom?: number;
  draft?: string;
  historyOpen?: boolean;
  /** Thinking sections the reader opened (true) or closed (false), by turn id. */
  thinkingOpen?: Record<string, boolean>;
}

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): UiState | undefined;
  setState(state: UiState): UiState;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

let api: VsCodeApi | undefined;

/** The VS Code API; acquired once because a second acquireVsCodeApi() call throws. */
function vscode(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

/** Sends a typed message to the host. */
export function post(message: WebviewToHost): void {
  vscode().postMessage(message);
}

/** Reads the UI state saved by an earlier instance of this webview. */
export function loadUiState(): UiState {
  return vscode().getState() ?? {};
}

/** Merges a patch into the saved UI state. */
export function saveUiState(patch: Partial<UiState>): void {
  vscode().setState({ ...loadUiState(), ...patch });
}

/** Every message type the host sends; typed, so the compiler asks for a new one here. */
const HOST_MESSAGE_TYPES: Record<HostToWebview['type'], true> = {
  state: true,
  turnsAdded: true,
  delta: true,
  turnFinished: true,
  turnsRemoved: true,
  history: true,
  models: true,
  onboarding: true,
  focusComposer: true,
  contextChips: true,
  contextResults: true,
  notice: true,
  restoreDraft: true,
  imageTurn: true,
  imageSources: true,
  agentRow: true,
  agentFiles: true,
  agentMeter: true,
  agentPaused: true,
  checkpoint: true,
  mode: true,
  tools: true,
};

/** Narrows a window message to a host message; anything else (other frames, extensions) is ignored. */
export function parseHostMessage(data: unknown): HostToWebview | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && Object.hasOwn(HOST_MESSAGE_TYPES, type)
    ? (data as HostToWebview)
    : undefined;
}
