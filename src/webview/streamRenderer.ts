/**
 * Incremental Markdown rendering for streamed answers. Work per frame is bounded by the size of the
 * last, still-open block, never by the length of the answer:
 *  - the text is split into settled top-level blocks (rendered once, never touched again) and a tail;
 *  - only the tail is parsed; when it holds two or more blocks, all but the last are settled;
 *  - an open fenced code block at the end is shown live by appending to a text node, and is
 *    highlighted throttled, then rendered once for good when its closing fence arrives;
 *  - text that only extends the open paragraph's plain text is appended to its text node
 *    (paragraphAppend.ts), without parsing; text that only extends a table's last row re-renders that
 *    row alone (tableRowAppend.ts);
 *  - deltas are accumulated and rendered at most once per animation frame;
 *  - settled blocks go into fixed-size groups (blockGroups.ts), so a frame's layout stays flat too.
 */
import type MarkdownIt from 'markdown-it';
import { highlightedFragment, md, renderMarkdown, renderMarkdownOnce, renderTokens } from './markdown';
import { appendGrouped, markSkippableGroups } from './blockGroups';
import { wrapCodeBlock } from './codeBlock';
import { highlightCode, languageOf } from './highlight';
import { appendToParagraph, openParagraphText, type OpenParagraphText } from './paragraphAppend';
import { appendToTableRow, openTableRow, type OpenTableRow } from './tableRowAppend';
import { clipLongRuns, foldLongRuns } from './longRuns';

export { renderMarkdownOnce };

type Token = MarkdownIt.Token;

/** Re-highlighting a growing code block costs its length, so it is rate-limited and capped. */
const LIVE_HIGHLIGHT_INTERVAL_MS = 300;
const LIVE_HIGHLIGHT_MAX_CHARS = 30_000;
/**
 * Re-rendering the open block costs its size (a long table is parsed, sanitised and laid out again on each
 * render). After a render that took T ms, the next frame render waits until T × this has passed, so an
 * expensive open block is refreshed less often and streaming keeps most of the main thread free; a cheap
 * one (well under a millisecond) is still refreshed every frame. T counts the browser's style, layout and
 * paint of that frame as well as the script: on a 1 MB answer streamed fast they were two thirds of each
 * frame (script 1.1 s, style 0.7-2.9 s, layout 1.2-1.7 s over 1,250 frames), and the wait saw none of it.
 */
const TAIL_RENDER_SPACING = 12;
/**
 * The wait is capped, and only the work a later render repeats (the open block) counts: a slow render
 * (a cold start, a garbage collection, many blocks settling at once) must not make the next one wait
 * longer, or the text piling up meanwhile makes that one slower still, and so on (a trace showed waits
 * growing to tens of thousands of characters and ever slower renders: docs/performance.md, Design changes).
 */
const MAX_TAIL_RENDER_WAIT_MS = 150;
/** Link reference definitions resolve across blocks; a text with any is re-rendered whole at the end. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
const LETTER_START = /^ {0,3}\p{L}/u;

interface LiveFence {
  char: string;
  length: number;
  indent: number;
  language: string;
  /** Source of the fence so far: opening line and every complete line after it. */
  source: string[];
  /** Displayed content lines, for the throttled highlight. */
  content: string[];
  element: HTMLElement;
  code: HTMLElement;
  /** Complete lines appended since the last highlight pass. */
  text: Text;
  /** The line still being written. */
  partial: Text;
  highlightedAt: number;
  highlightedLines: number;
}

/** Renders a growing Markdown text into a container, incrementally; see the file comment for how. */
export class StreamRenderer {
  private readonly tail: HTMLElement;
  private readonly settled: string[] = [];
  /** Source not yet settled (while a fence is live: only the part after its last complete line). */
  private pending = '';
  private heldCarriageReturn = false;
  private live: LiveFence | undefined;
  /** The open paragraph's text node, while plain text may be appended to it without a render. */
  private openText: OpenParagraphText | undefined;
  /** The open last row of a table ending the tail, while only it needs rendering again. */
  private openRow: OpenTableRow | undefined;
  private frame = 0;
  private done = false;
  /** When the last frame render started, and how long it took (ms). */
  private renderedAt = 0;
  private renderCost = 0;
  /** Time the current render spent settling blocks, which a later render does not repeat. */
  private settleCost = 0;

  constructor(private readonly container: HTMLElement) {
    this.tail = document.createElement('div');
    this.tail.className = 'md-tail';
    container.append(this.tail);
  }

  /** The whole text received so far. */
  get text(): string {
    return this.settled.join('') + (this.live?.source.join('') ?? '') + this.pending;
  }

  /** True once finish() ran. */
  get finished(): boolean {
    return this.done;
  }

  /** Adds streamed text; it is rendered on the next animation frame. */
  append(chunk: string): void {
    if (this.done || !chunk) return;
    let text = (this.heldCarriageReturn ? '\r' : '') + chunk;
    // A CRLF split across chunks must not become two line breaks.
    this.heldCarriageReturn = text.endsWith('\r');
    if (this.heldCarriageReturn) text = text.slice(0, -1);
    this.pending += text.replace(/\r\n?/g, '\n');
    if (!this.frame) this.frame = requestAnimationFrame(this.onFrame);
  }

  private readonly onFrame = (): void => {
    this.frame = 0;
    if (this.done) return;
    const started = performance.now();
    if (
      started <
      this.renderedAt + Math.min(this.renderCost * TAIL_RENDER_SPACING, MAX_TAIL_RENDER_WAIT_MS)
    ) {
      this.frame = requestAnimationFrame(this.onFrame);
      return;
    }
    this.settleCost = 0;
    this.render(false);
    const rendered = performance.now();
    this.renderedAt = started;
    this.renderCost = rendered - started - this.settleCost;
    afterRendering(() => (this.renderCost += performance.now() - rendered));
  };

  /** Renders pending text now instead of waiting for the frame. */
  flush(): void {
    this.cancelFrame();
    if (!this.done) this.render(false);
  }

  /** Renders the rest as complete Markdown; the result equals renderMarkdownOnce of the whole text. */
  finish(): void {
    if (this.done) return;
    this.cancelFrame();
    if (this.heldCarriageReturn) this.pending += '\n';
    this.heldCarriageReturn = false;
    this.render(true);
    this.done = true;
    const rest = Array.from(this.tail.childNodes);
    this.tail.remove();
    appendGrouped(this.container, rest, null);
    const text = this.text;
    if (REFERENCE_DEFINITION.test(text)) renderMarkdownOnce(this.container, text);
    markSkippableGroups(this.container);
  }

  private cancelFrame(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private render(final: boolean): void {
    if (this.live && !this.advanceLive(final)) return;
    if (!final && this.openText && appendToParagraph(this.openText, this.pending)) return;
    if (!final && this.openRow && appendToTableRow(this.openRow, this.pending)) return;
    this.openText = undefined;
    this.openRow = undefined;
    const src = this.pending;
    const env = {};
    const tokens = md.parse(src, env);
    const starts: number[] = [];
    tokens.forEach((token, i) => {
      if (token.level === 0 && token.nesting !== -1 && token.map) starts.push(i);
    });
    if (final || starts.length === 0) {
      this.tail.replaceChildren(renderTokens(tokens, env));
      return;
    }
    // Blocks before index `cut` of `starts` are complete: a later block has begun on a finished line,
    // which closes them. A block whose first line is unfinished may still turn out to continue the one
    // before it (`2` becoming `2. item` of the list above), so it doesn't count yet.
    const last = tokens[starts[starts.length - 1]];
    let cut = starts.length - 1;
    const lastStart = lineOffset(src, blockLine(last));
    if (!lineIsComplete(src, lastStart) && !startsWithLetter(src, lastStart)) cut -= 1;
    else if (isClosedFence(src, last)) cut = starts.length;
    const openToken = cut < starts.length ? starts[Math.max(cut, 0)] : tokens.length;
    let consumed = 0;
    if (cut > 0) {
      const endLine = cut < starts.length ? blockLine(tokens[starts[cut]]) : (last.map?.[1] ?? 0);
      consumed = lineOffset(src, endLine);
      this.settle(() => renderTokens(tokens.slice(0, openToken), env), src.slice(0, consumed));
    }
    if (cut === starts.length - 1 && last.type === 'fence') {
      // Lines before the fence (blank ones) settle as text without DOM.
      const fenceStart = lineOffset(src, blockLine(last));
      this.settled.push(src.slice(consumed, fenceStart));
      this.pending = src.slice(fenceStart);
      this.startLive(last);
      return;
    }
    this.pending = src.slice(consumed);
    const open = tokens.slice(cut > 0 ? openToken : 0);
    this.tail.replaceChildren(renderTokens(open, env));
    this.openText = openParagraphText(open, this.tail, this.pending);
    const firstLine = cut > 0 && openToken < tokens.length ? blockLine(tokens[openToken]) : 0;
    this.openRow = openTableRow(open, this.tail, this.pending, firstLine);
  }

  /** Renders complete blocks once and moves them before the tail. */
  private settle(render: () => DocumentFragment, source: string): void {
    const started = performance.now();
    appendGrouped(this.container, render().childNodes, this.tail);
    markSkippableGroups(this.container);
    this.settled.push(source);
    this.settleCost += performance.now() - started;
  }

  /** Shows the open fence at the start of `pending` as a live code block. */
  private startLive(token: Token): void {
    const openingEnd = this.pending.indexOf('\n') + 1;
    const opening = this.pending.slice(0, openingEnd);
    const language = languageOf(token.info);
    const text = document.createTextNode('');
    const partial = document.createTextNode('');
    const code = document.createElement('code');
    code.className = language ? `hljs language-${language}` : 'hljs';
    code.append(text, partial);
    const pre = document.createElement('pre');
    pre.append(code);
    const element = wrapCodeBlock(pre, language);
    element.classList.add('live');
    this.live = {
      char: token.markup[0],
      length: token.markup.length,
      indent: /^ */.exec(opening)?.[0].length ?? 0,
      language,
      source: [opening],
      content: [],
      element,
      code,
      text,
      partial,
      highlightedAt: performance.now(),
      highlightedLines: 0,
    };
    this.pending = this.pending.slice(openingEnd);
    this.tail.replaceChildren(element);
    this.advanceLive(false);
  }

  /** Feeds complete lines to the live fence; true when the fence is over (closed, or the text ended). */
  private advanceLive(final: boolean): boolean {
    const live = this.live;
    if (!live) return true;
    let scanned = 0;
    let added = '';
    for (let nl = this.pending.indexOf('\n'); nl !== -1; nl = this.pending.indexOf('\n', scanned)) {
      const line = this.pending.slice(scanned, nl);
      if (isClosingFence(line, live.char, live.length)) {
        const source = live.source.join('') + this.pending.slice(0, nl + 1);
        this.pending = this.pending.slice(nl + 1);
        this.endLive();
        this.settle(() => renderMarkdown(source), source);
        return true;
      }
      const shown = stripIndent(line, live.indent) + '\n';
      live.content.push(shown);
      added += shown;
      scanned = nl + 1;
    }
    if (scanned > 0) {
      live.source.push(this.pending.slice(0, scanned));
      this.pending = this.pending.slice(scanned);
      live.text.appendData(clipLongRuns(added));
    }
    if (final) {
      // Unterminated: Markdown runs the fence to the end of the text, so it becomes a plain tail again.
      this.pending = live.source.join('') + this.pending;
      this.endLive();
      return true;
    }
    live.partial.data = clipLongRuns(stripIndent(this.pending, live.indent));
    this.highlightLive(live);
    return false;
  }

  private endLive(): void {
    this.live?.element.remove();
    this.live = undefined;
  }

  /** Re-colours the complete lines of the live fence, at most every few hundred ms and only while small. */
  private highlightLive(live: LiveFence): void {
    const now = performance.now();
    if (
      live.highlightedLines === live.content.length ||
      now - live.highlightedAt < LIVE_HIGHLIGHT_INTERVAL_MS
    )
      return;
    const code = live.content.join('');
    if (code.length > LIVE_HIGHLIGHT_MAX_CHARS || !live.language) return;
    live.text = document.createTextNode('');
    const highlighted = highlightedFragment(highlightCode(code, live.language));
    foldLongRuns(highlighted);
    live.code.replaceChildren(highlighted, live.text, live.partial);
    live.highlightedAt = now;
    live.highlightedLines = live.content.length;
  }
}

/** Callbacks waiting for the end of the current frame's rendering (afterRendering). */
const renderingDone: Array<() => void> = [];
let renderingChannel: MessageChannel | undefined;

/**
 * Runs `then` once the browser has done the current frame's rendering work (style, layout, paint): a task
 * queued from a frame callback runs after that frame's update.
 */
function afterRendering(then: () => void): void {
  if (!renderingChannel) {
    renderingChannel = new MessageChannel();
    renderingChannel.port1.onmessage = () => renderingDone.shift()?.();
  }
  renderingDone.push(then);
  renderingChannel.port2.postMessage(0);
}

function blockLine(token: Token): number {
  return token.map?.[0] ?? 0;
}

/** Offset in src where 0-based line `line` starts. */
function lineOffset(src: string, line: number): number {
  let offset = 0;
  for (let i = 0; i < line; i++) offset = src.indexOf('\n', offset) + 1;
  return offset;
}

/** Whether the line starting at offset has its newline yet (until then it may still change kind). */
function lineIsComplete(src: string, offset: number): boolean {
  return src.indexOf('\n', offset) !== -1;
}

/**
 * Whether the line at offset starts (after up to three spaces) with a letter. A block that begins with
 * such a line is a paragraph whatever follows on that line, and cannot join the block before it.
 */
function startsWithLetter(src: string, offset: number): boolean {
  return LETTER_START.test(src.slice(offset, offset + 5));
}

/** A top-level fence whose closing line has fully arrived: nothing after it can change it. */
function isClosedFence(src: string, token: Token): boolean {
  if (token.type !== 'fence' || token.level !== 0 || !token.map) return false;
  const [start, end] = token.map;
  if (end - start < 2) return false;
  const offset = lineOffset(src, end - 1);
  const nl = src.indexOf('\n', offset);
  return nl !== -1 && isClosingFence(src.slice(offset, nl), token.markup[0], token.markup.length);
}

/** The CommonMark closing-fence test: same character, at least as long, indented < 4, nothing after. */
function isClosingFence(line: string, char: string, length: number): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!match && match[1][0] === char && match[1].length >= length;
}

function stripIndent(line: string, indent: number): string {
  let i = 0;
  while (i < indent && line[i] === ' ') i++;
  return line.slice(i);
}
