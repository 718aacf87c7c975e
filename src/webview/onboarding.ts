/** First-run panel: shown until an API key and a gateway URL are configured. */
import type { OnboardingState, WebviewToHost } from '../protocol';
import { h, textButton } from './dom';

/** The onboarding panel; the composer stays usable below it. */
export class OnboardingView {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;

  constructor(post: (message: WebviewToHost) => void) {
    this.text = h('p', {});
    this.element = h(
      'section',
      { class: 'onboarding', 'aria-label': 'Get started', hidden: true },
      h('h2', {}, 'Welcome to Model Gateway'),
      this.text,
      h(
        'div',
        { class: 'onboarding-actions' },
        textButton('Set API Key', () => post({ type: 'setApiKey' }), { icon: 'key' }),
        textButton('Open Settings', () => post({ type: 'openSettings' }), { icon: 'gear', secondary: true }),
      ),
    );
  }

  /** Shows the panel while something is missing, naming what. */
  update(state: OnboardingState): void {
    const missing = [!state.hasApiKey && 'an API key', !state.hasBaseUrl && 'the gateway URL'].filter(
      Boolean,
    );
    this.element.hidden = missing.length === 0;
    this.text.textContent =
      `To start chatting, set ${missing.join(' and ')}. ` +
      'The API key is kept in VS Code’s secret storage; the gateway URL is in the settings.';
  }
}
