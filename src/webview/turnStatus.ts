/** The parts of an assistant turn below its text: end-of-answer notes, the error box, token usage. */
import * as l10n from '@vscode/l10n';
import type { AssistantTurn, ErrorAction, TurnError } from '../chat/types';
import type { Usage } from '../gateway/types';
import type { WebviewToHost } from '../protocol';
import { h, icon, textButton } from './dom';

/** The label of each error action's button, in the display language. */
function actionLabel(action: ErrorAction): string {
  switch (action) {
    case 'setApiKey':
      return l10n.t('Set API Key');
    case 'openSettings':
      return l10n.t('Open Settings');
    case 'dropOldestTurns':
      return l10n.t('Drop oldest messages');
    case 'showLog':
      return l10n.t('Show Log');
  }
}

/** The note shown under a turn that did not complete normally (nothing for complete/error). */
export function statusNote(turn: Pick<AssistantTurn, 'status' | 'finishReason'>): HTMLElement | undefined {
  switch (turn.status) {
    case 'streaming':
      return h(
        'div',
        { class: 'turn-note streaming' },
        icon('loading', 'codicon-modifier-spin'),
        h('span', {}, l10n.t('Generating…')),
      );
    case 'stopped':
      return h('div', { class: 'turn-note stopped' }, icon('debug-stop'), h('span', {}, l10n.t('Stopped')));
    case 'interrupted':
      return h(
        'div',
        { class: 'turn-note warning' },
        icon('warning'),
        h('span', {}, l10n.t('Interrupted — the window was reloaded or closed during this answer')),
      );
    case 'truncated':
      return h(
        'div',
        { class: 'turn-note warning' },
        icon('warning'),
        h(
          'span',
          {},
          turn.finishReason
            ? l10n.t('The answer ended early (finish reason: {0})', turn.finishReason)
            : l10n.t('The answer ended early'),
        ),
      );
    default:
      return undefined;
  }
}

/** The inline error box: message, request id, Retry (on the last turn) and the suggested action. */
export function errorBox(
  turnId: string,
  error: TurnError,
  post: (message: WebviewToHost) => void,
  canRetry: boolean,
): HTMLElement {
  const actions = h('div', { class: 'error-actions' });
  if (canRetry)
    actions.append(textButton(l10n.t('Retry'), () => post({ type: 'retry' }), { icon: 'refresh' }));
  // A gateway that cannot be reached: the base URL may be wrong, and the log says what was tried.
  const suggested: ErrorAction[] =
    error.action === 'openSettings' ? ['openSettings', 'showLog'] : error.action ? [error.action] : [];
  for (const action of suggested) {
    actions.append(
      textButton(actionLabel(action), () => post({ type: 'errorAction', turnId, action }), {
        secondary: canRetry || action === 'showLog',
      }),
    );
  }
  return h(
    'div',
    { class: 'error-box' },
    icon('error'),
    h(
      'div',
      { class: 'error-content' },
      h('p', { class: 'error-message' }, error.message),
      error.requestId
        ? h('p', { class: 'error-request-id' }, l10n.t('Request ID: {0}', error.requestId))
        : null,
      actions.childElementCount > 0 ? actions : null,
    ),
  );
}

/** "prompt N · completion N · total N tokens". */
export function usageText(usage: Usage): string {
  return l10n.t(
    'prompt {0} · completion {1} · total {2} tokens',
    usage.prompt_tokens,
    usage.completion_tokens,
    usage.total_tokens,
  );
}

/** What the live region says when an answer ends. */
export function announcementFor(status: AssistantTurn['status'], error?: TurnError): string {
  switch (status) {
    case 'complete':
      return l10n.t('Answer complete');
    case 'stopped':
      return l10n.t('Answer stopped');
    case 'error':
      return l10n.t('Error: {0}', error?.message ?? l10n.t('the answer failed'));
    case 'truncated':
      return l10n.t('Answer complete: the answer ended early');
    case 'interrupted':
      return l10n.t('Answer interrupted');
    default:
      return '';
  }
}
