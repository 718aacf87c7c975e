/**
 * An image turn (`/image`): progress with the elapsed time and Stop while generating, then one fixed-size
 * thumbnail per saved image, loaded from the file through its webview resource URI (the browser downscales and
 * decodes asynchronously), with its path, the revised prompt and one compact row of the image's actions under it;
 * the request's options once, in the footer beside Regenerate.
 */
import * as l10n from '@vscode/l10n';
import type { ImageTurn } from '../chat/types';
import type { ImageAction } from '../protocol';
import { h, icon, textButton, toolButton } from './dom';
import { turnHeader, type TurnContext, type TurnView } from './messageView';
import { errorBox } from './turnStatus';

/** The actions under each image, labelled in the display language. */
const actions = (): Array<{ action: Exclude<ImageAction, 'regenerate'>; label: string; icon: string }> => [
  { action: 'open', label: l10n.t('Open Image'), icon: 'go-to-file' },
  { action: 'reveal', label: l10n.t('Reveal in Explorer'), icon: 'folder-opened' },
  { action: 'copyPath', label: l10n.t('Copy Path'), icon: 'copy' },
  { action: 'insertLink', label: l10n.t('Insert Markdown Link'), icon: 'markdown' },
];

/** Sizes whose generation can take minutes, said in the progress line. */
const SLOW_SIZES: ReadonlySet<string> = new Set(['4096x4096']);

/** An image turn's view. */
export class ImageTurnView implements TurnView {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly footerActions: HTMLElement;
  private turn: ImageTurn;
  private sources: Array<string | null> | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    turn: ImageTurn,
    private readonly context: TurnContext,
    sources?: Array<string | null>,
  ) {
    this.turn = turn;
    this.sources = sources;
    this.body = h('div', { class: 'image-turn-body' });
    this.footerActions = h('div', { class: 'turn-actions' });
    const o = turn.options;
    this.element = h(
      'article',
      { role: 'article', 'aria-label': l10n.t('Image'), class: 'turn turn-image' },
      turnHeader('file-media', l10n.t('Image'), h('div', { class: 'turn-actions' })),
      h('p', { class: 'image-prompt' }, turn.prompt),
      this.body,
      h(
        'div',
        { class: 'turn-footer image-footer' },
        h(
          'span',
          { class: 'image-options' },
          l10n.t('{0} · {1} · {2} requested · {3}', o.size, o.quality, o.n, turn.model),
        ),
        this.footerActions,
      ),
    );
    this.render();
  }

  /** The turn changed on the host (finished, stopped, failed), with its images' URIs. */
  update(turn: ImageTurn, sources: Array<string | null>): void {
    this.turn = turn;
    this.sources = sources;
    this.render();
  }

  /** The images' URIs arrived after a (re)load. */
  setSources(sources: Array<string | null>): void {
    this.sources = sources;
    this.render();
  }

  setPosition(): void {}

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private render(): void {
    this.dispose();
    const turn = this.turn;
    const parts: HTMLElement[] = [];
    if (turn.status === 'generating') parts.push(this.progress());
    if (turn.status === 'stopped') parts.push(note('debug-stop', l10n.t('Stopped; nothing was saved.')));
    if (turn.status === 'interrupted')
      parts.push(
        note('warning', l10n.t('Interrupted — the window was reloaded or closed while generating.')),
      );
    if (turn.status === 'error' && turn.error)
      parts.push(errorBox(turn.id, turn.error, this.context.post, false));
    if (turn.images.length) {
      parts.push(h('div', { class: 'image-grid' }, ...turn.images.map((_, index) => this.figure(index))));
    }
    this.footerActions.replaceChildren(
      ...(turn.status === 'generating'
        ? []
        : [toolButton('refresh', l10n.t('Regenerate'), () => this.act(0, 'regenerate'))]),
    );
    this.body.replaceChildren(...parts);
  }

  private progress(): HTMLElement {
    const { n, size } = this.turn.options;
    const slow = SLOW_SIZES.has(size);
    const label =
      n > 1
        ? slow
          ? l10n.t('Generating {0} images at {1} (this can take minutes)', n, size)
          : l10n.t('Generating {0} images at {1}', n, size)
        : slow
          ? l10n.t('Generating 1 image at {0} (this can take minutes)', size)
          : l10n.t('Generating 1 image at {0}', size);
    const elapsed = h('span', { class: 'image-elapsed' });
    const tick = (): void => {
      elapsed.textContent = l10n.t(
        '{0} s',
        Math.max(0, Math.round((Date.now() - this.turn.createdAt) / 1000)),
      );
    };
    tick();
    this.timer = setInterval(tick, 1000);
    return h(
      'div',
      { class: 'turn-note streaming image-progress', role: 'status' },
      icon('loading', 'codicon-modifier-spin'),
      h('span', {}, `${label}… `),
      elapsed,
      textButton(l10n.t('Stop'), () => this.context.post({ type: 'stop' }), {
        icon: 'debug-stop',
        secondary: true,
      }),
    );
  }

  private figure(index: number): HTMLElement {
    const image = this.turn.images[index];
    const source = this.sources?.[index];
    // A fixed box, so neither a slow decode nor a missing file moves the conversation.
    const frame = h('div', { class: 'image-thumb' });
    if (source) {
      frame.append(
        h('img', {
          src: source,
          alt: this.turn.prompt,
          decoding: 'async',
          loading: 'lazy',
          width: '256',
          height: '256',
        }),
      );
    } else {
      frame.append(
        h(
          'div',
          { class: 'image-missing', role: 'img', 'aria-label': l10n.t('{0} is missing', image.path) },
          icon(source === null ? 'warning' : 'loading'),
          h(
            'span',
            {},
            source === null ? l10n.t('{0} was deleted or moved.', image.path) : l10n.t('Loading…'),
          ),
        ),
      );
    }
    const buttons = actions().map((a) => toolButton(a.icon, a.label, () => this.act(index, a.action)));
    for (const button of buttons) button.disabled = source === null;
    return h(
      'figure',
      { class: 'image-figure' },
      frame,
      h(
        'figcaption',
        {},
        h('span', { class: 'image-path', title: image.path }, image.path),
        image.revisedPrompt
          ? h('span', { class: 'image-revised' }, l10n.t('Revised prompt: {0}', image.revisedPrompt))
          : null,
        h('div', { class: 'image-actions' }, ...buttons),
      ),
    );
  }

  private act(index: number, action: ImageAction): void {
    this.context.post({ type: 'imageAction', turnId: this.turn.id, index, action });
  }
}

function note(iconName: string, text: string): HTMLElement {
  return h('div', { class: 'turn-note' }, icon(iconName), h('span', {}, text));
}
