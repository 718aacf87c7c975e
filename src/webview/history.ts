/** The conversation history list: open, rename, export, delete; fully keyboard operable. */
import * as l10n from '@vscode/l10n';
import type { ConversationSummary } from '../chat/types';
import { readableModelName } from '../gateway/modelNames';
import type { WebviewToHost } from '../protocol';
import { h, iconButton, uniqueId } from './dom';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "just now". */
function relativeTime(timestamp: number, now = Date.now()): string {
  const seconds = Math.round((timestamp - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return l10n.t('just now');
}

/** The history panel, shown instead of the transcript. */
export class HistoryView {
  readonly element: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly empty: HTMLElement;

  constructor(
    private readonly post: (message: WebviewToHost) => void,
    private readonly close: () => void,
  ) {
    const headingId = uniqueId('history-heading');
    this.list = h('ul', { class: 'history-list', 'aria-labelledby': headingId });
    this.empty = h('p', { class: 'history-empty' }, l10n.t('No saved conversations yet.'));
    this.element = h(
      'section',
      { class: 'history', 'aria-labelledby': headingId, hidden: true },
      h('h2', { id: headingId, class: 'history-heading' }, l10n.t('History')),
      this.empty,
      this.list,
    );
    this.element.addEventListener('keydown', (event) => this.onKeyDown(event));
  }

  /** Redraws the list; the open conversation is marked. */
  update(history: ConversationSummary[], currentId: string | undefined): void {
    const sorted = [...history].sort((a, b) => b.updatedAt - a.updatedAt);
    this.list.replaceChildren(...sorted.map((summary) => this.row(summary, summary.id === currentId)));
    this.empty.hidden = sorted.length > 0;
  }

  /** Shows or hides the panel; showing focuses the first row. */
  setOpen(open: boolean): void {
    this.element.hidden = !open;
    if (open) this.list.querySelector<HTMLButtonElement>('button')?.focus();
  }

  private row(summary: ConversationSummary, current: boolean): HTMLLIElement {
    const titleId = uniqueId('history-title');
    const action = (iconName: string, label: string, message: WebviewToHost): HTMLButtonElement => {
      const button = iconButton(iconName, label, () => {
        this.post(message);
        if (message.type === 'openConversation') this.close();
      });
      // The row's title gives "Delete" its context for screen readers.
      button.setAttribute('aria-describedby', titleId);
      return button;
    };
    const id = summary.id;
    const turns = summary.turnCount === 1 ? l10n.t('1 message') : l10n.t('{0} messages', summary.turnCount);
    const title = summary.title || l10n.t('Untitled');
    const row = h(
      'li',
      {
        class: current ? 'history-row current' : 'history-row',
        'aria-current': current ? 'true' : undefined,
      },
      h(
        'div',
        { class: 'history-text' },
        // Two lines, each cut with an ellipsis by CSS; the tooltips hold the whole text.
        h('span', { class: 'history-title', id: titleId, title }, title),
        h(
          'span',
          {
            class: 'history-meta',
            title: `${summary.model} · ${new Date(summary.updatedAt).toLocaleString()} · ${turns}`,
          },
          `${readableModelName(summary.model)} · ${relativeTime(summary.updatedAt)} · ${turns}`,
        ),
      ),
      h(
        'div',
        { class: 'history-actions' },
        action('arrow-right', l10n.t('Open'), { type: 'openConversation', id }),
        action('edit', l10n.t('Rename'), { type: 'renameConversation', id }),
        action('export', l10n.t('Export'), { type: 'exportConversation', id }),
        action('trash', l10n.t('Delete'), { type: 'deleteConversation', id }),
      ),
    );
    // Mouse users can click anywhere on the row; keyboard users have the Open button.
    row.addEventListener('click', (event) => {
      if (!(event.target instanceof Element) || !event.target.closest('button')) {
        this.post({ type: 'openConversation', id });
        this.close();
      }
    });
    return row;
  }

  /** Escape closes; Up/Down move between rows, keeping the same column of buttons. */
  private onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.close();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const button = document.activeElement;
    const row = button instanceof HTMLElement ? button.closest('li') : null;
    if (!row || !button) return;
    const column = Array.from(row.querySelectorAll('button')).indexOf(button as HTMLButtonElement);
    const next = event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling;
    const target = next?.querySelectorAll<HTMLButtonElement>('button')[Math.max(column, 0)];
    if (target) {
      event.preventDefault();
      target.focus();
    }
  }
}
