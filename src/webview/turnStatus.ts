/** The parts of an assistant turn below its text: end-of-answer notes, the error box, token usage. */
import type { AssistantTurn, ErrorAction, TurnError } from '../chat/types';
import type { Usage } from '../gateway/types';
import type { WebviewToHost } from '../protocol';
import { h, icon, textButton } from './dom';

const ACTION_LABELS: Record<ErrorAction, string> = {
  setApiKey: 'Set API Key',
  openSettings: 'Open Settings',
  dropOldestTurns: 'Drop oldest messages',
  showLog: 'Show Log',
};

/** The note shown under a turn that did not complete normally (nothing for complete/error). */
export function statusNote(turn: Pick<AssistantTurn, 'status' | 'finishReason'>): HTMLElement | undefined {
  switch (turn.status) {
    case 'streaming':
      return h(
        'div',
        { class: 'turn-note streaming' },
        icon('loading', 'codicon-modifier-spin'),
        h('span', {}, 'Generating…'),
      );
    case 'stopped':
      return h('div', { class: 'turn-note stopped' }, icon('debug-stop'), h('span', {}, 'Stopped'));
    case 'interrupted':
      return h(
        'div',
        { class: 'turn-note warning' },
        icon('warning'),
        h('span', {}, 'Interrupted — the window was reloaded or closed during this answer'),
      );
    case 'truncated':
      return h(
        'div',
        { class: 'turn-note warning' },
        icon('warning'),
        h(
          'span',
          {},
          'The answer ended early' + (turn.finishReason ? ` (finish reason: ${turn.finishReason})` : ''),
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
  if (canRetry) actions.append(textButton('Retry', () => post({ type: 'retry' }), { icon: 'refresh' }));
  // A gateway that cannot be reached: the base URL may be wrong, and the log says what was tried.
  const suggested: ErrorAction[] =
    error.action === 'openSettings' ? ['openSettings', 'showLog'] : error.action ? [error.action] : [];
  for (const action of suggested) {
    actions.append(
      textButton(ACTION_LABELS[action], () => post({ type: 'errorAction', turnId, action }), {
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
      error.requestId ? h('p', { class: 'error-request-id' }, `Request ID: ${error.requestId}`) : null,
      actions.childElementCount > 0 ? actions : null,
    ),
  );
}

/** "prompt N · completion N · total N tokens". */
export function usageText(usage: Usage): string {
  return `prompt ${usage.prompt_tokens} · completion ${usage.completion_tokens} · total ${usage.total_tokens} tokens`;
}

/** What the live region says when an answer ends. */
export function announcementFor(status: AssistantTurn['status'], error?: TurnError): string {
  switch (status) {
    case 'complete':
      return 'Answer complete';
    case 'stopped':
      return 'Answer stopped';
    case 'error':
      return `Error: ${error?.message ?? 'the answer failed'}`;
    case 'truncated':
      return 'Answer complete: the answer ended early';
    case 'interrupted':
      return 'Answer interrupted';
    default:
      return '';
  }
}
