/** The `#` picker: a listbox named "Context" above the composer, driven from the message box's keys. */
import type { PickerItem, PickerMode } from '../contextProtocol';
import { h, icon, uniqueId } from './dom';

/** What the picker asks of its owner. */
export interface PickerHandlers {
  query(requestId: number, mode: PickerMode, query: string): void;
  choose(item: PickerItem): void;
}

/** Kinds first, then results as the user types; only the newest search's answer is shown. */
export class ContextPicker {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private items: PickerItem[] = [];
  private active = 0;
  private requestId = 0;
  private mode: PickerMode = 'all';
  private lastQuery: string | undefined;
  private pending = false;

  constructor(
    private readonly handlers: PickerHandlers,
    private readonly input: HTMLElement,
  ) {
    this.list = h('ul', {
      role: 'listbox',
      'aria-label': 'Context',
      id: uniqueId('context-list'),
      class: 'context-list',
    });
    this.element = h('div', { class: 'context-picker', hidden: true }, this.list);
    // Clicks choose without taking focus from the message box, so typing goes on where it was.
    this.list.addEventListener('mousedown', (event) => event.preventDefault());
    this.list.addEventListener('click', (event) => {
      const row =
        event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
      const index = row ? Number(row.dataset.index) : -1;
      if (this.items[index]) this.handlers.choose(this.items[index]);
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Opens (or updates) the picker for `query` in `mode`; a new search supersedes the one in flight. */
  show(mode: PickerMode, query: string): void {
    if (this.isOpen && mode === this.mode && query === this.lastQuery) return;
    this.mode = mode;
    this.lastQuery = query;
    this.requestId += 1;
    this.pending = true;
    if (!this.isOpen) {
      this.element.hidden = false;
      this.input.setAttribute('aria-expanded', 'true');
      this.input.setAttribute('aria-controls', this.list.id);
      this.render();
    }
    this.handlers.query(this.requestId, mode, query);
  }

  close(): void {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.lastQuery = undefined;
    this.items = [];
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  /** Shows the host's answer, if it answers the newest search. */
  results(requestId: number, items: PickerItem[], pending: boolean): void {
    if (requestId !== this.requestId || !this.isOpen) return;
    this.items = items;
    this.pending = pending;
    this.active = 0;
    this.render();
  }

  /** Arrows move, Enter or Tab chooses, Escape closes; returns true when the key was the picker's. */
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
        if (!this.items[this.active]) return event.key === 'Enter';
        this.handlers.choose(this.items[this.active]);
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
    if (this.pending) rows.push(h('li', { class: 'context-status', role: 'presentation' }, 'Searching…'));
    else if (!rows.length)
      rows.push(h('li', { class: 'context-status', role: 'presentation' }, 'No matches'));
    this.list.replaceChildren(...rows);
    const active = rows[this.active];
    if (this.items.length && active) {
      this.input.setAttribute('aria-activedescendant', active.id);
      active.scrollIntoView({ block: 'nearest' });
    } else this.input.removeAttribute('aria-activedescendant');
  }
}

/** The `#` token being typed before the caret: `#query`, `#file:query` or `#sym:query`. */
export function hashToken(
  text: string,
  caret: number,
): { start: number; mode: PickerMode; query: string } | undefined {
  const match = /(^|\s)#(?:(file|sym):)?([^\s#]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  const start = match.index + match[1].length;
  const mode: PickerMode = match[2] === 'file' ? 'files' : match[2] === 'sym' ? 'symbols' : 'all';
  return { start, mode, query: match[3] };
}
