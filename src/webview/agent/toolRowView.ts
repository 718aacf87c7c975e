/**
 * One tool call of an agent run: a compact one-line button (status icon and summary) that expands to the call's
 * input and result as plain text, and, while the call waits for the user, its question with its choices (Approve and
 * Skip for a protected file; Run, Skip and Always Allow for a command).
 * Everything the model or a tool wrote goes in as text nodes, never as HTML.
 */
import * as l10n from '@vscode/l10n';
import type { AgentToolRow, AgentToolStatus, ApprovalChoice, ApprovalChoiceId } from '../../chat/agentTurn';
import { h, icon, textButton, uniqueId } from '../dom';

/** What a row reports to its run. */
export interface ToolRowHandlers {
  choose(callId: string, choice: ApprovalChoiceId): void;
}

/** The status's icon and the words a screen reader says after the summary. */
function statusLook(status: AgentToolStatus): { icon: HTMLElement; label: string } {
  switch (status) {
    case 'running':
      return { icon: icon('loading', 'codicon-modifier-spin'), label: l10n.t('running') };
    case 'done':
      return { icon: icon('check'), label: l10n.t('done') };
    case 'error':
      return { icon: icon('error'), label: l10n.t('failed') };
    case 'awaitingApproval':
      return { icon: icon('watch'), label: l10n.t('waiting for approval') };
    case 'skipped':
      return { icon: icon('circle-slash'), label: l10n.t('skipped') };
  }
}

/** The row's buttons: the host's, or Approve and Skip. */
function choicesOf(row: AgentToolRow): ApprovalChoice[] {
  return (
    row.choices ?? [
      { id: 'approve', label: l10n.t('Approve') },
      { id: 'skip', label: l10n.t('Skip') },
    ]
  );
}

/** JSON input shown indented when it parses (it may have been cut for display, then it shows as it came). */
function readableInput(input: string): string {
  try {
    return JSON.stringify(JSON.parse(input), null, 2);
  } catch {
    return input;
  }
}

/** A tool row; `update` redraws it in place when the host sends the row again (same id). */
export class ToolRowView {
  readonly element: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly details: HTMLElement;
  private readonly approvalBox: HTMLElement;
  private row: AgentToolRow;
  private expanded = false;
  /** The details are built on first expansion: a long run's inputs and results cost nothing until read. */
  private detailsKey = '';
  /** The user answered this approval; its buttons stay gone until the host asks again. */
  private answered = false;

  constructor(
    row: AgentToolRow,
    private readonly handlers: ToolRowHandlers,
  ) {
    this.row = row;
    const detailsId = uniqueId('agent-tool-details');
    this.button = h('button', {
      type: 'button',
      class: 'agent-tool-head',
      'aria-expanded': 'false',
      'aria-controls': detailsId,
    });
    this.button.addEventListener('click', () => this.toggle());
    this.details = h('div', { class: 'agent-tool-details', id: detailsId, hidden: true });
    this.approvalBox = h('div', { class: 'agent-approval', hidden: true });
    this.element = h('div', { class: 'agent-tool' }, this.button, this.approvalBox, this.details);
    this.render();
  }

  /** The call's id. */
  get id(): string {
    return this.row.id;
  }

  /** Shows the row's new state (status, summary, result, approval). */
  update(row: AgentToolRow): void {
    if (row.status !== 'awaitingApproval' || row.approval !== this.row.approval) this.answered = false;
    this.row = row;
    this.render();
  }

  private render(): void {
    const { row } = this;
    const look = statusLook(row.status);
    this.element.className = `agent-tool status-${row.status}`;
    this.element.dataset.callId = row.id;
    // The name starts with the summary ("Read src/app.ts:1-120"), then says how the call stands.
    const name = l10n.t('{0}, {1}', row.summary, look.label);
    this.button.setAttribute('aria-label', name);
    this.button.title = name;
    this.button.replaceChildren(
      h('span', { class: 'agent-tool-status' }, look.icon),
      h('span', { class: 'agent-tool-summary' }, row.summary),
      icon(this.expanded ? 'chevron-down' : 'chevron-right', 'agent-tool-chevron'),
    );
    this.renderApproval();
    if (this.expanded) this.renderDetails();
  }

  private renderApproval(): void {
    const { row } = this;
    const asking = row.status === 'awaitingApproval' && !this.answered;
    this.approvalBox.hidden = !asking;
    if (!asking) {
      this.approvalBox.replaceChildren();
      return;
    }
    const answer = (choice: ApprovalChoiceId): void => {
      this.answered = true;
      this.handlers.choose(row.id, choice);
      this.renderApproval();
      // The buttons are gone; the row keeps the focus so the keyboard user stays in place.
      this.button.focus();
    };
    this.approvalBox.replaceChildren(
      icon('shield'),
      h('span', { class: 'agent-approval-question' }, row.approval ?? l10n.t('Allow this call?')),
      h(
        'span',
        { class: 'agent-approval-buttons' },
        // The first choice (Approve, Run) is the primary button.
        ...choicesOf(row).map((choice, index) =>
          textButton(choice.label, () => answer(choice.id), { secondary: index > 0 }),
        ),
      ),
    );
  }

  private toggle(): void {
    this.expanded = !this.expanded;
    this.button.setAttribute('aria-expanded', String(this.expanded));
    this.details.hidden = !this.expanded;
    this.render();
  }

  private renderDetails(): void {
    const { row } = this;
    const key = `${row.input}\u0000${row.result ?? ''}\u0000${row.status}`;
    if (key === this.detailsKey) return;
    this.detailsKey = key;
    const section = (label: string, text: string, extraClass = ''): HTMLElement =>
      h(
        'div',
        { class: `agent-tool-section${extraClass}` },
        h('div', { class: 'agent-tool-label' }, label),
        h('pre', { class: 'agent-tool-text' }, text),
      );
    this.details.replaceChildren(
      section(l10n.t('Input'), readableInput(row.input)),
      row.result !== undefined
        ? section(l10n.t('Result'), row.result, row.status === 'error' ? ' error' : '')
        : h(
            'div',
            { class: 'agent-tool-label' },
            row.status === 'running' ? l10n.t('No result yet') : l10n.t('No result'),
          ),
    );
  }
}
