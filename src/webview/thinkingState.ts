/** The reader's open/closed choice for each turn's Thinking section, kept in the webview state (survives reloads). */
import { loadUiState, saveUiState } from './vscodeApi';

/** Enough for a long conversation; older choices are dropped first. */
const MAX_REMEMBERED = 300;

/** The reader's choice for a turn, or undefined when they never toggled it. */
export function thinkingOpen(turnId: string): boolean | undefined {
  return loadUiState().thinkingOpen?.[turnId];
}

/** Remembers the reader's choice for a turn. */
export function rememberThinkingOpen(turnId: string, open: boolean): void {
  const current = { ...loadUiState().thinkingOpen };
  delete current[turnId]; // re-inserted last, so the oldest choices are the ones dropped
  current[turnId] = open;
  const entries = Object.entries(current).slice(-MAX_REMEMBERED);
  saveUiState({ thinkingOpen: Object.fromEntries(entries) });
}
