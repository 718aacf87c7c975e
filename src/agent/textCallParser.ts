/**
 * Incremental parser of the text protocol: splits a streamed answer into its text and the `<tool_call>` blocks
 * in it, whatever the chunking.
 *
 * Rules:
 * - Text outside blocks is released as soon as it cannot be the start of `<tool_call>`: only a trailing `<…`
 *   that is still a prefix of the opener (at most 10 characters) is held back.
 * - Inside a Markdown code fence (``` or ~~~ at the start of a line, closed by a line of at least as many of
 *   the same character) and right after a backtick (inline code), `<tool_call>` is text: a model explaining
 *   the format is not calling.
 * - A block ends at the first `</tool_call>` outside a JSON string, so file content that mentions the tag does
 *   not cut a call short. A raw line break ends a string (JSON forbids one there), so a broken string cannot
 *   swallow the closing tag on a later line.
 * - A block that never closes, or that is followed by another `<tool_call>` before it closes, is a malformed
 *   call; so is one whose JSON cannot be read (see callFormat.ts).
 * Each character is looked at once (plus at most the held-back tail again), so a chunk costs the same at the
 * start of a 1 MB answer as at its end.
 */
import { TOOL_CALL_CLOSE, TOOL_CALL_OPEN, nameIn, readCallText } from './callFormat';
import type { ModelStepEvent } from './types';

/** Options of `createTextCallParser`. */
export interface TextCallParserOptions {
  /** The tools offered: a call to any other name is malformed. Any name is accepted when absent. */
  toolNames?: readonly string[];
  /** Number of the first call's id (`call_<n>`), so ids stay unique across the steps of a run; default 1. */
  firstCallNumber?: number;
}

/** The parser of one model step. */
export interface TextCallParser {
  /** Feeds the next piece of the answer; returns what is now certain, in order. */
  push(chunk: string): ModelStepEvent[];
  /** The answer ended: releases held-back text and reports a block left open. */
  end(): ModelStepEvent[];
  /** The number the next call's id would take (pass it as `firstCallNumber` to the next step's parser). */
  readonly nextCallNumber: number;
}

const LT = 0x3c;
const NEWLINE = 0x0a;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

/** Whether `s` from `at` is `tag`, is not, or ends before it can tell (`partial`). */
function tagAt(s: string, at: number, tag: string): 'yes' | 'no' | 'partial' {
  const available = Math.min(tag.length, s.length - at);
  for (let k = 1; k < available; k++) if (s.charCodeAt(at + k) !== tag.charCodeAt(k)) return 'no';
  return available === tag.length ? 'yes' : 'partial';
}

/** Tracks Markdown code fences line by line, one character at a time, so no text is ever held back for them. */
class FenceTracker {
  /** The open fence's character and length, or none. */
  private fence: { char: number; count: number } | undefined;
  /** Only blanks so far on this line. */
  private lineStart = true;
  /** A run of fence characters at the start of this line. */
  private run: { char: number; count: number } | undefined;
  /** This line began with a run that closes the fence, if nothing but blanks follows it. */
  private closing = false;

  get inFence(): boolean {
    return this.fence !== undefined;
  }

  /** Notes one character. Idempotent for a `<` seen twice (the held-back tail is scanned again). */
  step(c: number): void {
    if (c === NEWLINE) {
      if (this.run) this.endRun(true);
      if (this.closing) this.fence = undefined;
      this.closing = false;
      this.lineStart = true;
      return;
    }
    if (this.run) {
      if (c === this.run.char) {
        this.run.count++;
        return;
      }
      this.endRun(false);
    } else if (this.lineStart) {
      if (isBlank(c)) return;
      this.lineStart = false;
      if (c === BACKTICK || c === TILDE) {
        this.run = { char: c, count: 1 };
        return;
      }
    }
    if (this.closing && !isBlank(c)) this.closing = false;
  }

  /** Text resumes after a call block: the block's line is not a fence line. */
  afterBlock(): void {
    this.lineStart = false;
    this.run = undefined;
    this.closing = false;
  }

  private endRun(atLineEnd: boolean): void {
    const run = this.run;
    this.run = undefined;
    if (!run || run.count < 3) return;
    if (!this.fence) this.fence = run;
    else if (run.char === this.fence.char && run.count >= this.fence.count) {
      if (atLineEnd) this.fence = undefined;
      else this.closing = true;
    }
  }
}

/** Creates the parser for one streamed answer; see the module comment for the rules. */
export function createTextCallParser(options: TextCallParserOptions = {}): TextCallParser {
  return new StreamingTextCallParser(options);
}

class StreamingTextCallParser implements TextCallParser {
  private readonly fences = new FenceTracker();
  private inBlock = false;
  /** Text mode: a possible partial `<tool_call>`. Block mode: a possible partial closing (or opening) tag. */
  private held = '';
  /** The character before the held text (or before the next chunk), for the inline-code rule. */
  private previous = 0;
  /** The block's text so far, in pieces: joined once, when it closes. */
  private blockParts: string[] = [];
  private inString = false;
  private escaped = false;
  private callNumber: number;

  constructor(private readonly options: TextCallParserOptions) {
    this.callNumber = options.firstCallNumber ?? 1;
  }

  get nextCallNumber(): number {
    return this.callNumber;
  }

  push(chunk: string): ModelStepEvent[] {
    const out: ModelStepEvent[] = [];
    let input = this.held + chunk;
    this.held = '';
    while (input) input = this.inBlock ? this.scanBlock(input, out) : this.scanText(input, out);
    return out;
  }

  end(): ModelStepEvent[] {
    const out: ModelStepEvent[] = [];
    if (this.inBlock) {
      const body = this.blockParts.join('') + this.held;
      this.closeBlock(out, body, TOOL_CALL_OPEN + body, 'The <tool_call> block was never closed.');
    } else emitText(out, this.held);
    this.held = '';
    return out;
  }

  /** Scans text outside blocks; returns the input left once a block opens ('' when all of it is consumed). */
  private scanText(s: string, out: ModelStepEvent[]): string {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      this.fences.step(c);
      if (c === LT && !this.fences.inFence && this.previous !== BACKTICK) {
        const open = tagAt(s, i, TOOL_CALL_OPEN);
        if (open === 'partial') {
          emitText(out, s.slice(0, i));
          this.held = s.slice(i);
          return '';
        }
        if (open === 'yes') {
          emitText(out, s.slice(0, i));
          this.openBlock();
          return s.slice(i + TOOL_CALL_OPEN.length);
        }
      }
      this.previous = c;
    }
    emitText(out, s);
    return '';
  }

  /** Scans inside a block; returns the input after it once it closes ('' while it is still open). */
  private scanBlock(s: string, out: ModelStepEvent[]): string {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE || c === NEWLINE) this.inString = false;
        continue;
      }
      if (c === QUOTE) this.inString = true;
      if (c !== LT) continue;
      const close = tagAt(s, i, TOOL_CALL_CLOSE);
      const reopen = tagAt(s, i, TOOL_CALL_OPEN);
      if (close === 'partial' || reopen === 'partial') {
        this.blockParts.push(s.slice(0, i));
        this.held = s.slice(i);
        return '';
      }
      if (close === 'yes') {
        const body = this.blockParts.join('') + s.slice(0, i);
        this.closeBlock(out, body, TOOL_CALL_OPEN + body + TOOL_CALL_CLOSE);
        return s.slice(i + TOOL_CALL_CLOSE.length);
      }
      if (reopen === 'yes') {
        const body = this.blockParts.join('') + s.slice(0, i);
        this.closeBlock(
          out,
          body,
          TOOL_CALL_OPEN + body,
          'The <tool_call> block was not closed before the next one.',
        );
        this.openBlock();
        return s.slice(i + TOOL_CALL_OPEN.length);
      }
    }
    this.blockParts.push(s);
    return '';
  }

  private openBlock(): void {
    this.inBlock = true;
    this.blockParts = [];
    this.inString = false;
    this.escaped = false;
  }

  /** Ends the block as a call, or as a malformed call when `unclosed` says why it never closed. */
  private closeBlock(out: ModelStepEvent[], body: string, raw: string, unclosed?: string): void {
    this.inBlock = false;
    this.blockParts = [];
    this.fences.afterBlock();
    this.previous = 0;
    const id = `call_${this.callNumber++}`;
    if (unclosed) {
      const reason = `${unclosed} Write the whole call as <tool_call>{"name": …, "arguments": {…}}</tool_call>.`;
      out.push({ type: 'malformedCall', call: { id, name: nameIn(body), reason, raw } });
      return;
    }
    const read = readCallText(body, this.options.toolNames);
    if (read.ok) out.push({ type: 'toolCall', call: { id, name: read.name, input: read.input } });
    else out.push({ type: 'malformedCall', call: { id, name: read.name, reason: read.reason, raw } });
  }
}

/** Appends text, joining it to a text event just before it so one push yields one text event per run. */
function emitText(out: ModelStepEvent[], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.type === 'text') last.text += text;
  else out.push({ type: 'text', text });
}
