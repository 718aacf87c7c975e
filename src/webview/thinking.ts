/** The reasoning of a thinking model: a disclosure above the answer with a live elapsed timer. */
import * as l10n from '@vscode/l10n';
import { formatDuration } from '../chat/duration';
import { h, icon } from './dom';
import { rememberThinkingOpen, thinkingOpen } from './thinkingState';
import { renderMarkdownOnce, StreamRenderer } from './streamRenderer';

/** Thinking sections whose timer is running; one shared interval ticks them all. */
const ticking = new Set<ThinkingView>();
let ticker: ReturnType<typeof setInterval> | undefined;

function startTicking(view: ThinkingView): void {
  ticking.add(view);
  ticker ??= setInterval(() => {
    for (const item of ticking) item.tick();
  }, 1000);
}

function stopTicking(view: ThinkingView): void {
  ticking.delete(view);
  if (ticking.size === 0 && ticker !== undefined) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** Options for a thinking section: restored turns pass what the host persisted. */
export interface ThinkingOptions {
  /** The turn this reasoning belongs to: the reader's open/closed choice is remembered per turn. */
  turnId: string;
  /** The choice stored with the conversation, when the reader made one. */
  open?: boolean;
  /** Tells the host the reader's new choice. */
  toggled?(open: boolean): void;
  streaming: boolean;
  /** When the reasoning began (epoch ms), for a restored turn that is still reasoning. */
  startedAt?: number;
  durationMs?: number;
}

/** A `<details>` whose summary reads "Thinking… 3s" while reasoning streams and "Thinking (12s)" after. */
export class ThinkingView {
  readonly element: HTMLDetailsElement;
  private readonly label: HTMLElement;
  private readonly body: HTMLElement;
  private renderer: StreamRenderer | undefined;
  private startedAt: number;
  private durationMs: number | undefined;
  private reasoning: boolean;
  /** Once the reader opened or closed it, the section stays the way they left it. */
  private userToggled = false;

  constructor(text: string, options: ThinkingOptions) {
    this.label = h('span', { class: 'thinking-label' });
    const summary = h('summary', {}, icon('lightbulb'), this.label);
    // Keyboard activation of a summary also fires click, so this catches both. The new state is known only
    // after the toggle, so it is saved then; re-renders and reloads restore it instead of the default.
    summary.addEventListener('click', () => {
      this.userToggled = true;
      this.element.addEventListener(
        'toggle',
        () => {
          rememberThinkingOpen(options.turnId, this.element.open);
          options.toggled?.(this.element.open);
        },
        { once: true },
      );
    });
    this.body = h('div', { class: 'thinking-body markdown' });
    this.element = h('details', { class: 'thinking' }, summary, this.body);
    this.startedAt = options.startedAt ?? Date.now();
    this.durationMs = options.durationMs;
    this.reasoning = options.streaming;
    // The conversation's record wins (it survives reloads and other chat views); this view's state is the
    // fallback for a choice the host has not stored yet.
    const chosen = options.open ?? thinkingOpen(options.turnId);
    this.userToggled = chosen !== undefined;
    if (options.streaming) {
      this.renderer = new StreamRenderer(this.body);
      this.renderer.append(text);
      this.element.open = chosen ?? true;
      startTicking(this);
    } else {
      renderMarkdownOnce(this.body, text);
      this.element.open = chosen ?? false;
    }
    this.updateLabel();
  }

  /** Adds streamed reasoning. */
  append(text: string): void {
    if (!this.renderer) {
      // Reasoning resumed after the answer began (rare); keep appending to what is shown.
      this.renderer = new StreamRenderer(this.body);
    }
    this.renderer.append(text);
  }

  /** The answer has started: stop the clock and fold the reasoning away unless the reader chose otherwise. */
  endReasoning(): void {
    if (!this.reasoning) return;
    this.reasoning = false;
    this.durationMs ??= Date.now() - this.startedAt;
    stopTicking(this);
    this.renderer?.flush();
    if (!this.userToggled) this.element.open = false;
    this.updateLabel();
  }

  /** The turn ended; the host's measured duration, when given, wins over the local one. */
  finish(durationMs: number | undefined): void {
    if (durationMs !== undefined) this.durationMs = durationMs;
    this.endReasoning();
    this.renderer?.finish();
    this.renderer = undefined;
    this.updateLabel();
  }

  /** Called every second by the shared ticker while reasoning streams. */
  tick(): void {
    this.updateLabel();
  }

  /** Stops the timer for good (the turn view was removed). */
  dispose(): void {
    stopTicking(this);
  }

  private updateLabel(): void {
    if (this.reasoning) {
      this.label.textContent = l10n.t('Thinking… {0}', formatDuration(Date.now() - this.startedAt, true));
    } else if (this.durationMs !== undefined) {
      this.label.textContent = l10n.t('Thinking ({0})', formatDuration(this.durationMs));
    } else {
      this.label.textContent = l10n.t('Thinking');
    }
  }
}
