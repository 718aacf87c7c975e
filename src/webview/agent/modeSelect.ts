/** The header's Mode select: Ask (the chat answers) or Agent (the model works in the workspace with tools). */
import * as l10n from '@vscode/l10n';
import type { ChatMode } from '../../chat/agentTurn';
import type { AgentAvailability } from '../../protocol';
import { h } from '../dom';

/** The select named "Mode"; it shows the conversation's mode and reports the user's choice. */
export class ModeSelect {
  readonly element: HTMLSelectElement;
  private readonly agentOption: HTMLOptionElement;
  private mode: ChatMode = 'ask';

  constructor(choose: (mode: ChatMode) => void) {
    this.agentOption = h('option', { value: 'agent' }, l10n.t('Agent'));
    this.element = h(
      'select',
      { class: 'mode-picker', 'aria-label': l10n.t('Mode'), title: l10n.t('Mode') },
      h('option', { value: 'ask' }, l10n.t('Ask')),
      this.agentOption,
    );
    this.element.addEventListener('change', () => {
      const mode: ChatMode = this.element.value === 'agent' ? 'agent' : 'ask';
      this.mode = mode;
      choose(mode);
    });
  }

  /** Shows the conversation's mode and whether Agent is offered (hidden when off, disabled with a reason). */
  update(mode: ChatMode | undefined, availability: AgentAvailability | undefined): void {
    // A host that says nothing of the agent (an older build) offers none.
    const agent = availability ?? { enabled: false };
    const reason = agent.enabled ? agent.disabledReason : undefined;
    // With Agent off, Ask would be the only choice: the select goes rather than offering nothing to pick.
    this.element.hidden = !agent.enabled;
    this.agentOption.hidden = !agent.enabled;
    this.agentOption.disabled = reason !== undefined;
    if (reason !== undefined) this.agentOption.title = reason;
    else this.agentOption.removeAttribute('title');
    // A reason on the option alone shows in few dropdowns; the select's tooltip carries it too.
    this.element.title = reason !== undefined ? l10n.t('Mode · Agent: {0}', reason) : l10n.t('Mode');
    this.mode = mode === 'agent' && agent.enabled && reason === undefined ? 'agent' : 'ask';
    this.element.value = this.mode;
  }

  /** The mode shown. */
  get value(): ChatMode {
    return this.mode;
  }
}
