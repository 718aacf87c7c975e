/** A user turn: its text (and quoted code), Copy, inline Edit that resends, and Restore Checkpoint after a run. */
import * as l10n from '@vscode/l10n';
import type { UserTurn } from '../chat/types';
import type { WebviewToHost } from '../protocol';
import { keepCopyOnly, quoteBlock } from './codeBlock';
import { showCopied } from './copyFeedback';
import { formatTokens, kindIcon } from './contextChips';
import { h, icon, iconButton, textButton } from './dom';
import { highlightedFragment, renderMarkdownOnce } from './markdown';

/** What turn views need from their owner. */
export interface TurnContext {
  post(message: WebviewToHost): void;
}

/** The common face of user and assistant turn views, as the transcript sees them. */
export interface TurnView {
  readonly element: HTMLElement;
  /** Tells the view whether it is the conversation's last turn and whether an answer is streaming. */
  setPosition(isLast: boolean, busy: boolean): void;
  dispose(): void;
}

/** The header line of a turn: who speaks, and the turn's action buttons. */
export function turnHeader(
  iconName: string,
  author: string,
  actions: HTMLElement,
  tooltip?: string,
): HTMLElement {
  return h(
    'div',
    { class: 'turn-header' },
    h('span', { class: 'turn-author', title: tooltip }, icon(iconName), h('span', {}, author)),
    actions,
  );
}

/** A user message. */
export class UserMessageView implements TurnView {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly editButton: HTMLButtonElement;
  private readonly actions: HTMLElement;
  private restoreButton: HTMLButtonElement | undefined;
  private busy = false;
  private content: string;
  private editor: HTMLElement | undefined;

  constructor(
    private readonly turn: UserTurn,
    private readonly context: TurnContext,
  ) {
    this.content = turn.content;
    this.editButton = iconButton('edit', l10n.t('Edit'), () => this.startEdit());
    const actions = h(
      'div',
      { class: 'turn-actions' },
      this.editButton,
      iconButton('copy', l10n.t('Copy message'), (event) => {
        context.post({ type: 'copy', text: this.content });
        showCopied(event.currentTarget as HTMLElement);
      }),
    );
    this.actions = actions;
    this.body = h('div', { class: 'markdown user-text' });
    renderMarkdownOnce(this.body, turn.content);
    keepCopyOnly(this.body);
    this.element = h(
      'article',
      { role: 'article', 'aria-label': l10n.t('You'), class: 'turn turn-user' },
      turnHeader('account', l10n.t('You'), actions),
      turn.quote ? quoteBlock(turn.quote, highlightedFragment) : null,
      turn.attachments?.length ? this.attachmentChips(turn) : null,
      this.body,
    );
    this.element.dataset.turnId = turn.id;
    if (turn.checkpoint) this.showCheckpoint();
  }

  /** The run of this message changed files: Restore Checkpoint puts them (and later runs' changes) back. */
  showCheckpoint(): void {
    if (this.restoreButton) return;
    this.restoreButton = iconButton('discard', l10n.t('Restore Checkpoint'), () =>
      this.context.post({ type: 'restoreCheckpoint', turnId: this.turn.id }),
    );
    this.restoreButton.disabled = this.busy;
    this.actions.prepend(this.restoreButton);
  }

  /** What was sent with the message, collapsed to chips; each opens the file at its lines (or the sent text). */
  private attachmentChips(turn: UserTurn): HTMLElement {
    const chips = (turn.attachments ?? []).map((a) => {
      const where = a.startLine !== undefined ? `${a.path}:${a.startLine}-${a.endLine}` : a.path || a.name;
      const button = h(
        'button',
        {
          type: 'button',
          class: 'chip-main',
          'aria-label': l10n.t('Open {0}', a.name),
          title: a.truncated
            ? l10n.t(
                '{0} · about {1} tokens · cut to {2} of {3} lines',
                where,
                a.tokens,
                a.truncated.keptLines,
                a.truncated.totalLines,
              )
            : l10n.t('{0} · about {1} tokens', where, a.tokens),
        },
        icon(kindIcon(a.kind)),
        h('span', { class: 'chip-name' }, a.name),
        a.startLine !== undefined ? h('span', { class: 'chip-lines' }, `:${a.startLine}-${a.endLine}`) : null,
        h('span', { class: 'chip-tokens' }, formatTokens(a.tokens)),
      );
      button.addEventListener('click', () =>
        this.context.post({ type: 'openAttachment', turnId: turn.id, attachmentId: a.id }),
      );
      return h('div', { class: 'chip sent', role: 'listitem' }, button);
    });
    return h(
      'div',
      { class: 'turn-attachments', role: 'list', 'aria-label': l10n.t('Attachments') },
      ...chips,
    );
  }

  setPosition(_isLast: boolean, busy: boolean): void {
    // Editing resends, and restoring rewrites files, either of which would race the answer still streaming.
    this.busy = busy;
    this.editButton.disabled = busy;
    if (this.restoreButton) this.restoreButton.disabled = busy;
  }

  dispose(): void {
    this.editor?.remove();
  }

  private startEdit(): void {
    if (this.editor) return;
    const textarea = h('textarea', { class: 'edit-input', 'aria-label': l10n.t('Edit message'), rows: '3' });
    textarea.value = this.content;
    const save = (): void => {
      const text = textarea.value;
      if (!text.trim()) return;
      this.content = text;
      renderMarkdownOnce(this.body, text);
      keepCopyOnly(this.body);
      this.stopEdit();
      this.context.post({ type: 'editAndResend', turnId: this.turn.id, text });
    };
    textarea.addEventListener('keydown', (event) => {
      if (event.isComposing || event.keyCode === 229) return;
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        save();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        this.stopEdit();
      }
    });
    this.editor = h(
      'div',
      { class: 'edit-box' },
      textarea,
      h(
        'div',
        { class: 'edit-actions' },
        textButton(l10n.t('Save & Resend'), save, { icon: 'send' }),
        textButton(l10n.t('Cancel'), () => this.stopEdit(), { secondary: true }),
      ),
    );
    this.body.hidden = true;
    this.body.after(this.editor);
    textarea.focus();
    textarea.setSelectionRange(textarea.value.length, textarea.value.length);
  }

  private stopEdit(): void {
    this.editor?.remove();
    this.editor = undefined;
    this.body.hidden = false;
    this.editButton.focus();
  }
}
