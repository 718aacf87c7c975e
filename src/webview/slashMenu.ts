/** The `/` menu: a listbox named "Slash commands" above the composer, driven from the message box's keys. */
import * as l10n from '@vscode/l10n';
import { SLASH_IMAGE_USAGE } from '../images/slashImage';
import { PopupListbox } from './popupListbox';

/** A command the composer understands. */
interface SlashCommand {
  name: string;
  icon: string;
  detail: string;
}

/** Every slash command, in the order the menu lists them. */
const SLASH_COMMANDS: readonly SlashCommand[] = [
  // l10n-exempt: the command's name is typed as it is, in every language
  { name: 'image', icon: 'file-media', detail: l10n.t('Generate images: {0}', SLASH_IMAGE_USAGE) },
];

/** The command name being typed: the whole message so far is `/name` (no space yet), else undefined. */
export function slashToken(text: string, caret: number): string | undefined {
  const match = /^\/(\w*)$/.exec(text.slice(0, caret));
  return match && caret === text.length ? match[1] : undefined;
}

/** The menu of slash commands: arrows move, Enter or Tab chooses, Escape closes. */
export class SlashMenu {
  private readonly popup: PopupListbox<SlashCommand & { label: string }>;

  constructor(input: HTMLElement, choose: (command: string) => void) {
    this.popup = new PopupListbox(
      input,
      { name: l10n.t('Slash commands'), idPrefix: 'slash-list', className: 'slash-menu' },
      (item) => choose(item.name),
    );
  }

  get element(): HTMLElement {
    return this.popup.element;
  }

  get isOpen(): boolean {
    return this.popup.isOpen;
  }

  /** Shows the commands whose name starts with `query`; closes when none does. */
  show(query: string): void {
    const items = SLASH_COMMANDS.filter((c) => c.name.startsWith(query.toLowerCase()));
    if (!items.length) return this.close();
    this.popup.setItems(
      items.map((c) => ({ ...c, label: `/${c.name}` })),
      undefined,
      true,
    );
  }

  close(): void {
    this.popup.close();
  }

  /** Takes arrows, Enter, Tab and Escape while open; returns true when the key was the menu's. */
  handleKey(event: KeyboardEvent): boolean {
    return this.popup.handleKey(event);
  }
}
