/**
 * An agent run in its assistant turn: the rules files it read, its text and tool rows in the order they came (the
 * text streamed as Markdown, a new text part after each row), the Continue prompt at the step limit, the changed
 * files with Keep and Undo, and the token meter. A run drawn from history and a run that streamed end as the
 * same DOM.
 */
import * as l10n from '@vscode/l10n';
import {
  appendAgentText,
  putAgentRow,
  type AgentMeter,
  type AgentRun,
  type AgentToolRow,
  type ChangedFile,
} from '../../chat/agentTurn';
import type { WebviewToHost } from '../../protocol';
import { h, icon, textButton } from '../dom';
import { renderMarkdownOnce, StreamRenderer } from '../streamRenderer';
import { ChangedFilesView } from './changedFilesView';
import { ToolRowView } from './toolRowView';

/** The run's text for Copy and for reading its code fences: the text parts, in order, a blank line apart. */
export function agentRunText(run: AgentRun): string {
  return run.parts
    .flatMap((part) => (part.kind === 'text' && part.text.trim() ? [part.text.trim()] : []))
    .join('\n\n');
}

/** "950", "12.3k", "128k". */
function compactTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  return tokens < 100_000 ? `${(tokens / 1000).toFixed(1)}k` : `${Math.round(tokens / 1000)}k`;
}

/** "12.3k tokens · 41% of context (estimated) · 2 results elided · $0.042". */
export function meterText(meter: AgentMeter): string {
  const parts = [l10n.t('{0} tokens', compactTokens(meter.totalTokens))];
  if (meter.contextTokens > 0) {
    const share = (meter.promptTokens / meter.contextTokens) * 100;
    // A run that uses some of the context never reads "0%".
    const percent = share > 0 && share < 1 ? '<1' : String(Math.round(share));
    parts.push(
      meter.estimated ? l10n.t('{0}% of context (estimated)', percent) : l10n.t('{0}% of context', percent),
    );
  } else if (meter.estimated) {
    parts.push(l10n.t('estimated'));
  }
  if (meter.elided)
    parts.push(meter.elided === 1 ? l10n.t('1 result elided') : l10n.t('{0} results elided', meter.elided));
  if (meter.cost !== undefined)
    parts.push(`$${meter.cost < 0.01 ? meter.cost.toFixed(4) : meter.cost.toFixed(2)}`);
  return parts.join(' · ');
}

/** A text part's element: Markdown, the same classes as an Ask answer's. */
function textPart(): HTMLElement {
  return h('div', { class: 'markdown agent-text' });
}

/** The live view of one run. */
export class AgentRunView {
  /** The run's container; it carries `answer` so code blocks' Apply finds its fences (applyTarget.ts). */
  readonly element: HTMLElement;
  private readonly run: AgentRun;
  private readonly partsBox: HTMLElement;
  private readonly rows = new Map<string, ToolRowView>();
  private readonly files: ChangedFilesView;
  private readonly pausedBox: HTMLElement;
  private readonly meter: HTMLElement;
  private readonly rulesBox: HTMLElement;
  /** A plan's "Start with Agent", shown under it once it is finished (see `showPlanAction`). */
  private readonly planBox: HTMLElement;
  /** The streaming renderer of the last text part, while the run streams into it. */
  private renderer: StreamRenderer | undefined;
  private lastText: HTMLElement | undefined;

  constructor(
    run: AgentRun,
    private readonly turnId: string,
    private readonly post: (message: WebviewToHost) => void,
    streaming: boolean,
  ) {
    // The view owns its copy: updates change it in place.
    this.run = structuredClone(run);
    this.partsBox = h('div', { class: 'agent-parts' });
    this.rulesBox = h('div', { class: 'agent-rules' });
    this.pausedBox = h('div', { class: 'agent-paused' });
    this.meter = h('div', { class: 'agent-meter' });
    this.planBox = h('div', { class: 'agent-plan-actions' });
    this.planBox.hidden = true;
    this.files = new ChangedFilesView(this.run.files, {
      decide: (path, decision) =>
        post(
          path === undefined
            ? { type: 'agentDecision', turnId, decision }
            : { type: 'agentDecision', turnId, path, decision },
        ),
      open: (path) => post({ type: 'openChangedFile', turnId, path }),
    });
    this.element = h(
      'div',
      { class: 'agent-run answer' },
      this.rulesBox,
      this.partsBox,
      this.pausedBox,
      this.files.element,
      this.planBox,
      this.meter,
    );
    const parts = this.run.parts;
    parts.forEach((part, index) => {
      if (part.kind === 'tool') {
        this.partsBox.append(this.toolRow(part).element);
        return;
      }
      const element = textPart();
      this.partsBox.append(element);
      this.lastText = element;
      if (streaming && index === parts.length - 1) {
        this.renderer = new StreamRenderer(element);
        this.renderer.append(part.text);
      } else {
        renderMarkdownOnce(element, part.text);
      }
    });
    this.renderRules();
    this.renderPaused();
    this.renderMeter();
  }

  /** The run's text so far. */
  get text(): string {
    return agentRunText(this.run);
  }

  /** Streamed text: it continues the last text part, or starts one after a tool row. */
  appendText(text: string): void {
    const last = this.run.parts.at(-1);
    appendAgentText(this.run, text);
    if (last?.kind !== 'text' || !this.lastText) {
      this.lastText = textPart();
      this.partsBox.append(this.lastText);
      this.renderer = new StreamRenderer(this.lastText);
      this.renderer.append(text);
    } else if (this.renderer) {
      this.renderer.append(text);
    } else {
      // The part had been rendered for good (a run resumed after Continue): it streams again, whole.
      this.lastText.replaceChildren();
      this.renderer = new StreamRenderer(this.lastText);
      this.renderer.append(last.text);
    }
  }

  /** A tool row added or changed (by id). */
  putRow(row: AgentToolRow): void {
    putAgentRow(this.run, row);
    const view = this.rows.get(row.id);
    if (view) {
      view.update(row);
      return;
    }
    // The text before the row is complete: render it for good, as history would.
    this.finishText();
    this.lastText = undefined;
    this.partsBox.append(this.toolRow(row).element);
  }

  /** The run's changed files, replaced. */
  setFiles(files: ChangedFile[]): void {
    this.run.files = files;
    this.files.update(files);
  }

  setMeter(meter: AgentMeter): void {
    this.run.meter = meter;
    this.renderMeter();
  }

  setPaused(paused: boolean): void {
    this.run.paused = paused;
    this.renderPaused();
  }

  /** The run ended: its last text is rendered for good. */
  finish(): void {
    this.finishText();
  }

  /** Shows "Start with Agent" under a plan (a finished Plan run that is the conversation's latest turn) or hides it. */
  showPlanAction(show: boolean): void {
    const visible = show && this.run.plan === true;
    if (visible === !this.planBox.hidden) return;
    this.planBox.hidden = !visible;
    this.planBox.replaceChildren(
      ...(visible
        ? [
            textButton(
              l10n.t('Start with Agent'),
              () => this.post({ type: 'startWithAgent', turnId: this.turnId }),
              { icon: 'play' },
            ),
          ]
        : []),
    );
  }

  private finishText(): void {
    this.renderer?.finish();
    this.renderer = undefined;
  }

  private toolRow(row: AgentToolRow): ToolRowView {
    const view = new ToolRowView(row, {
      choose: (callId, choice) => this.post({ type: 'agentApproval', turnId: this.turnId, callId, choice }),
    });
    this.rows.set(row.id, view);
    return view;
  }

  private renderRules(): void {
    const rules = this.run.rules ?? [];
    this.rulesBox.hidden = rules.length === 0;
    this.rulesBox.replaceChildren(
      ...(rules.length
        ? [
            h('span', { class: 'agent-rules-label' }, icon('book'), l10n.t('Rules:')),
            ...rules.map((name) => h('span', { class: 'agent-rule', title: name }, name)),
          ]
        : []),
    );
  }

  private renderPaused(): void {
    this.pausedBox.hidden = !this.run.paused;
    if (!this.run.paused) {
      this.pausedBox.replaceChildren();
      return;
    }
    const resume = textButton(
      l10n.t('Continue'),
      () => {
        this.post({ type: 'agentContinue', turnId: this.turnId });
        // Once asked, the button goes; the host says whether the run paused again.
        this.setPaused(false);
      },
      { icon: 'debug-continue' },
    );
    this.pausedBox.replaceChildren(
      icon('debug-pause'),
      h('span', {}, l10n.t('The run reached its step limit. Continue?')),
      resume,
    );
  }

  private renderMeter(): void {
    const { meter, protocol } = this.run;
    this.meter.hidden = !meter;
    this.meter.textContent = meter ? meterText(meter) : '';
    this.meter.title = meter
      ? protocol === 'text'
        ? l10n.t(
            'Tokens of all the run’s requests, and its last prompt against the model’s context. Tool calls went through the text protocol.',
          )
        : l10n.t('Tokens of all the run’s requests, and its last prompt against the model’s context')
      : '';
  }
}
