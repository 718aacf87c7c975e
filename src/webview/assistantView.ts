/**
 * An assistant turn: thinking, the streamed answer (or an agent run's text, tool rows and changed files),
 * end-of-answer notes, usage, Copy and Regenerate.
 */
import * as l10n from '@vscode/l10n';
import type { AgentMeter, AgentRun, AgentToolRow, ChangedFile } from '../chat/agentTurn';
import type { AssistantTurn, TurnError } from '../chat/types';
import type { HostToWebview } from '../protocol';
import { readableModelName } from '../gateway/modelNames';
import { AgentRunView } from './agent/agentRunView';
import { showCopied } from './copyFeedback';
import { h, iconButton } from './dom';
import { turnHeader, type TurnContext, type TurnView } from './messageView';
import { renderMarkdownOnce, StreamRenderer } from './streamRenderer';
import { ThinkingView } from './thinking';
import { errorBox, statusNote, usageText } from './turnStatus';

type TurnFinished = Extract<HostToWebview, { type: 'turnFinished' }>;

/** An assistant message, live while streaming. */
export class AssistantMessageView implements TurnView {
  readonly element: HTMLElement;
  private readonly turn: AssistantTurn;
  private readonly answer: HTMLElement;
  private readonly extras: HTMLElement;
  private readonly usage: HTMLElement;
  private readonly regenerateButton: HTMLButtonElement;
  private renderer: StreamRenderer | undefined;
  /** Agent mode: the run, drawn in place of the answer. */
  private run: AgentRunView | undefined;
  private thinking: ThinkingView | undefined;
  private isLast = false;
  private busy = false;
  private extrasKey = '';

  constructor(
    turn: AssistantTurn,
    private readonly context: TurnContext,
  ) {
    this.turn = { ...turn };
    const streaming = turn.status === 'streaming';
    this.answer = h('div', { class: 'markdown answer' });
    if (turn.agent) {
      this.run = new AgentRunView(turn.agent, turn.id, (message) => context.post(message), streaming);
    } else if (streaming) {
      this.renderer = new StreamRenderer(this.answer);
      this.renderer.append(turn.content);
    } else {
      renderMarkdownOnce(this.answer, turn.content);
    }
    if (turn.reasoning) {
      this.thinking = new ThinkingView(turn.reasoning, {
        turnId: turn.id,
        open: turn.thinkingOpen,
        toggled: (open) => context.post({ type: 'setThinkingOpen', turnId: turn.id, open }),
        streaming: streaming && !turn.content,
        startedAt: turn.createdAt,
        durationMs: turn.reasoningMs,
      });
    }
    this.regenerateButton = iconButton('refresh', l10n.t('Regenerate'), () =>
      context.post({ type: 'regenerate' }),
    );
    this.regenerateButton.hidden = true;
    const copy = iconButton('copy', l10n.t('Copy message'), (event) => {
      context.post({ type: 'copy', text: this.content });
      showCopied(event.currentTarget as HTMLElement);
    });
    // The picker's name ("Sonnet 4.5"); the id the gateway knows is in the tooltip.
    const modelName = readableModelName(turn.model);
    this.extras = h('div', { class: 'turn-extras' });
    this.usage = h('span', { class: 'usage' });
    this.element = h(
      'article',
      {
        role: 'article',
        'aria-label': l10n.t('Assistant {0}', modelName),
        class: 'turn turn-assistant',
      },
      turnHeader('sparkle', modelName, h('div', { class: 'turn-actions' }), turn.model),
      this.thinking?.element,
      this.run?.element ?? this.answer,
      this.extras,
      h(
        'div',
        { class: 'turn-footer' },
        this.usage,
        h('div', { class: 'turn-actions' }, copy, this.regenerateButton),
      ),
    );
    this.element.dataset.turnId = turn.id;
    this.renderExtras();
  }

  /** The whole answer text so far (an agent run's: its text parts). */
  get content(): string {
    return this.run ? this.run.text : this.turn.content;
  }

  /** Token usage of the finished answer, if reported. */
  get totalTokens(): number {
    return this.turn.usage?.total_tokens ?? 0;
  }

  /** Adds streamed text and/or reasoning, after dropping the reasoning when retracted; renders next frame. */
  appendDelta(text: string | undefined, reasoning: string | undefined, retract?: boolean): void {
    if (retract) {
      // What was shown as thinking was the answer: no section keeps a copy of it.
      this.thinking?.dispose();
      this.thinking?.element.remove();
      this.thinking = undefined;
      delete this.turn.reasoning;
      delete this.turn.reasoningMs;
    }
    if (reasoning) {
      if (!this.thinking) {
        const turnId = this.turn.id;
        this.thinking = new ThinkingView('', {
          turnId,
          streaming: true,
          toggled: (open) => this.context.post({ type: 'setThinkingOpen', turnId, open }),
        });
        (this.run?.element ?? this.answer).before(this.thinking.element);
      }
      this.thinking.append(reasoning);
      this.turn.reasoning = (this.turn.reasoning ?? '') + reasoning;
    }
    if (text && this.run) {
      this.thinking?.endReasoning();
      this.run.appendText(text);
    } else if (text) {
      this.thinking?.endReasoning();
      this.turn.content += text;
      this.renderer ??= new StreamRenderer(this.answer);
      this.renderer.append(text);
    }
  }

  /** Applies the end of the answer: status, usage, error. */
  finish(event: TurnFinished): void {
    this.turn.status = event.status;
    this.turn.finishReason = event.finishReason;
    this.turn.usage = event.usage;
    this.turn.error = event.error;
    this.turn.reasoningMs = event.reasoningMs ?? this.turn.reasoningMs;
    this.thinking?.finish(event.reasoningMs);
    this.renderer?.finish();
    this.renderer = undefined;
    this.run?.finish();
    this.renderExtras();
  }

  /** Agent mode: a tool row added or changed. */
  putAgentRow(row: AgentToolRow): void {
    this.agentRun().putRow(row);
  }

  /** Agent mode: the run's changed files. */
  setAgentFiles(files: ChangedFile[]): void {
    this.agentRun().setFiles(files);
  }

  /** Agent mode: the run's token meter. */
  setAgentMeter(meter: AgentMeter): void {
    this.agentRun().setMeter(meter);
  }

  /** Agent mode: the run paused at its step limit (Continue shows), or went on. */
  setAgentPaused(paused: boolean): void {
    this.agentRun().setPaused(paused);
  }

  /** The turn's run; a turn that began as an answer becomes a run, its text so far the run's first part. */
  private agentRun(): AgentRunView {
    if (this.run) return this.run;
    const streaming = this.turn.status === 'streaming';
    const run: AgentRun = {
      parts: this.turn.content ? [{ kind: 'text', text: this.turn.content }] : [],
      files: [],
    };
    this.renderer?.finish();
    this.renderer = undefined;
    this.run = new AgentRunView(run, this.turn.id, (message) => this.context.post(message), streaming);
    this.answer.replaceWith(this.run.element);
    return this.run;
  }

  setPosition(isLast: boolean, busy: boolean): void {
    this.isLast = isLast;
    this.busy = busy;
    // A failed turn offers Retry in its error box; a second button doing the same would only confuse.
    this.regenerateButton.hidden =
      !isLast || busy || this.turn.status === 'streaming' || this.failure() !== undefined;
    this.renderExtras();
  }

  dispose(): void {
    this.thinking?.dispose();
  }

  /** The error to show in the error box: a failed turn's, or the cause of a cut-off one (the text stays). */
  private failure(): TurnError | undefined {
    const { status, error } = this.turn;
    return status === 'error' || status === 'truncated' ? error : undefined;
  }

  private renderExtras(): void {
    this.usage.textContent = this.turn.usage ? usageText(this.turn.usage) : '';
    const canRetry = this.isLast && !this.busy;
    this.run?.showPlanAction(canRetry && this.turn.status === 'complete');
    const key = `${this.turn.status}|${canRetry}|${this.turn.error?.message ?? ''}`;
    if (key === this.extrasKey) return;
    this.extrasKey = key;
    const note = statusNote(this.turn);
    const error = this.failure();
    this.extras.replaceChildren(
      ...(note ? [note] : []),
      ...(error ? [errorBox(this.turn.id, error, (message) => this.context.post(message), canRetry)] : []),
    );
  }
}
