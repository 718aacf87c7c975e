/**
 * The fast path of streaming prose: when the open block is a paragraph that ends in plain text, most
 * chunks only add more plain text to it. Appending such text cannot change how anything before it
 * renders, so the paragraph's last text node is extended in place: no parse, no sanitising, no new DOM.
 * Any chunk that could change the rendering (a newline, a Markdown delimiter, a link, entity or escape
 * character) falls back to the full render of the open tail, which re-parses its whole source.
 *
 * Why each condition holds (markdown-it with html off, linkify without fuzzy links, no typographer):
 *  - the paragraph's last line starts with a letter: no appended text can turn it into a list item,
 *    heading, fence, table or quote, nor join it to the block before;
 *  - the chunk has none of the characters inline rules start or end on (`*_~\`[]()<>&!|:@;\\`) nor a
 *    newline: it cannot close an emphasis, code span, link or entity left open before it, nor form one;
 *  - the text before it does not end in such a character either (`**x**` + `y` is still bold, but
 *    `__x__` + `y` is not), and holds no URL or address that linkify could extend;
 *  - trailing whitespace is trimmed from a paragraph, so the text node gets the trimmed growth.
 */
import type MarkdownIt from 'markdown-it';
import { appendToFold, asFold, endsARun, foldRest, LONG_RUN, trailingRunLength } from './longRuns';

type Token = MarkdownIt.Token;

/** Characters a chunk must not contain to be appended as plain text. */
const UNSAFE_IN_CHUNK = /[\n\r\0\\`*_~[\]()<>&!|:@;]/;
/** Characters the text before must not end with (after trailing whitespace). */
const UNSAFE_LAST = /[\\`*_~[\]()<>&!|:@;]$/;
/** Text linkify could turn into a link when more characters arrive. */
const LINK_START = /:\/\/|www\.|@/i;
/** The last line of the open paragraph starts (after up to three spaces) with a letter. */
const LETTER_LINE = /(?:^|\n) {0,3}\p{L}[^\n]*$/u;

/** The open paragraph's last text node, and how much of the open source it reflects. */
export interface OpenParagraphText {
  node: Text;
  /** Length of the open source when it was last rendered or appended. */
  sourceLength: number;
  /** Length of that source without trailing whitespace (what the text node shows the end of). */
  shownLength: number;
  /** The fold that ends the paragraph when its last run is over-long (longRuns.ts): text goes into it. */
  fold?: Element;
}

/**
 * After a full render of the open source `pending` into `tail` (from `tokens`), the text node that later
 * plain text may be appended to, or undefined when the fast path must not be used.
 */
export function openParagraphText(
  tokens: Token[],
  tail: HTMLElement,
  pending: string,
): OpenParagraphText | undefined {
  const n = tokens.length;
  if (n < 3 || tokens[n - 1].type !== 'paragraph_close' || tokens[n - 1].level !== 0) return undefined;
  const inline = tokens[n - 2];
  const last = inline.type === 'inline' ? inline.children?.at(-1) : undefined;
  if (last?.type !== 'text' || !last.content) return undefined;
  const shown = pending.trimEnd();
  if (!LETTER_LINE.test(pending) || UNSAFE_LAST.test(shown) || LINK_START.test(pending)) return undefined;
  const paragraph = tail.lastChild;
  if (!(paragraph instanceof HTMLParagraphElement)) return undefined;
  const end = paragraph.lastChild;
  // A paragraph ending in a folded run (longRuns.ts) grows inside the fold while the run goes on.
  const fold = asFold(end);
  if (fold) {
    const node = fold.previousSibling;
    if (!(node instanceof Text) || !last.content.endsWith(node.data + foldRest(fold))) return undefined;
    return { node, sourceLength: pending.length, shownLength: shown.length, fold };
  }
  if (!(end instanceof Text)) return undefined;
  // Text after a folded run is the end of the token's text; otherwise the node holds all of it.
  const afterFold = asFold(end.previousSibling) !== undefined;
  if (afterFold ? !last.content.endsWith(end.data) : end.data !== last.content) return undefined;
  return { node: end, sourceLength: pending.length, shownLength: shown.length };
}

/**
 * Appends what `pending` gained since `open` was taken, when it is plain text; false (nothing changed)
 * when the open tail must be rendered in full instead.
 */
export function appendToParagraph(open: OpenParagraphText, pending: string): boolean {
  const added = pending.slice(open.sourceLength);
  if (UNSAFE_IN_CHUNK.test(added) || LINK_START.test(pending.slice(-added.length - 4))) return false;
  const shown = pending.trimEnd();
  const growth = shown.slice(open.shownLength);
  // A folded run grows inside its fold until it ends; a run growing past the fold length is folded by the
  // full render, as is text after a folded run.
  if (open.fold) {
    if (endsARun(growth)) return false;
    appendToFold(open.fold, growth);
  } else if (trailingRunLength(shown) > LONG_RUN) return false;
  else if (growth) open.node.appendData(growth);
  open.sourceLength = pending.length;
  open.shownLength = shown.length;
  return true;
}
