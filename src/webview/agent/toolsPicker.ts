/**
 * The composer's Tools button (Agent mode only) and its panel: every tool a run can offer, with a checkbox,
 * grouped by where it comes from (built in, MCP servers, other extensions). The host owns the list and the
 * choice: opening asks it for the list, each checkbox reports one change, and the host's answer redraws.
 */
import * as l10n from '@vscode/l10n';
import type { ToolChoiceEntry, ToolSource } from '../../agent/toolChoice';
import { h, icon, uniqueId } from '../dom';

/** What the picker asks of its owner. */
export interface ToolsPickerHandlers {
  /** The panel opened: the host answers with the tools (`show`). */
  open(): void;
  /** The button appeared: the host answers with the tools known so far (`show`), for the count. */
  list(): void;
  setEnabled(name: string, enabled: boolean): void;
}

function groupName(source: ToolSource): string {
  if (source === 'builtin') return l10n.t('Built-in');
  if (source === 'mcp') return l10n.t('MCP servers');
  return l10n.t('Other extensions');
}

/** The Tools button and its panel of checkboxes. */
export class ToolsPicker {
  readonly element: HTMLElement;
  readonly button: HTMLButtonElement;
  private readonly panel: HTMLElement;
  private readonly count: HTMLElement;
  private entries: ToolChoiceEntry[] = [];

  constructor(private readonly handlers: ToolsPickerHandlers) {
    this.panel = h('div', {
      class: 'tools-panel context-picker',
      role: 'group',
      id: uniqueId('tools-panel'),
      'aria-label': l10n.t('Tools'),
      hidden: true,
    });
    const countId = uniqueId('tools-count');
    this.count = h('span', { class: 'tools-count', id: countId });
    this.button = h(
      'button',
      {
        type: 'button',
        class: 'icon-button tools-button',
        'aria-label': l10n.t('Tools'),
        title: l10n.t('Tools the agent may use'),
        'aria-expanded': 'false',
        'aria-controls': this.panel.id,
        'aria-describedby': countId,
      },
      icon('tools'),
      this.count,
    );
    this.button.addEventListener('click', () => (this.isOpen ? this.close(true) : this.open()));
    this.panel.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      this.close(true);
    });
    this.panel.addEventListener('change', (event) => {
      const box = event.target instanceof HTMLInputElement ? event.target : undefined;
      if (box?.dataset.tool) this.handlers.setEnabled(box.dataset.tool, box.checked);
    });
    // A click elsewhere in the view closes the panel, as a menu does.
    document.addEventListener('mousedown', (event) => {
      if (this.isOpen && event.target instanceof Node && !this.element.contains(event.target))
        this.close(false);
    });
    this.element = h('span', { class: 'tools-picker', hidden: true }, this.button, this.panel);
  }

  get isOpen(): boolean {
    return !this.panel.hidden;
  }

  /** Shown in Agent mode only; hiding it closes the panel, showing it asks for the count. */
  setAvailable(available: boolean): void {
    const appeared = available && this.element.hidden;
    this.element.hidden = !available;
    if (!available) this.close(false);
    if (appeared) this.handlers.list();
  }

  /** Asks for the count again (a run may have started MCP servers), when the button is shown. */
  refresh(): void {
    if (!this.element.hidden) this.handlers.list();
  }

  /** Draws the host's list: the count on the button, and the panel's checkboxes when it is open. */
  show(entries: ToolChoiceEntry[]): void {
    this.entries = entries;
    const on = entries.filter((e) => e.enabled).length;
    this.count.textContent = `${on}/${entries.length}`;
    // The accessible name stays "Tools" (a contract); the tooltip and the description carry the count.
    this.button.title = l10n.t('Tools the agent may use: {0} of {1} on', on, entries.length);
    if (this.isOpen) this.render();
  }

  private open(): void {
    this.panel.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.render();
    this.handlers.open();
  }

  private close(returnFocus: boolean): void {
    if (!this.isOpen) return;
    this.panel.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    if (returnFocus) this.button.focus();
  }

  private render(): void {
    const focused =
      document.activeElement instanceof HTMLInputElement ? document.activeElement.dataset.tool : undefined;
    const groups = (['builtin', 'mcp', 'vscode'] as const)
      .map((source) => ({ source, tools: this.entries.filter((e) => e.source === source) }))
      .filter((g) => g.tools.length > 0);
    if (groups.length === 0) {
      this.panel.replaceChildren(h('div', { class: 'context-status' }, l10n.t('Loading tools…')));
      return;
    }
    this.panel.replaceChildren(
      ...groups.map(({ source, tools }) =>
        h(
          'fieldset',
          { class: 'tools-group' },
          h('legend', {}, groupName(source)),
          ...tools.map((tool) => this.row(tool)),
        ),
      ),
    );
    const again = focused
      ? this.panel.querySelector<HTMLInputElement>(`input[data-tool="${CSS.escape(focused)}"]`)
      : null;
    (again ?? this.panel.querySelector<HTMLInputElement>('input'))?.focus();
  }

  private row(tool: ToolChoiceEntry): HTMLElement {
    const box = h('input', { type: 'checkbox', 'data-tool': tool.name });
    box.checked = tool.enabled;
    return h(
      'label',
      { class: 'tools-row', title: tool.description || tool.name },
      box,
      h('span', { class: 'tools-name' }, tool.name),
      h('span', { class: 'context-option-detail' }, tool.description),
    );
  }
}
