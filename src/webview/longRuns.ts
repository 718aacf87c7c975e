/**
 * Very long unbroken runs (a base64 blob, minified code, a hash) are shown folded: the first LONG_RUN
 * characters, then a "Show all" button standing for the rest. Chromium lays out a text run in time that grows
 * with its length whatever the CSS (about 30 ms for 64 KB and 330 ms for 1 MB in a paragraph on this
 * machine's Chromium; `<wbr>` every 64 characters makes it slower, not faster), so the only way to keep such an
 * answer from freezing the chat is not to lay it all out. VS Code's own editor does the same for long lines
 * (`editor.stopRenderingLineAfter`, 10,000 characters).
 *
 * The rest of the text is kept beside the button, never lost: `fullText` reads it back (a code block's Copy,
 * Insert and Apply take the whole code), the turn keeps its source (Copy message, export), and the button shows
 * it in place. Folding depends only on a text node's own text, so a streamed answer and the same answer from
 * history fold alike.
 */
import * as l10n from '@vscode/l10n';

/** The longest run shown before folding, as VS Code's editor stops rendering a line after 10,000 characters. */
export const LONG_RUN = 10_000;

/**
 * Whether the UTF-16 unit `c` ends a run: whitespace, `-`, `/` and `+` (line-break opportunities, so base64
 * with its `+` and `/` is never folded), and the scripts written without spaces, where every character is a
 * break opportunity (Thai, and from U+2E80 on: CJK, kana, Hangul; emoji too), so long prose in any language is
 * never folded. A plain loop: a regular expression with Unicode properties took 34 ms per megabyte.
 */
function endsRun(c: number): boolean {
  return (
    c <= 0x20 ||
    c === 0x2d ||
    c === 0x2f ||
    c === 0x2b ||
    c === 0xa0 ||
    (c >= 0x0e00 && c <= 0x0e7f) ||
    (c >= 0x2000 && c <= 0x200b) ||
    c >= 0x2e80
  );
}

/** Where the first run longer than LONG_RUN starts in `text` from `from` on, or -1. */
function longRunStart(text: string, from = 0): number {
  let runStart = from;
  for (let i = from; i < text.length; i++) {
    if (endsRun(text.charCodeAt(i))) runStart = i + 1;
    else if (i - runStart >= LONG_RUN) return runStart;
  }
  return -1;
}

/** Where the run going on at `from` ends (its first character that ends a run, or the end of `text`). */
function runEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !endsRun(text.charCodeAt(end))) end++;
  return end;
}

/** The text each fold button stands for. */
const foldedText = new WeakMap<Element, string>();

/** Whether `text` holds a character that ends a run (after which appended text is no longer part of it). */
export function endsARun(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (endsRun(text.charCodeAt(i))) return true;
  return false;
}

/**
 * `text` with each over-long run cut to LONG_RUN characters and an ellipsis: for the live view of a code block
 * still streaming, which is replaced by the folded block when its fence closes.
 */
export function clipLongRuns(text: string): string {
  let out = '';
  let from = 0;
  for (let start = longRunStart(text); start >= 0; start = longRunStart(text, from)) {
    const end = runEnd(text, start + LONG_RUN);
    out += `${text.slice(from, start + LONG_RUN)} …`;
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The length of the unbroken run `text` ends with, counted up to LONG_RUN + 1. */
export function trailingRunLength(text: string): number {
  let i = text.length;
  while (i > 0 && text.length - i <= LONG_RUN && !endsRun(text.charCodeAt(i - 1))) i--;
  return text.length - i;
}

function foldButton(rest: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'long-run-fold';
  button.textContent = foldLabel(rest);
  button.title = l10n.t('Show the whole text (laying it out may take a moment)');
  foldedText.set(button, rest);
  return button;
}

/** Marks where markdown-it's source had the rest of a run taken out (`foldSourceRuns`); a private-use character. */
const FOLD_MARK = '\uE000';
/** The mark is followed by one character naming which rest: U+E100 + its index. */
const FOLD_INDEX_BASE = 0xe100;
const MAX_SOURCE_FOLDS = 0x1000;

/** What markdown-it's env carries for the folds (`longRunTails`), or asks (`keepLongRuns`: parse it all). */
export interface FoldEnv {
  longRunTails?: string[];
  keepLongRuns?: boolean;
}

/**
 * Takes the rest of each over-long run out of a Markdown source before markdown-it parses it, leaving a mark,
 * when that cannot change how anything parses: the rest is letters and digits only, and the run's word has no
 * `:` or `@` that linkify could make a link of. Parsing a megabyte of one run took 20-50 ms (a table's cell the
 * most) on every frame it streamed; now it parses 10,000 characters. `foldLongRuns` turns each mark into the
 * same fold a run gets in the DOM, so both ways give the same page.
 */
export function foldSourceRuns(src: string, env: FoldEnv): string {
  if (env.keepLongRuns || src.length <= LONG_RUN || src.includes(FOLD_MARK)) return src;
  let out = '';
  let from = 0;
  for (let start = longRunStart(src, from); start >= 0; start = longRunStart(src, from)) {
    const { end, alphanumeric } = scanRest(src, start + LONG_RUN);
    const tails = (env.longRunTails ??= []);
    if (tails.length < MAX_SOURCE_FOLDS && alphanumeric && !linkable(src, start)) {
      out +=
        src.slice(from, start + LONG_RUN) + FOLD_MARK + String.fromCharCode(FOLD_INDEX_BASE + tails.length);
      tails.push(src.slice(start + LONG_RUN, end));
    } else {
      out += src.slice(from, end);
    }
    from = end;
  }
  return from === 0 ? src : out + src.slice(from);
}

/** The first character that is not an ASCII letter or digit (global: searched from `lastIndex`). */
const NOT_ALPHANUMERIC = /[^A-Za-z0-9]/g;

/**
 * Where the run going on at `from` ends, and whether it holds letters and digits only up to there. One
 * regular-expression search finds the first other character (about half the time of a character loop on
 * a megabyte, and a history message of a megabyte had a loop and then a test walk it twice before parsing).
 */
function scanRest(src: string, from: number): { end: number; alphanumeric: boolean } {
  NOT_ALPHANUMERIC.lastIndex = from;
  const stop = NOT_ALPHANUMERIC.exec(src)?.index ?? src.length;
  if (stop === src.length || endsRun(src.charCodeAt(stop))) return { end: stop, alphanumeric: true };
  return { end: runEnd(src, stop), alphanumeric: false };
}

/**
 * Whether linkify could make a link of the word holding the run that starts at `start`: a `:` or `@` in it,
 * from the whitespace before it to the end of the run's shown part (`/` ends a run, not a word).
 */
function linkable(src: string, start: number): boolean {
  let wordStart = start;
  while (wordStart > 0 && start - wordStart < 4096 && !/\s/.test(src[wordStart - 1])) wordStart--;
  return /[:@]/.test(src.slice(wordStart, start + LONG_RUN));
}

/**
 * Cuts `text` at `at`, puts a fold button standing for `rest` there, and drops `text[at, skipTo)` (the run's
 * rest, or a mark); returns the text node after the button, if any text follows.
 */
function foldAt(text: Text, at: number, skipTo: number, rest: string): Text | undefined {
  const after = skipTo < text.data.length ? text.splitText(skipTo) : undefined;
  text.data = text.data.slice(0, at);
  text.after(foldButton(rest));
  return after;
}

/** Turns each mark of `foldSourceRuns` in `text` into the fold of the rest it names in `tails`. */
function foldMarks(start: Text, tails: readonly string[]): void {
  let text: Text | undefined = start;
  for (let at = text.data.indexOf(FOLD_MARK); text && at >= 0; at = text?.data.indexOf(FOLD_MARK) ?? -1)
    text = foldAt(text, at, at + 2, tails[text.data.charCodeAt(at + 1) - FOLD_INDEX_BASE] ?? '');
}

/** Folds each over-long run in `text` after its first LONG_RUN characters. */
function foldRuns(start: Text): void {
  let text: Text | undefined = start;
  for (let run = longRunStart(text.data); text && run >= 0; run = text ? longRunStart(text.data) : -1) {
    const end = runEnd(text.data, run + LONG_RUN);
    text = foldAt(text, run + LONG_RUN, end, text.data.slice(run + LONG_RUN, end));
  }
}

/**
 * Folds every over-long run in the text nodes below `root`: its first LONG_RUN characters stay, the rest of
 * the run goes into a "Show all" button after them, and any text after the run stays shown after the button.
 * Marks left by `foldSourceRuns` (with the same `env`) become the same buttons.
 */
export function foldLongRuns(root: Node, env: FoldEnv = {}): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const long: Text[] = [];
  const marked: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const data = (node as Text).data;
    if (env.longRunTails && data.includes(FOLD_MARK)) marked.push(node as Text);
    else if (data.length > LONG_RUN) long.push(node as Text);
  }
  for (const text of marked) foldMarks(text, env.longRunTails ?? []);
  for (const text of long) foldRuns(text);
}

/** The fold button `node` is, or undefined. */
export function asFold(node: Node | null): Element | undefined {
  return node instanceof Element && foldedText.has(node) ? node : undefined;
}

/** The text the fold button `fold` stands for. */
export function foldRest(fold: Element): string {
  return foldedText.get(fold) ?? '';
}

/** Adds streamed `text` (no run-ending character in it) to the run the fold button `fold` stands for the rest of. */
export function appendToFold(fold: Element, text: string): void {
  const rest = foldRest(fold) + text;
  foldedText.set(fold, rest);
  fold.textContent = foldLabel(rest);
}

function foldLabel(rest: string): string {
  return l10n.t('… {0} more characters · Show all', rest.length.toLocaleString('en-US'));
}

/** Shows the text a fold button stands for in its place; false when `target` is not inside a fold button. */
export function unfoldAt(target: EventTarget | null): boolean {
  const button = target instanceof Element ? target.closest('.long-run-fold') : null;
  const rest = button ? foldedText.get(button) : undefined;
  if (!button || rest === undefined) return false;
  button.replaceWith(document.createTextNode(rest));
  return true;
}

/** The text of `root` as if nothing were folded (its `textContent` with each fold's text in place of it). */
export function fullText(root: Node): string {
  if (root instanceof Element && !root.querySelector('.long-run-fold')) return root.textContent ?? '';
  let text = '';
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) =>
      node instanceof Element && node.classList.contains('long-run-fold')
        ? NodeFilter.FILTER_ACCEPT
        : node.nodeType === Node.TEXT_NODE && !node.parentElement?.closest('.long-run-fold')
          ? NodeFilter.FILTER_ACCEPT
          : NodeFilter.FILTER_SKIP,
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    text += node instanceof Element ? (foldedText.get(node) ?? '') : (node as Text).data;
  }
  return text;
}
