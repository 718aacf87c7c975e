/** The header: Mode select, model picker, running token total, New chat and History. */
import * as l10n from '@vscode/l10n';
import type { ChatMode } from '../chat/agentTurn';
import type { AgentAvailability, ModelOption } from '../protocol';
import { ModeSelect } from './agent/modeSelect';
import { formatTokens } from './contextChips';
import { h, iconButton } from './dom';

/** The mark of a model that the server's list did not name (the words of issue 18). */
const notListed = (): string => l10n.t('not listed by the server');

/** What the header asks of its owner. */
interface HeaderHandlers {
  selectModel(model: string): void;
  selectMode(mode: ChatMode): void;
  newChat(): void;
  toggleHistory(): void;
}

/** The header bar. */
export class Header {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly total: HTMLElement;
  private totalTokens = 0;
  private readonly historyButton: HTMLButtonElement;
  private readonly mode: ModeSelect;

  constructor(handlers: HeaderHandlers) {
    this.select = h('select', {
      class: 'model-picker',
      'aria-label': l10n.t('Model'),
      title: l10n.t('Model'),
    });
    this.select.addEventListener('change', () => {
      this.showSelectedId();
      handlers.selectModel(this.select.value);
    });
    this.total = h('span', { class: 'token-total', title: l10n.t('Tokens used in this conversation') });
    this.historyButton = iconButton('history', l10n.t('History'), () => handlers.toggleHistory());
    this.historyButton.setAttribute('aria-pressed', 'false');
    this.mode = new ModeSelect((mode) => handlers.selectMode(mode));
    this.element = h(
      'header',
      { class: 'header' },
      this.mode.element,
      this.select,
      this.total,
      iconButton('add', l10n.t('New chat'), () => handlers.newChat()),
      this.historyButton,
    );
    // A narrow view (the side bar's default width, a long model name) leaves the total too little room.
    new ResizeObserver(() => this.fitTotal()).observe(this.element);
  }

  /** Fills the picker; built-in and extra models are grouped when both exist. */
  setModels(models: ModelOption[], selected: string): void {
    // The label is the readable name (it says "thinking" itself); the id stays the value and the tooltip.
    // A model the server did not list may not answer: the mark is in the name, so it is read out too.
    const option = (model: ModelOption): HTMLOptionElement =>
      model.unlisted
        ? h(
            'option',
            { value: model.id, title: `${model.id} (${notListed()})` },
            `${model.label} (${notListed()})`,
          )
        : h('option', { value: model.id, title: model.id }, model.label);
    const builtIn = models.filter((model) => !model.extra);
    const extra = models.filter((model) => model.extra);
    const children: HTMLElement[] =
      builtIn.length > 0 && extra.length > 0
        ? [
            h('optgroup', { label: l10n.t('Models') }, ...builtIn.map(option)),
            h('optgroup', { label: l10n.t('Extra models') }, ...extra.map(option)),
          ]
        : models.map(option);
    // A conversation may use a model that is no longer offered; show it rather than silently switching.
    if (selected && !models.some((model) => model.id === selected)) {
      children.unshift(h('option', { value: selected, title: selected }, selected));
    }
    this.select.replaceChildren(...children);
    this.select.value = selected;
    this.showSelectedId();
  }

  /** The select's tooltip names the full id of the chosen model; its accessible name stays "Model". */
  private showSelectedId(): void {
    this.select.title = this.select.value ? l10n.t('Model: {0}', this.select.value) : l10n.t('Model');
  }

  /** Shows the conversation's mode (Ask or Agent) and whether Agent is offered. */
  setMode(mode: ChatMode | undefined, agent: AgentAvailability | undefined): void {
    this.mode.update(mode, agent);
  }

  /** The mode the select shows (Ask when Agent is not offered). */
  get modeValue(): ChatMode {
    return this.mode.value;
  }

  /** Shows the conversation's running token total (hidden while zero). */
  setTotal(tokens: number): void {
    this.totalTokens = tokens;
    this.total.hidden = tokens === 0;
    this.fitTotal();
  }

  /**
   * "12345 tokens" where it fits; where it would be cut ("12345 tok…"), the number alone as the chips show it
   * ("12K"), whole (the model's name gives way), with the tooltip saying what it counts.
   */
  private fitTotal(): void {
    const tokens = this.totalTokens;
    this.total.classList.remove('short');
    this.total.textContent = tokens > 0 ? l10n.t('{0} tokens', tokens) : '';
    if (tokens > 0 && this.total.scrollWidth > this.total.clientWidth) {
      this.total.textContent = formatTokens(tokens);
      this.total.classList.add('short');
    }
  }

  /** Marks the History button as pressed while the list shows. */
  setHistoryOpen(open: boolean): void {
    this.historyButton.setAttribute('aria-pressed', String(open));
  }

  /** Returns focus to the History button (closing the list with Escape). */
  focusHistoryButton(): void {
    this.historyButton.focus();
  }
}
