import * as vscode from 'vscode';
import type { RequestLogEntry } from '../gateway/types';

/** Creates the "Model Gateway" log channel. */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Model Gateway', { log: true }); // l10n-exempt: the product's name;
}

/** Writes one gateway request line; never the key, never the prompt. */
export function logRequest(log: vscode.LogOutputChannel, entry: RequestLogEntry): void {
  const parts = [
    `${entry.method} ${entry.path}`,
    entry.model ? `model=${entry.model}` : undefined,
    entry.status !== undefined ? `status=${entry.status}` : undefined,
    entry.ttfbMs !== undefined ? `ttfb=${Math.round(entry.ttfbMs)}ms` : undefined,
    `duration=${Math.round(entry.durationMs)}ms`,
    entry.requestId ? `request-id=${entry.requestId}` : undefined,
    entry.attempt > 1 ? `attempt=${entry.attempt}` : undefined,
  ].filter(Boolean);
  const line = parts.join(' ');
  if (entry.error) log.warn(`${line} error=${entry.error}`);
  else log.info(line);
}
