/** First-run panel: shown until an API key and a gateway URL are configured, then confirms the saved key. */
import * as l10n from '@vscode/l10n';
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
    this.heading = h('h2', {}, l10n.t('Welcome to Model Gateway'));
    this.text = h('p', { role: 'status' });
    this.actions = h(
      'div',
      { class: 'onboarding-actions' },
      textButton(l10n.t('Set API Key'), () => post({ type: 'setApiKey' }), { icon: 'key' }),
      textButton(l10n.t('Open Settings'), () => post({ type: 'openSettings' }), {
        icon: 'gear',
        secondary: true,
      }),
    );
    this.element = h(
      'section',
      { class: 'onboarding', 'aria-label': l10n.t('Get started'), hidden: true },
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
    const missing = [!state.hasApiKey && 'key', !state.hasBaseUrl && 'url'].filter(Boolean);
    this.element.classList.toggle('saved', keyJustSaved && missing.length === 0);
    if (keyJustSaved && missing.length === 0) {
      this.element.hidden = false;
      this.actions.hidden = true;
      this.heading.textContent = l10n.t('API key saved');
      this.text.textContent = l10n.t(
        'It is kept in VS Code’s secret storage. Ask your first question below.',
      );
      this.savedTimer = setTimeout(() => (this.element.hidden = true), SAVED_NOTE_MS);
      return;
    }
    this.actions.hidden = false;
    this.heading.textContent = l10n.t('Welcome to Model Gateway');
    this.element.hidden = missing.length === 0;
    const start =
      missing.length === 2
        ? l10n.t('To start chatting, set an API key and the gateway URL.')
        : missing[0] === 'key'
          ? l10n.t('To start chatting, set an API key.')
          : l10n.t('To start chatting, set the gateway URL.');
    this.text.textContent = `${start} ${l10n.t(
      'The API key is kept in VS Code’s secret storage; the gateway URL is in the settings.',
    )}`;
  }
}
