/** The message box: Enter sends, Shift+Enter breaks the line, Escape stops a running answer. */
import { h, icon } from './dom';

/** What the composer asks of its owner. */
interface ComposerHandlers {
  send(text: string): void;
  stop(): void;
  draftChanged(text: string): void;
}

/** Most of the sidebar stays for the transcript: the box grows up to this height, then scrolls. */
const MAX_HEIGHT_PX = 240;

/** The composer: textarea plus Send / Stop buttons. */
export class Composer {
  readonly element: HTMLElement;
  private readonly textarea: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private busy = false;

  constructor(
    private readonly handlers: ComposerHandlers,
    draft: string,
  ) {
    this.textarea = h('textarea', {
      class: 'composer-input',
      'aria-label': 'Message',
      placeholder: 'Ask about your code',
      rows: '1',
    });
    this.textarea.value = draft;
    this.sendButton = h(
      'button',
      { type: 'button', class: 'icon-button send', 'aria-label': 'Send', title: 'Send (Enter)' },
      icon('send'),
    );
    this.stopButton = h(
      'button',
      { type: 'button', class: 'icon-button stop', 'aria-label': 'Stop', title: 'Stop (Escape)' },
      icon('debug-stop'),
    );
    this.element = h(
      'div',
      { class: 'composer' },
      this.textarea,
      h('div', { class: 'composer-actions' }, this.stopButton, this.sendButton),
    );

    this.textarea.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.textarea.addEventListener('input', () => {
      this.resize();
      this.updateButtons();
      this.handlers.draftChanged(this.textarea.value);
    });
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

  private onKeyDown(event: KeyboardEvent): void {
    // keyCode 229 is what some IMEs still report for the Enter that commits a composition.
    if (event.isComposing || event.keyCode === 229) return;
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
