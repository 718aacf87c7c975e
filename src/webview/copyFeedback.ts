/** The brief "Copied" state of a Copy button, and its announcement: the copy itself happens in the host, silently. */
import * as l10n from '@vscode/l10n';
import { h } from './dom';

/** How long a Copy button shows "Copied". */
export const COPIED_MS = 1500;

const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();
let liveRegion: HTMLElement | undefined;
let announceTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Shows "Copied" on `button` (a check icon and the word, visible) for `COPIED_MS`, and says it once to screen
 * readers. The accessible name stays the button's own: the state is a moment, not a new control.
 */
export function showCopied(button: HTMLElement): void {
  const glyph = button.querySelector('.codicon');
  // A labelled code-block action draws its label from data-label (chat.css).
  const labelled = button.dataset.label !== undefined;
  const previous = timers.get(button);
  if (previous === undefined) {
    button.dataset.copyTitle = button.getAttribute('title') ?? '';
    if (labelled) button.dataset.labelBefore = button.dataset.label;
  }
  clearTimeout(previous);
  button.classList.add('copied');
  button.setAttribute('title', l10n.t('Copied'));
  glyph?.classList.replace('codicon-copy', 'codicon-check');
  if (labelled) button.dataset.label = l10n.t('Copied');
  else if (!button.querySelector('.copied-label')) {
    button.append(h('span', { class: 'copied-label', 'aria-hidden': 'true' }, l10n.t('Copied')));
  }
  announceCopied();
  timers.set(
    button,
    setTimeout(() => {
      timers.delete(button);
      button.classList.remove('copied');
      button.setAttribute('title', button.dataset.copyTitle ?? '');
      glyph?.classList.replace('codicon-check', 'codicon-copy');
      if (labelled) button.dataset.label = button.dataset.labelBefore ?? '';
      button.querySelector('.copied-label')?.remove();
    }, COPIED_MS),
  );
}

function announceCopied(): void {
  if (!liveRegion?.isConnected) {
    liveRegion = h('div', { class: 'visually-hidden copy-status', role: 'status', 'aria-live': 'polite' });
    document.body.append(liveRegion);
  }
  const region = liveRegion;
  // Cleared first, so that a second copy is read again.
  region.textContent = '';
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => (region.textContent = l10n.t('Copied')), 50);
}
