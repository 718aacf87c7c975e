/**
 * The header's Mode select: Ask (the chat answers), Agent (the model works in the workspace with tools) or Plan
 * (the model reads with the read-only tools and answers with a plan).
 */
import * as l10n from '@vscode/l10n';
import { CHAT_MODES, type ChatMode } from '../../chat/agentTurn';
import type { AgentAvailability } from '../../protocol';
import { h } from '../dom';

/** The mode a select value stands for; anything unknown is Ask. */
export function modeOf(value: string): ChatMode {
  return (CHAT_MODES as readonly string[]).includes(value) ? (value as ChatMode) : 'ask';
}

/** The mode the select shows: Agent only when it can be chosen, Plan only when the agent is on; else Ask. */
export function shownMode(mode: ChatMode | undefined, availability: AgentAvailability): ChatMode {
  if (!availability.enabled || mode === undefined) return 'ask';
  if (mode === 'agent' && availability.disabledReason !== undefined) return 'ask';
  return mode;
}

/** The select named "Mode"; it shows the conversation's mode and reports the user's choice. */
export class ModeSelect {
  readonly element: HTMLSelectElement;
  private readonly agentOption: HTMLOptionElement;
  private readonly planOption: HTMLOptionElement;
  private mode: ChatMode = 'ask';

  constructor(choose: (mode: ChatMode) => void) {
    this.agentOption = h('option', { value: 'agent' }, l10n.t('Agent'));
    this.planOption = h(
      'option',
      { value: 'plan', title: l10n.t('Reads the workspace and answers with a plan; edits nothing') },
      l10n.t('Plan'),
    );
    this.element = h(
      'select',
      { class: 'mode-picker', 'aria-label': l10n.t('Mode'), title: l10n.t('Mode') },
      h('option', { value: 'ask' }, l10n.t('Ask')),
      this.agentOption,
      this.planOption,
    );
    this.element.addEventListener('change', () => {
      const mode = modeOf(this.element.value);
      this.mode = mode;
      choose(mode);
    });
  }

  /** Shows the conversation's mode and whether Agent and Plan are offered (hidden when off, Agent disabled with a reason). */
  update(mode: ChatMode | undefined, availability: AgentAvailability | undefined): void {
    // A host that says nothing of the agent (an older build) offers none.
    const agent = availability ?? { enabled: false };
    const reason = agent.enabled ? agent.disabledReason : undefined;
    // With Agent off, Ask would be the only choice: the select goes rather than offering nothing to pick.
    this.element.hidden = !agent.enabled;
    this.agentOption.hidden = !agent.enabled;
    this.planOption.hidden = !agent.enabled;
    this.agentOption.disabled = reason !== undefined;
    if (reason !== undefined) this.agentOption.title = reason;
    else this.agentOption.removeAttribute('title');
    // A reason on the option alone shows in few dropdowns; the select's tooltip carries it too.
    this.element.title = reason !== undefined ? l10n.t('Mode · Agent: {0}', reason) : l10n.t('Mode');
    this.mode = shownMode(mode, agent);
    this.element.value = this.mode;
  }

  /** The mode shown. */
  get value(): ChatMode {
    return this.mode;
  }
}
