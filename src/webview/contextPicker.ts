/** The `#` picker: a listbox named "Context" above the composer, driven from the message box's keys. */
import * as l10n from '@vscode/l10n';
import type { PickerItem, PickerMode } from '../contextProtocol';
import { PopupListbox } from './popupListbox';

/** What the picker asks of its owner. */
export interface PickerHandlers {
  query(requestId: number, mode: PickerMode, query: string): void;
  choose(item: PickerItem): void;
}

/** Kinds first, then results as the user types; only the newest search's answer is shown. */
export class ContextPicker {
  private readonly popup: PopupListbox<PickerItem>;
  private requestId = 0;
  private mode: PickerMode = 'all';
  private lastQuery: string | undefined;

  constructor(
    private readonly handlers: PickerHandlers,
    input: HTMLElement,
  ) {
    this.popup = new PopupListbox(input, { name: l10n.t('Context'), idPrefix: 'context-list' }, (item) =>
      this.handlers.choose(item),
    );
  }

  get element(): HTMLElement {
    return this.popup.element;
  }

  get isOpen(): boolean {
    return this.popup.isOpen;
  }

  /** Opens (or updates) the picker for `query` in `mode`; a new search supersedes the one in flight. */
  show(mode: PickerMode, query: string): void {
    if (this.isOpen && mode === this.mode && query === this.lastQuery) return;
    this.mode = mode;
    this.lastQuery = query;
    this.requestId += 1;
    if (!this.isOpen) this.popup.setItems([], l10n.t('Searching…'));
    this.handlers.query(this.requestId, mode, query);
  }

  close(): void {
    this.lastQuery = undefined;
    this.popup.close();
  }

  /** Shows the host's answer, if it answers the newest search. */
  results(requestId: number, items: PickerItem[], pending: boolean): void {
    if (requestId !== this.requestId || !this.isOpen) return;
    this.popup.setItems(
      items,
      pending ? l10n.t('Searching…') : items.length ? undefined : l10n.t('No matches'),
    );
  }

  /** Arrows move, Enter or Tab chooses, Escape closes; returns true when the key was the picker's. */
  handleKey(event: KeyboardEvent): boolean {
    return this.popup.handleKey(event);
  }
}
