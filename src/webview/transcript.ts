/**
 * The scrolling list of turns. A long conversation opens from the bottom: the last turns are built
 * at once, older ones only when the reader scrolls near the top, so opening cost doesn't grow with
 * history length.
 */
import * as l10n from '@vscode/l10n';
import { putAgentRow, type AgentRun } from '../chat/agentTurn';
import type { Conversation, Turn } from '../chat/types';
import type { HostToWebview, ImageSources } from '../protocol';
import { AssistantMessageView } from './assistantView';
import { AutoScroll } from './autoScroll';
import { h, icon } from './dom';
import { ImageTurnView } from './imageView';
import { type TurnContext, type TurnView, UserMessageView } from './messageView';
import { announcementFor } from './turnStatus';

type Delta = Extract<HostToWebview, { type: 'delta' }>;
type TurnFinished = Extract<HostToWebview, { type: 'turnFinished' }>;
type ImageTurnMessage = Extract<HostToWebview, { type: 'imageTurn' }>;
/** The host's messages about an agent run, each for one assistant turn. */
type AgentMessage = Extract<
  HostToWebview,
  { type: 'agentRow' } | { type: 'agentFiles' } | { type: 'agentMeter' } | { type: 'agentPaused' }
>;

/**
 * Turns are built in batches (the first screen, then each load of older turns) of at most this many
 * turns or this much text, whichever comes first, so one frame's work doesn't depend on history size.
 */
const BATCH_TURNS = 30;
const BATCH_CHARS = 24_000;
/** Older turns load when the top of the transcript comes this close (px). */
const LOAD_MARGIN_PX = 1200;

/** What the transcript reports to its owner. */
interface TranscriptHandlers extends TurnContext {
  announce(text: string): void;
  totalChanged(tokens: number): void;
  busyChanged(busy: boolean): void;
  scrolled(fromBottom: number): void;
}

/** The transcript: turn views, lazy loading of older turns, auto-scroll. */
export class Transcript {
  readonly element: HTMLElement;
  readonly jumpButton: HTMLButtonElement;
  private readonly list: HTMLElement;
  private readonly sentinel: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly autoScroll: AutoScroll;
  private turns: Turn[] = [];
  private readonly views = new Map<string, TurnView>();
  /** Index in `turns` of the oldest turn that has a view. */
  private firstBuilt = 0;
  private busy = false;
  private loading = false;
  /** Image URIs by turn id, kept for image turns whose views are built later (older turns). */
  private knownSources: ImageSources = {};

  constructor(private readonly handlers: TranscriptHandlers) {
    this.sentinel = h('div', { class: 'older-sentinel', hidden: true }, l10n.t('Loading earlier messages…'));
    this.empty = h(
      'div',
      { class: 'empty-state' },
      icon('comment-discussion'),
      h('p', {}, l10n.t('Ask about your code, or select code and ask about the selection.')),
      h('p', { class: 'hint' }, l10n.t('Enter sends · Shift+Enter adds a line · Escape stops an answer')),
    );
    this.list = h('div', { class: 'turns' });
    const content = h('div', { class: 'transcript-content' }, this.sentinel, this.empty, this.list);
    // Focusable so keyboard users can scroll it; not role="log", which would read out every token.
    this.element = h(
      'section',
      { class: 'transcript', 'aria-label': l10n.t('Conversation'), tabindex: '0' },
      content,
    );
    this.jumpButton = h(
      'button',
      { type: 'button', class: 'jump-to-latest', hidden: true },
      icon('arrow-down'),
      h('span', {}, l10n.t('Jump to latest')),
    );
    this.autoScroll = new AutoScroll(this.element, content, this.jumpButton, (fromBottom) => {
      this.handlers.scrolled(fromBottom);
      if (this.element.scrollTop < LOAD_MARGIN_PX) this.loadOlder();
    });
    new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && this.loadOlder(), {
      root: this.element,
      rootMargin: `${LOAD_MARGIN_PX}px 0px 0px 0px`,
    }).observe(this.sentinel);
  }

  /** The Markdown of an assistant turn's answer so far, for reading its code fences (Apply's target). */
  answerSource(turnId: string): string | undefined {
    const view = this.views.get(turnId);
    return view instanceof AssistantMessageView ? view.content : undefined;
  }

  /** Draws a conversation from scratch; `fromBottom` restores a reader's position after a reload. */
  reset(conversation: Conversation, busy: boolean, fromBottom?: number): void {
    for (const view of this.views.values()) view.dispose();
    this.views.clear();
    this.knownSources = {};
    this.turns = [...conversation.turns];
    this.busy = busy;
    this.firstBuilt = batchStart(this.turns, this.turns.length);
    this.list.replaceChildren(...this.turns.slice(this.firstBuilt).map((turn) => this.build(turn).element));
    this.afterChange();
    if (fromBottom === undefined) this.autoScroll.jumpToLatest();
    else this.autoScroll.restore(fromBottom);
  }

  /** Appends turns (the user's message and the assistant turn that answers it). */
  add(turns: Turn[]): void {
    for (const turn of turns) {
      if (this.turns.some((existing) => existing.id === turn.id)) continue;
      this.turns.push(turn);
      this.list.append(this.build(turn).element);
      if (turn.role === 'assistant' && turn.status === 'streaming') this.busy = true;
      if (turn.role === 'image' && turn.status === 'generating') this.busy = true;
      // The reader just asked something: show the answer arriving.
      if (turn.role !== 'assistant') this.autoScroll.jumpToLatest();
    }
    this.afterChange();
  }

  /** Streams text into an assistant turn. */
  delta(message: Delta): void {
    const view = this.views.get(message.turnId);
    if (view instanceof AssistantMessageView)
      view.appendDelta(message.text, message.reasoning, message.retractReasoning);
  }

  /** A change to an agent run: drawn by its view, and kept on the turn for a view built later (older turns). */
  agent(message: AgentMessage): void {
    const index = this.turns.findIndex((turn) => turn.id === message.turnId);
    const turn = this.turns[index];
    if (turn?.role !== 'assistant') return;
    const run: AgentRun = turn.agent
      ? { ...turn.agent, parts: [...turn.agent.parts] }
      : { parts: turn.content ? [{ kind: 'text', text: turn.content }] : [], files: [] };
    const view = this.views.get(message.turnId);
    const live = view instanceof AssistantMessageView ? view : undefined;
    switch (message.type) {
      case 'agentRow': {
        const before = run.parts.find((part) => part.kind === 'tool' && part.id === message.row.id);
        putAgentRow(run, message.row);
        live?.putAgentRow(message.row);
        // A call that waits for the user is said once, when it starts waiting: nothing goes on without a click.
        const wasWaiting = before?.kind === 'tool' && before.status === 'awaitingApproval';
        if (message.row.status === 'awaitingApproval' && !wasWaiting)
          this.handlers.announce(
            l10n.t('Waiting for your approval: {0}', message.row.approval ?? message.row.summary),
          );
        break;
      }
      case 'agentFiles':
        run.files = message.files;
        live?.setAgentFiles(message.files);
        break;
      case 'agentMeter':
        run.meter = message.meter;
        live?.setAgentMeter(message.meter);
        break;
      case 'agentPaused':
        if (message.paused && !run.paused)
          this.handlers.announce(l10n.t('The run reached its step limit. Continue?'));
        run.paused = message.paused;
        live?.setAgentPaused(message.paused);
        break;
    }
    this.turns[index] = { ...turn, agent: run };
  }

  /** A user turn's run changed files: its Restore Checkpoint shows. */
  checkpoint(turnId: string): void {
    const index = this.turns.findIndex((turn) => turn.id === turnId);
    const turn = this.turns[index];
    if (turn?.role !== 'user') return;
    this.turns[index] = { ...turn, checkpoint: true };
    const view = this.views.get(turnId);
    if (view instanceof UserMessageView) view.showCheckpoint();
  }

  /** Ends an assistant turn and announces how it ended. */
  finished(message: TurnFinished): void {
    const view = this.views.get(message.turnId);
    const index = this.turns.findIndex((turn) => turn.id === message.turnId);
    const turn = this.turns[index];
    if (turn?.role === 'assistant') {
      this.turns[index] = { ...turn, status: message.status, usage: message.usage, error: message.error };
    }
    if (view instanceof AssistantMessageView) view.finish(message);
    if (!this.turns.some((item) => item.role === 'assistant' && item.status === 'streaming'))
      this.busy = false;
    this.afterChange();
    this.handlers.announce(announcementFor(message.status, message.error));
  }

  /** An image turn finished, stopped or failed: redraw it with its images. */
  imageTurn(message: ImageTurnMessage): void {
    const index = this.turns.findIndex((turn) => turn.id === message.turn.id);
    if (index === -1) return;
    this.turns[index] = message.turn;
    const view = this.views.get(message.turn.id);
    if (view instanceof ImageTurnView) view.update(message.turn, message.sources);
    this.busy = this.turns.some(
      (t) =>
        (t.role === 'assistant' && t.status === 'streaming') ||
        (t.role === 'image' && t.status === 'generating'),
    );
    this.afterChange();
    this.handlers.announce(
      message.turn.status === 'complete'
        ? message.turn.images.length === 1
          ? l10n.t('1 image saved')
          : l10n.t('{0} images saved', message.turn.images.length)
        : message.turn.status === 'error'
          ? l10n.t('Error: {0}', message.turn.error?.message ?? l10n.t('image generation failed'))
          : l10n.t('Image generation stopped'),
    );
  }

  /** The images' URIs of image turns, after a (re)load. */
  imageSources(sources: ImageSources): void {
    this.knownSources = { ...this.knownSources, ...sources };
    for (const [turnId, list] of Object.entries(sources)) {
      const view = this.views.get(turnId);
      if (view instanceof ImageTurnView) view.setSources(list);
    }
  }

  /** Drops the turns from `fromTurnId` on (edit and resend, regenerate). */
  removeFrom(fromTurnId: string): void {
    const index = this.turns.findIndex((turn) => turn.id === fromTurnId);
    if (index === -1) return;
    for (const turn of this.turns.splice(index)) {
      this.views.get(turn.id)?.dispose();
      this.views.get(turn.id)?.element.remove();
      this.views.delete(turn.id);
    }
    this.firstBuilt = Math.min(this.firstBuilt, this.turns.length);
    this.afterChange();
  }

  /** Sets whether an answer is streaming (from the host's state). */
  setBusy(busy: boolean): void {
    this.busy = busy;
    this.afterChange();
  }

  /** Scrolls to the newest turn and follows it. */
  jumpToLatest(): void {
    this.autoScroll.jumpToLatest();
  }

  private build(turn: Turn): TurnView {
    const view =
      turn.role === 'user'
        ? new UserMessageView(turn, this.handlers)
        : turn.role === 'image'
          ? new ImageTurnView(turn, this.handlers, this.knownSources[turn.id])
          : new AssistantMessageView(turn, this.handlers);
    this.views.set(turn.id, view);
    return view;
  }

  /** Builds the next batch of older turns above the current ones, keeping the reader's view still. */
  private loadOlder(): void {
    if (this.firstBuilt === 0 || this.loading) return;
    this.loading = true;
    const from = batchStart(this.turns, this.firstBuilt);
    const fragment = document.createDocumentFragment();
    for (const turn of this.turns.slice(from, this.firstBuilt)) fragment.append(this.build(turn).element);
    for (const turn of this.turns.slice(from, this.firstBuilt))
      this.views.get(turn.id)?.setPosition(false, this.busy);
    this.autoScroll.preserveWhile(() => this.list.prepend(fragment));
    this.firstBuilt = from;
    this.sentinel.hidden = from === 0;
    // Still near the top (short turns)? Continue on the next frame rather than in one long task.
    requestAnimationFrame(() => {
      this.loading = false;
      if (this.element.scrollTop < LOAD_MARGIN_PX && !this.sentinel.hidden) this.loadOlder();
    });
  }

  /** Updates what depends on the whole conversation: last-turn buttons, busy state, totals, empty state. */
  private afterChange(): void {
    const last = this.turns[this.turns.length - 1];
    for (const turn of this.turns.slice(this.firstBuilt)) {
      this.views.get(turn.id)?.setPosition(turn === last, this.busy);
    }
    this.empty.hidden = this.turns.length > 0;
    this.sentinel.hidden = this.firstBuilt === 0;
    let total = 0;
    for (const turn of this.turns) if (turn.role === 'assistant') total += turn.usage?.total_tokens ?? 0;
    this.handlers.totalChanged(total);
    this.handlers.busyChanged(this.busy);
  }
}

/** Index of the first turn of the batch that ends just before `end`. */
function batchStart(turns: Turn[], end: number): number {
  let start = end;
  let chars = 0;
  while (start > 0 && end - start < BATCH_TURNS && chars < BATCH_CHARS) {
    start -= 1;
    const turn = turns[start];
    chars += turn.content.length + (turn.role === 'assistant' ? (turn.reasoning?.length ?? 0) : 0);
  }
  return start;
}
