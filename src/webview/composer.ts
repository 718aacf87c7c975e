/** The message box: Enter sends, Shift+Enter breaks the line, Escape stops a running answer. */
import * as l10n from '@vscode/l10n';
import { h, icon, iconButton } from './dom';

/** What the composer asks of its owner. */
interface ComposerHandlers {
  send(text: string): void;
  stop(): void;
  draftChanged(text: string): void;
  /** The text or caret moved (the `#` picker follows it). */
  edited?(text: string, caret: number): void;
  /** Gets first say on a key (the open picker takes arrows, Enter, Escape); true when it took it. */
  interceptKey?(event: KeyboardEvent): boolean;
}

/** Most of the sidebar stays for the transcript: the box grows up to this height, then scrolls. */
const MAX_HEIGHT_PX = 240;

/** The composer: textarea plus Send / Stop buttons. */
export class Composer {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  /** Opens the `#` picker. */
  readonly addContextButton: HTMLButtonElement;
  /** "≈ 1.2K / 200K tokens": the message and its attachments against the model's context. */
  readonly meter: HTMLElement;
  private busy = false;

  constructor(
    private readonly handlers: ComposerHandlers,
    draft: string,
  ) {
    this.textarea = h('textarea', {
      class: 'composer-input',
      'aria-label': l10n.t('Message'),
      placeholder: l10n.t('Ask about your code (# to attach context)'),
      rows: '1',
      'aria-autocomplete': 'list',
      'aria-haspopup': 'listbox',
      'aria-expanded': 'false',
    });
    this.textarea.value = draft;
    this.sendButton = h(
      'button',
      {
        type: 'button',
        class: 'icon-button send',
        'aria-label': l10n.t('Send'),
        title: l10n.t('Send (Enter)'),
      },
      icon('send'),
    );
    this.stopButton = h(
      'button',
      {
        type: 'button',
        class: 'icon-button stop',
        'aria-label': l10n.t('Stop'),
        title: l10n.t('Stop (Escape)'),
      },
      icon('debug-stop'),
    );
    this.addContextButton = iconButton('attach', l10n.t('Add Context'), () => this.insertHash());
    this.meter = h('span', { class: 'composer-meter', 'aria-live': 'off' });
    this.element = h(
      'div',
      { class: 'composer' },
      this.textarea,
      h('div', { class: 'composer-actions' }, this.stopButton, this.sendButton),
      h('div', { class: 'composer-footer' }, this.addContextButton, this.meter),
    );

    this.textarea.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.textarea.addEventListener('input', () => {
      this.resize();
      this.updateButtons();
      this.handlers.draftChanged(this.textarea.value);
      this.handlers.edited?.(this.textarea.value, this.textarea.selectionStart);
    });
    this.textarea.addEventListener('click', () =>
      this.handlers.edited?.(this.textarea.value, this.textarea.selectionStart),
    );
    this.sendButton.addEventListener('click', () => this.trySend());
    this.stopButton.addEventListener('click', () => this.handlers.stop());
    this.updateButtons();
    requestAnimationFrame(() => this.resize());
  }

  /** Reflects whether an answer is streaming: Send off, Stop on. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    // The Stop button disappears when the answer ends; don't leave keyboard focus on nothing.
    const stopHadFocus = document.activeElement === this.stopButton;
    this.updateButtons();
    if (stopHadFocus && !busy) this.textarea.focus();
  }

  /** Puts the caret in the message box. */
  focus(): void {
    this.textarea.focus();
  }

  /** The message as typed. */
  get value(): string {
    return this.textarea.value;
  }

  /** Replaces `value[start, end)` with `text` and puts the caret after it (picking from the `#` picker). */
  replaceRange(start: number, end: number, text: string): void {
    const value = this.textarea.value;
    this.textarea.value = value.slice(0, start) + text + value.slice(end);
    const caret = start + text.length;
    this.textarea.setSelectionRange(caret, caret);
    this.textarea.dispatchEvent(new Event('input'));
  }

  /** Puts text back after a refused send, unless the user has started a new message. */
  restore(text: string): void {
    if (this.textarea.value.trim()) return;
    this.textarea.value = text;
    this.textarea.dispatchEvent(new Event('input'));
  }

  /** The caret position in the message. */
  get caret(): number {
    return this.textarea.selectionStart;
  }

  /** The Add Context button: types `#` at the caret, which opens the picker. */
  private insertHash(): void {
    const { selectionStart: start, selectionEnd: end, value } = this.textarea;
    const before = value.slice(0, start);
    this.textarea.focus();
    this.replaceRange(start, end, before && !/\s$/.test(before) ? ' #' : '#');
  }

  private onKeyDown(event: KeyboardEvent): void {
    // keyCode 229 is what some IMEs still report for the Enter that commits a composition.
    if (event.isComposing || event.keyCode === 229) return;
    if (this.handlers.interceptKey?.(event)) {
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      this.trySend();
    } else if (event.key === 'Escape' && this.busy) {
      event.preventDefault();
      this.handlers.stop();
    }
  }

  private trySend(): void {
    const text = this.textarea.value;
    if (this.busy || !text.trim()) return;
    this.handlers.send(text);
    this.textarea.value = '';
    this.handlers.draftChanged('');
    this.resize();
    this.updateButtons();
  }

  private updateButtons(): void {
    this.sendButton.disabled = this.busy || !this.textarea.value.trim();
    this.stopButton.hidden = !this.busy;
    this.stopButton.disabled = !this.busy;
  }

  private resize(): void {
    // CSSOM writes are allowed by the webview CSP (style attributes in markup are not).
    this.textarea.style.height = 'auto';
    const borders = this.textarea.offsetHeight - this.textarea.clientHeight;
    this.textarea.style.height = `${Math.min(this.textarea.scrollHeight + borders, MAX_HEIGHT_PX)}px`;
  }
}
