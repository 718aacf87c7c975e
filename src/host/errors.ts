import * as vscode from 'vscode';
import { isGatewayError } from '../gateway';
import type { TurnError } from '../chat/types';
import { SET_API_KEY } from './gatewayService';

/** True when the error is the user's own cancel, which ends quietly. */
export function isUserAbort(error: unknown): boolean {
  return isGatewayError(error) && error.kind === 'aborted';
}

/** A user-facing message for any error: the gateway's typed message, or a plain fallback. */
export function describeError(error: unknown): TurnError {
  if (isGatewayError(error)) {
    return {
      message: error.message,
      requestId: error.requestId,
      action:
        error.kind === 'auth' ? 'setApiKey' : error.kind === 'context_length' ? 'dropOldestTurns' : undefined,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: `Unexpected error: ${message}. See 'Model Gateway: Show Log' for details.` };
}

/**
 * Shows an error notification with the right next step, and writes the same text to the log that its
 * Show Log button opens (notifications vanish; the log keeps what the user was told). User aborts show nothing.
 */
export async function showError(
  error: unknown,
  prefix: string | undefined,
  log: vscode.LogOutputChannel,
): Promise<void> {
  if (isUserAbort(error)) return;
  const described = describeError(error);
  const text = [prefix, described.message, described.requestId ? `(Request ID: ${described.requestId})` : '']
    .filter(Boolean)
    .join(' ');
  log.error(`Shown to the user: ${text}`);
  const actions = described.action === 'setApiKey' ? [SET_API_KEY, 'Show Log'] : ['Show Log'];
  const choice = await vscode.window.showErrorMessage(text, ...actions);
  if (choice === SET_API_KEY) await vscode.commands.executeCommand('modelGateway.setApiKey');
  if (choice === 'Show Log') await vscode.commands.executeCommand('modelGateway.showLog');
}
