import * as vscode from 'vscode';
import { isGatewayError, type GatewayError } from '../gateway/errors';
import type { TurnError } from '../chat/types';

/** The next step each kind of gateway error suggests (a refused connection: check the base URL). */
const ERROR_ACTIONS: Partial<Record<GatewayError['kind'], TurnError['action']>> = {
  auth: 'setApiKey',
  context_length: 'dropOldestTurns',
};
/** Socket codes of a gateway that was never reached: a wrong base URL is the usual cause. */
const UNREACHABLE = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$|CERT|TLS|SSL/;

/** True when the connection could not be made at all (not a connection that broke mid-answer). */
function unreachable(error: GatewayError): boolean {
  return error.kind === 'connection' && UNREACHABLE.test(error.code ?? '');
}

/** Opens the Settings editor on `modelGateway.baseUrl`, where a refused connection is fixed. */
export async function openBaseUrlSetting(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway.baseUrl');
}

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
      action: unreachable(error) ? 'openSettings' : ERROR_ACTIONS[error.kind],
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: vscode.l10n.t("Unexpected error: {0}. See 'Model Gateway: Show Log' for details.", message),
  };
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
  const text = [
    prefix,
    described.message,
    described.requestId ? vscode.l10n.t('(Request ID: {0})', described.requestId) : '',
  ]
    .filter(Boolean)
    .join(' ');
  log.error(`Shown to the user: ${text}`);
  const setKey = setApiKeyLabel();
  const openSettings = vscode.l10n.t('Open Settings');
  const showLog = vscode.l10n.t('Show Log');
  const actions =
    described.action === 'setApiKey'
      ? [setKey, showLog]
      : described.action === 'openSettings'
        ? [openSettings, showLog]
        : [showLog];
  const choice = await vscode.window.showErrorMessage(text, ...actions);
  if (choice === setKey) await vscode.commands.executeCommand('modelGateway.setApiKey');
  if (choice === openSettings) await openBaseUrlSetting();
  if (choice === showLog) await vscode.commands.executeCommand('modelGateway.showLog');
}

/** The label of the buttons that run Set API Key. */
export const setApiKeyLabel = (): string => vscode.l10n.t('Set API Key');
