/**
 * Incremental splitter for reasoning sent inline in `content` as `<think>…</think>` or
 * `<thinking>…</thinking>`, with tags possibly split across chunks or the opening tag missing.
 *
 * Rules (a tag never reaches the text):
 * - An opening tag at the start of the content (after whitespace) begins reasoning; the matching
 *   kind of closing tag ends it. An opening tag later in the text starts another reasoning block.
 * - Only a possible partial tag is held back: at most the tail that is still a prefix of a tag
 *   (< 12 characters). Everything else is released as soon as it arrives.
 * - Missing opening tag: whether text before a bare `</think>` was reasoning is only known in
 *   retrospect, so the splitter decides up front and corrects itself when it can:
 *   1. For a thinking model (`-thinking` suffix) whose server has not sent a separate reasoning
 *      field, untagged leading content is *presumed* reasoning and streamed as such (marked
 *      `presumed`, for consumers that cannot take back what they showed), for at most
 *      PRESUME_LIMIT characters (see there). A closing tag confirms it. If instead a reasoning field
 *      shows up, the look-ahead runs out, or the stream ends without a closing tag, the presumption
 *      was wrong: a `retract` segment tells the consumer to discard all the reasoning it was given,
 *      and the same text follows as text. So the answer is the answer only, shown once.
 *   2. For other models, and once a presumption was given up, leading content is text. A bare
 *      closing tag turns the text that came before it into reasoning only if none of that text has
 *      left the splitter yet (it arrived in the same push); otherwise the tag is dropped and the
 *      earlier text stays text.
 */

export interface ThinkSegment {
  /** `retract`: every reasoning segment given so far was not reasoning after all; discard it (text is ''). */
  kind: 'text' | 'reasoning' | 'retract';
  text: string;
  /** Reasoning only presumed (case 1 above): a `retract` may still take it back. */
  presumed?: true;
}

const OPENERS = ['<think>', '<thinking>'];
const CLOSERS = ['</think>', '</thinking>'];
const ALL_TAGS = [...OPENERS, ...CLOSERS];
const LONGEST_TAG = Math.max(...ALL_TAGS.map((t) => t.length));

/**
 * How much untagged content of a thinking model is streamed as presumed reasoning before the
 * presumption is given up for want of a closing tag. The trade-off: a model that answers without
 * thinking aloud shows at most this much of its answer under "Thinking" (about 250 tokens, a few
 * seconds of output) before it moves to the answer; a model that reasons without an opening tag
 * for longer than this has its reasoning shown as answer text (the late closing tag is dropped).
 * The first case is the common one for models that never think aloud, and the cost of the second
 * is reasoning shown in plain sight, never an answer lost. A whole body (JSON answer) is pushed at
 * once, so there a closing tag anywhere in it is still found.
 */
export const PRESUME_LIMIT = 1024;

type State = 'lead' | 'reasoning' | 'presumed' | 'text';

type ScanResult = { tag: string; index: number } | { partialAt: number } | undefined;

/** Finds the first complete tag of `tags`, or a trailing fragment that could still become one. */
function scan(input: string, tags: readonly string[]): ScanResult {
  for (let i = input.indexOf('<'); i !== -1; i = input.indexOf('<', i + 1)) {
    for (const tag of tags) if (input.startsWith(tag, i)) return { tag, index: i };
    if (input.length - i < LONGEST_TAG) {
      const tail = input.slice(i);
      if (tags.some((t) => t.startsWith(tail))) return { partialAt: i };
    }
  }
  return undefined;
}

/** Where the text before a scan result ends: at the tag, at the partial tag, or at the end. */
function endOf(found: ScanResult, input: string): number {
  return found === undefined ? input.length : 'tag' in found ? found.index : found.partialAt;
}

/** Splits streamed content into text and reasoning segments; see the module comment for the rules. */
export class ThinkTagSplitter {
  private state: State = 'lead';
  /** Held back: leading whitespace, or a fragment that may be the start of a tag. */
  private pending = '';
  private textEmitted = false;
  /** What was streamed as presumed reasoning, to be emitted again as text if the presumption fails. */
  private presumed = '';
  private trimText = false;
  private reasoningField = false;

  /** `expectReasoning`: the model is a thinking model, so untagged leading content is presumed reasoning. */
  constructor(private readonly expectReasoning: boolean) {}

  /** Tells the splitter the server sends reasoning in a separate field, so content is the answer. */
  noteReasoningField(): ThinkSegment[] {
    this.reasoningField = true;
    if (this.state !== 'presumed') return [];
    const out: ThinkSegment[] = [];
    this.run(this.givenUp(out, this.takePending()), out);
    return this.finishPush(out);
  }

  /** Feeds the next piece of content. */
  push(chunk: string): ThinkSegment[] {
    const out: ThinkSegment[] = [];
    this.run(this.takePending() + chunk, out);
    return this.finishPush(out);
  }

  /** Flushes held-back content at the end of the stream. */
  end(): ThinkSegment[] {
    const out: ThinkSegment[] = [];
    // Never confirmed by a closing tag: it was the answer after all.
    if (this.state === 'presumed') this.run(this.givenUp(out, this.takePending()), out);
    const rest = this.takePending();
    if (this.state === 'reasoning') this.emitReasoning(out, rest);
    else if (this.state === 'text' || rest.trim()) this.emitText(out, rest);
    this.state = 'text';
    return this.finishPush(out);
  }

  private run(input: string, out: ThinkSegment[]): void {
    while (input) {
      if (this.state === 'lead') {
        const rest = input.trimStart();
        const opener = rest ? scan(rest, OPENERS) : undefined;
        if (!rest || (opener && 'partialAt' in opener && opener.partialAt === 0)) {
          this.pending = input;
          return;
        }
        if (opener && 'tag' in opener && opener.index === 0) {
          this.state = 'reasoning';
          input = rest.slice(opener.tag.length);
          continue;
        }
        this.state = this.expectReasoning && !this.reasoningField ? 'presumed' : 'text';
        continue;
      }
      if (this.state === 'reasoning' || this.state === 'presumed') {
        const found = scan(input, CLOSERS);
        const end = endOf(found, input);
        if (found && 'tag' in found) {
          this.emitReasoning(out, input.slice(0, end));
          this.state = 'text';
          this.presumed = '';
          this.trimText = true;
          input = input.slice(end + found.tag.length);
          continue;
        }
        if (this.state === 'presumed' && this.presumed.length + end > PRESUME_LIMIT) {
          input = this.givenUp(out, input);
          continue;
        }
        this.emitReasoning(out, input.slice(0, end));
        this.pending = input.slice(end);
        return;
      }
      const found = scan(input, ALL_TAGS);
      const end = endOf(found, input);
      this.emitText(out, input.slice(0, end));
      if (found && 'tag' in found) {
        if (OPENERS.includes(found.tag)) {
          this.state = 'reasoning';
        } else if (!this.textEmitted) {
          // Bare closing tag and nothing shown as text yet: what came before it was reasoning.
          for (const segment of out) if (segment.kind === 'text') segment.kind = 'reasoning';
          this.trimText = true;
        }
        input = input.slice(end + found.tag.length);
        continue;
      }
      this.pending = input.slice(end);
      return;
    }
  }

  /**
   * Gives up the presumption that the leading content is reasoning: retracts what was streamed as
   * such, and returns it with `rest` as the input to read again as text (it may hold an opening tag).
   */
  private givenUp(out: ThinkSegment[], rest: string): string {
    const again = this.presumed + rest;
    if (this.presumed) out.push({ kind: 'retract', text: '' });
    this.presumed = '';
    this.state = 'text';
    return again;
  }

  private takePending(): string {
    const value = this.pending;
    this.pending = '';
    return value;
  }

  private emitReasoning(out: ThinkSegment[], text: string): void {
    if (!text) return;
    if (this.state !== 'presumed') return void out.push({ kind: 'reasoning', text });
    this.presumed += text;
    out.push({ kind: 'reasoning', text, presumed: true });
  }

  private emitText(out: ThinkSegment[], text: string): void {
    // Models put a blank line after `</think>`; it is not part of the answer.
    if (this.trimText) {
      text = text.trimStart();
      if (!text) return;
      this.trimText = false;
    }
    if (text) out.push({ kind: 'text', text });
  }

  private finishPush(out: ThinkSegment[]): ThinkSegment[] {
    const merged: ThinkSegment[] = [];
    for (const segment of out) {
      const last = merged[merged.length - 1];
      const same = last && last.kind === segment.kind && last.presumed === segment.presumed;
      if (same && segment.kind !== 'retract') last.text += segment.text;
      else merged.push({ ...segment });
    }
    if (merged.some((s) => s.kind === 'text')) this.textEmitted = true;
    return merged;
  }
}
