/** The `/` menu: a listbox named "Slash commands" above the composer, driven from the message box's keys. */
import { SLASH_IMAGE_USAGE } from '../images/slashImage';
import { h, icon, uniqueId } from './dom';

/** A command the composer understands. */
interface SlashCommand {
  name: string;
  icon: string;
  detail: string;
}

/** Every slash command, in the order the menu lists them. */
const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'image', icon: 'file-media', detail: `Generate images: ${SLASH_IMAGE_USAGE}` },
];

/** The command name being typed: the whole message so far is `/name` (no space yet), else undefined. */
export function slashToken(text: string, caret: number): string | undefined {
  const match = /^\/(\w*)$/.exec(text.slice(0, caret));
  return match && caret === text.length ? match[1] : undefined;
}

/** The menu of slash commands: arrows move, Enter or Tab chooses, Escape closes. */
export class SlashMenu {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private items: SlashCommand[] = [];
  private active = 0;

  constructor(
    private readonly input: HTMLElement,
    private readonly choose: (command: string) => void,
  ) {
    this.list = h('ul', {
      role: 'listbox',
      'aria-label': 'Slash commands',
      id: uniqueId('slash-list'),
      class: 'context-list',
    });
    this.element = h('div', { class: 'context-picker slash-menu', hidden: true }, this.list);
    // Clicks choose without taking focus from the message box.
    this.list.addEventListener('mousedown', (event) => event.preventDefault());
    this.list.addEventListener('click', (event) => {
      const row =
        event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null;
      const item = this.items[row ? Number(row.dataset.index) : -1];
      if (item) this.choose(item.name);
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Shows the commands whose name starts with `query`; closes when none does. */
  show(query: string): void {
    const items = SLASH_COMMANDS.filter((c) => c.name.startsWith(query.toLowerCase()));
    if (!items.length) return this.close();
    if (!this.isOpen || items.length !== this.items.length) this.active = 0;
    this.items = items;
    this.element.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-controls', this.list.id);
    this.render();
  }

  close(): void {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.items = [];
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  /** Takes arrows, Enter, Tab and Escape while open; returns true when the key was the menu's. */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.isOpen) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        this.active = (this.active + step + this.items.length) % this.items.length;
        this.render();
        return true;
      }
      case 'Enter':
      case 'Tab':
        this.choose(this.items[this.active].name);
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
        h('span', { class: 'context-option-label' }, `/${item.name}`),
        h('span', { class: 'context-option-detail' }, item.detail),
      );
      row.dataset.index = String(index);
      return row;
    });
    this.list.replaceChildren(...rows);
    this.input.setAttribute('aria-activedescendant', rows[this.active].id);
  }
}
