/**
 * The files an agent run changed, under the run: "3 files changed +40 −12" with Keep All and Undo All, then a row
 * per file that opens its review, with its own Keep and Undo while it waits for a decision.
 */
import * as l10n from '@vscode/l10n';
import type { ChangedFile } from '../../chat/agentTurn';
import { h, icon } from '../dom';

/** What the list asks of its run. */
export interface ChangedFilesHandlers {
  /** Keep or Undo one file, or every pending file when `path` is undefined. */
  decide(path: string | undefined, decision: 'keep' | 'undo'): void;
  open(path: string): void;
}

/** "+12 −3", each figure in its colour (the minus sign is U+2212, as in the review). */
function lineCounts(added: number, removed: number): HTMLElement {
  return h(
    'span',
    { class: 'agent-line-counts' },
    h('span', { class: 'agent-added' }, `+${added}`),
    h('span', { class: 'agent-removed' }, `\u2212${removed}`),
  );
}

/** A small button whose visible text is the verb and whose accessible name says which file. */
function fileButton(label: string, name: string, onClick: () => void, secondary: boolean): HTMLButtonElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: secondary ? 'agent-small-button secondary' : 'agent-small-button',
      'aria-label': name,
      title: name,
    },
    label,
  );
  button.addEventListener('click', onClick);
  return button;
}

/** The changed-files list of one run; `update` replaces it (the host's `agentFiles`). */
export class ChangedFilesView {
  readonly element: HTMLElement;

  constructor(
    files: ChangedFile[],
    private readonly handlers: ChangedFilesHandlers,
  ) {
    this.element = h('div', { class: 'agent-files', role: 'group', 'aria-label': l10n.t('Changed files') });
    this.update(files);
  }

  /** Redraws the list; a focused button that goes (its file was decided) hands the focus to its file's row. */
  update(files: ChangedFile[]): void {
    const focused = document.activeElement;
    const focusPath =
      focused instanceof HTMLElement && this.element.contains(focused)
        ? (focused.closest<HTMLElement>('.agent-file')?.dataset.path ?? '')
        : undefined;
    this.element.hidden = files.length === 0;
    this.element.replaceChildren(...(files.length ? [this.summary(files), this.list(files)] : []));
    if (focusPath === undefined) return;
    const row = Array.from(this.element.querySelectorAll<HTMLElement>('.agent-file')).find(
      (el) => el.dataset.path === focusPath,
    );
    const target =
      row?.querySelector<HTMLElement>('.agent-small-button') ??
      row?.querySelector<HTMLElement>('.agent-file-open') ??
      this.element.querySelector<HTMLElement>('button');
    target?.focus();
  }

  private summary(files: ChangedFile[]): HTMLElement {
    let added = 0;
    let removed = 0;
    for (const file of files) {
      added += file.added;
      removed += file.removed;
    }
    const pending = files.some((file) => file.decision === 'pending');
    const count = files.length === 1 ? l10n.t('1 file changed') : l10n.t('{0} files changed', files.length);
    return h(
      'div',
      { class: 'agent-files-summary' },
      icon('diff'),
      h('span', { class: 'agent-files-count' }, count),
      lineCounts(added, removed),
      pending
        ? h(
            'span',
            { class: 'agent-files-actions' },
            fileButton(
              l10n.t('Keep All'),
              l10n.t('Keep All'),
              () => this.handlers.decide(undefined, 'keep'),
              false,
            ),
            fileButton(
              l10n.t('Undo All'),
              l10n.t('Undo All'),
              () => this.handlers.decide(undefined, 'undo'),
              true,
            ),
          )
        : null,
    );
  }

  private list(files: ChangedFile[]): HTMLElement {
    return h('ul', { class: 'agent-file-list' }, ...files.map((file) => this.row(file)));
  }

  private row(file: ChangedFile): HTMLElement {
    const open = h(
      'button',
      { type: 'button', class: 'agent-file-open', title: l10n.t('Review the changes of {0}', file.path) },
      icon(file.created ? 'new-file' : file.deleted ? 'trash' : 'file'),
      h('span', { class: 'agent-file-path' }, file.path),
    );
    open.addEventListener('click', () => this.handlers.open(file.path));
    const notes = [
      file.created ? l10n.t('created') : null,
      file.deleted ? l10n.t('deleted') : null,
      file.inBuffer ? l10n.t('unsaved, in the editor') : null,
    ].filter((note): note is string => note !== null);
    const decision = {
      pending: undefined,
      kept: l10n.t('Kept'),
      undone: l10n.t('Undone'),
      partial: l10n.t('Partly kept'),
    }[file.decision];
    const row = h(
      'li',
      { class: `agent-file decision-${file.decision}` },
      open,
      lineCounts(file.added, file.removed),
      notes.length ? h('span', { class: 'agent-file-note' }, notes.join(' · ')) : null,
      decision
        ? h('span', { class: 'agent-file-decision' }, decision)
        : h(
            'span',
            { class: 'agent-file-actions' },
            fileButton(
              l10n.t('Keep'),
              l10n.t('Keep {0}', file.path),
              () => this.handlers.decide(file.path, 'keep'),
              false,
            ),
            fileButton(
              l10n.t('Undo'),
              l10n.t('Undo {0}', file.path),
              () => this.handlers.decide(file.path, 'undo'),
              true,
            ),
          ),
    );
    row.dataset.path = file.path;
    return row;
  }
}
