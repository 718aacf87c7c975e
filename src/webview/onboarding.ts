/** First-run panel: shown until an API key and a gateway URL are configured, then confirms the saved key. */
import type { OnboardingState, WebviewToHost } from '../protocol';
import { h, textButton } from './dom';

/** How long "API key saved" stays in the panel's place. */
export const SAVED_NOTE_MS = 10_000;

/** The onboarding panel; the composer stays usable below it. */
export class OnboardingView {
  readonly element: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly text: HTMLElement;
  private readonly actions: HTMLElement;
  private previous: OnboardingState | undefined;
  private savedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(post: (message: WebviewToHost) => void) {
    this.heading = h('h2', {}, 'Welcome to Model Gateway');
    this.text = h('p', { role: 'status' });
    this.actions = h(
      'div',
      { class: 'onboarding-actions' },
      textButton('Set API Key', () => post({ type: 'setApiKey' }), { icon: 'key' }),
      textButton('Open Settings', () => post({ type: 'openSettings' }), { icon: 'gear', secondary: true }),
    );
    this.element = h(
      'section',
      { class: 'onboarding', 'aria-label': 'Get started', hidden: true },
      this.heading,
      this.text,
      this.actions,
    );
  }

  /** Shows the panel while something is missing, naming what; says so where the user looks once the key is saved. */
  update(state: OnboardingState): void {
    const keyJustSaved = this.previous !== undefined && !this.previous.hasApiKey && state.hasApiKey;
    this.previous = state;
    clearTimeout(this.savedTimer);
    const missing = [!state.hasApiKey && 'an API key', !state.hasBaseUrl && 'the gateway URL'].filter(
      Boolean,
    );
    this.element.classList.toggle('saved', keyJustSaved && missing.length === 0);
    if (keyJustSaved && missing.length === 0) {
      this.element.hidden = false;
      this.actions.hidden = true;
      this.heading.textContent = 'API key saved';
      this.text.textContent = 'It is kept in VS Code’s secret storage. Ask your first question below.';
      this.savedTimer = setTimeout(() => (this.element.hidden = true), SAVED_NOTE_MS);
      return;
    }
    this.actions.hidden = false;
    this.heading.textContent = 'Welcome to Model Gateway';
    this.element.hidden = missing.length === 0;
    this.text.textContent =
      `To start chatting, set ${missing.join(' and ')}. ` +
      'The API key is kept in VS Code’s secret storage; the gateway URL is in the settings.';
  }
}
