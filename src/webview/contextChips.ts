/** The composer's attachments as chips, the suggested current file, and the notice line for refusals. */
import * as l10n from '@vscode/l10n';
import type { ContextChip } from '../contextProtocol';
import { h, icon, iconButton } from './dom';

/** What the chips ask of their owner. */
export interface ChipHandlers {
  open(id: string): void;
  remove(id: string): void;
  accept(): void;
  dismiss(): void;
}

const KIND_ICONS: Record<ContextChip['kind'], string> = {
  file: 'file',
  selection: 'selection',
  editors: 'files',
  problems: 'warning',
  terminal: 'terminal',
  symbol: 'symbol-method',
};

/** Icon for a context kind. */
export function kindIcon(kind: ContextChip['kind']): string {
  return KIND_ICONS[kind] ?? 'file';
}

/** Token counts as the chips show them: 850, 1.2K, 20K. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  return tokens < 10_000 ? `${(tokens / 1000).toFixed(1)}K` : `${Math.round(tokens / 1000)}K`;
}

/**
 * What a chip's tooltip says: where it comes from and its tokens, after its whole name when the place does not
 * already hold it (a long name is cut on the chip: "Terminal: bash (output not cap…").
 */
function chipTooltip(chip: ContextChip): string {
  const about = l10n.t('{0} · about {1} tokens', chip.detail, chip.tokens);
  return chip.detail.includes(chip.name) ? about : `${chip.name} · ${about}`;
}

/** The row of chips above the message box. */
export class ChipTray {
  readonly element: HTMLElement;
  chips: ContextChip[] = [];

  constructor(private readonly handlers: ChipHandlers) {
    this.element = h('div', {
      class: 'chip-tray',
      hidden: true,
      role: 'list',
      'aria-label': l10n.t('Attachments'),
    });
  }

  /** Replaces the chips and the suggestion. */
  update(chips: ContextChip[], suggestion: ContextChip | undefined): void {
    this.chips = chips;
    const items = chips.map((chip) => this.chip(chip));
    if (suggestion) items.push(this.suggested(suggestion));
    this.element.replaceChildren(...items);
    this.element.hidden = items.length === 0;
  }

  /** Estimated tokens of the attached (not suggested) chips. */
  get tokens(): number {
    return this.chips.reduce((sum, c) => sum + c.tokens, 0);
  }

  private chip(chip: ContextChip): HTMLElement {
    const open = h(
      'button',
      {
        type: 'button',
        class: 'chip-main',
        title: chipTooltip(chip),
      },
      icon(kindIcon(chip.kind)),
      h('span', { class: 'chip-name' }, chip.name),
      chip.lines ? h('span', { class: 'chip-lines' }, `:${chip.lines}`) : null,
      h('span', { class: 'chip-tokens' }, formatTokens(chip.tokens)),
    );
    open.addEventListener('click', () => this.handlers.open(chip.id));
    const remove = iconButton('close', l10n.t('Remove {0}', chip.name), () => this.handlers.remove(chip.id));
    remove.classList.add('chip-remove');
    return h('div', { class: 'chip', role: 'listitem' }, open, remove);
  }

  private suggested(chip: ContextChip): HTMLElement {
    const accept = h(
      'button',
      {
        type: 'button',
        class: 'chip-main',
        'aria-label': l10n.t('Add {0} (suggested)', chip.name),
        title: l10n.t('Suggested: {0}. Click to attach it.', chip.detail),
      },
      icon(kindIcon(chip.kind)),
      h('span', { class: 'chip-name' }, chip.name),
      h('span', { class: 'chip-tokens' }, formatTokens(chip.tokens)),
    );
    accept.addEventListener('click', () => this.handlers.accept());
    const dismiss = iconButton('close', l10n.t('Dismiss {0}', chip.name), () => this.handlers.dismiss());
    dismiss.classList.add('chip-remove');
    return h('div', { class: 'chip suggested', role: 'listitem' }, accept, dismiss);
  }
}

/** A refusal or warning about attachments, shown above the message box until dismissed or the next send. */
export class NoticeLine {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;
  private readonly icon = icon('error');

  constructor() {
    this.text = h('span', { class: 'notice-text' });
    const close = iconButton('close', l10n.t('Dismiss notice'), () => this.clear());
    this.element = h('div', { class: 'notice', role: 'alert', hidden: true }, this.icon, this.text, close);
  }

  show(level: 'error' | 'info', message: string): void {
    this.element.classList.toggle('info', level === 'info');
    this.icon.className = `codicon codicon-${level === 'info' ? 'info' : 'error'}`;
    this.text.textContent = message;
    this.element.hidden = false;
  }

  clear(): void {
    this.element.hidden = true;
    this.text.textContent = '';
  }
}
