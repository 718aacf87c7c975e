/**
 * A listbox that pops up above the message box and is driven from its keys (the `#` picker, the `/` menu):
 * arrows move, Enter or Tab chooses, Escape closes; the message box keeps the focus and points at the active
 * option (aria-activedescendant).
 */
import { h, icon, uniqueId } from './dom';

/** One row: a codicon, a label and an optional detail. */
export interface ListRow {
  label: string;
  detail?: string;
  icon: string;
}

/** The popup's name (its accessible name) and the id prefix of its options. */
export interface ListboxOptions {
  name: string;
  idPrefix: string;
  className?: string;
}

/** The popup list; its owner decides what the rows are and what choosing one does. */
export class PopupListbox<T extends ListRow> {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private items: T[] = [];
  private active = 0;
  private status: string | undefined;

  constructor(
    private readonly input: HTMLElement,
    options: ListboxOptions,
    private readonly choose: (item: T) => void,
  ) {
    this.list = h('ul', {
      role: 'listbox',
      'aria-label': options.name,
      id: uniqueId(options.idPrefix),
      class: 'context-list',
    });
    this.element = h(
      'div',
      { class: `context-picker ${options.className ?? ''}`.trim(), hidden: true },
      this.list,
    );
    // Clicks choose without taking focus from the message box, so typing goes on where it was.
    this.list.addEventListener('mousedown', (event) => event.preventDefault());
    this.list.addEventListener('click', (event) => {
      const row =
        event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
      const item = this.items[row ? Number(row.dataset.index) : -1];
      if (item) this.choose(item);
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Shows `items` (and a status line such as "Searching…" below them); the first is active unless kept. */
  setItems(items: T[], status?: string, keepActive = false): void {
    if (!keepActive || this.active >= items.length) this.active = 0;
    this.items = items;
    this.status = status;
    if (!this.isOpen) {
      this.element.hidden = false;
      this.input.setAttribute('aria-expanded', 'true');
      this.input.setAttribute('aria-controls', this.list.id);
    }
    this.render();
  }

  close(): void {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.items = [];
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  /** Takes arrows, Enter, Tab and Escape while open; returns true when the key was the popup's. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!this.items.length) return true;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + this.items.length) % this.items.length;
        this.render();
        return true;
      }
      case 'Enter':
      case 'Tab':
        // With nothing to choose (no matches, or still searching) the key is not the popup's: Enter then sends
        // the message as typed, since `#` is ordinary text more often than a context request.
        if (!this.items[this.active]) return false;
        this.choose(this.items[this.active]);
        return true;
      case 'Escape':
        this.close();
        return true;
      default:
        return false;
    }
  }

  private render(): void {
    const rows = this.items.map((item, index) => {
      const row = h(
        'li',
        {
          role: 'option',
          id: `${this.list.id}-${index}`,
          class: index === this.active ? 'context-option active' : 'context-option',
          'aria-selected': index === this.active ? 'true' : 'false',
        },
        icon(item.icon),
        h('span', { class: 'context-option-label' }, item.label),
        item.detail ? h('span', { class: 'context-option-detail' }, item.detail) : null,
      );
      row.dataset.index = String(index);
      return row;
    });
    const all: HTMLElement[] = [...rows];
    if (this.status) all.push(h('li', { class: 'context-status', role: 'presentation' }, this.status));
    this.list.replaceChildren(...all);
    const active = rows[this.active];
    if (active) {
      this.input.setAttribute('aria-activedescendant', active.id);
      active.scrollIntoView({ block: 'nearest' });
    } else this.input.removeAttribute('aria-activedescendant');
  }
}
