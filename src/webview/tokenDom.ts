/**
 * Builds the DOM of parsed Markdown directly from markdown-it's tokens, for the blocks prose and code are
 * made of: paragraphs, headings, lists, quotes, rules, tables and code blocks, holding plain text,
 * emphasis, strikethrough, code spans and line breaks. While an answer streams, its open block is rendered
 * again on every frame, and settled blocks are rendered once; going through HTML would serialise them,
 * then have DOMPurify parse them in a new document and walk every node (a highlighted code block has one
 * per token).
 *
 * It is safe by construction, with no sanitiser needed: it creates only the elements named below, sets
 * only a list's numeric `start` and a table cell's alignment class, puts all text in text nodes, and
 * builds code blocks with highlightDom.ts (spans with allowed classes only). Nothing is ever parsed as
 * HTML. Tokens it does not know (links, images, anything new) make it return undefined, and the caller
 * takes the HTML path through DOMPurify. Code blocks get their toolbars afterwards, as on that path.
 *
 * The result is node for node what that HTML path gives for the same tokens, including the newlines
 * markdown-it puts between block tags (the rules of its `Renderer.renderToken`), so the two can be mixed
 * within one answer; test/webview/tokenDom.test.ts compares them.
 */
import type MarkdownIt from 'markdown-it';
import { languageOf } from './highlight';
import { codeBlockDom } from './highlightDom';

type Token = MarkdownIt.Token;

const BLOCK_TAGS: Record<string, string> = {
  paragraph_open: 'p',
  paragraph_close: 'p',
  heading_open: 'h',
  heading_close: 'h',
  bullet_list_open: 'ul',
  bullet_list_close: 'ul',
  ordered_list_open: 'ol',
  ordered_list_close: 'ol',
  list_item_open: 'li',
  list_item_close: 'li',
  blockquote_open: 'blockquote',
  blockquote_close: 'blockquote',
  hr: 'hr',
  table_open: 'table',
  table_close: 'table',
  thead_open: 'thead',
  thead_close: 'thead',
  tbody_open: 'tbody',
  tbody_close: 'tbody',
  tr_open: 'tr',
  tr_close: 'tr',
  th_open: 'th',
  th_close: 'th',
  td_open: 'td',
  td_close: 'td',
};
const INLINE_TAGS: Record<string, string> = {
  strong_open: 'strong',
  strong_close: 'strong',
  em_open: 'em',
  em_close: 'em',
  s_open: 's',
  s_close: 's',
};
const HEADING = /^h[1-6]$/;
const ALIGN_CLASS = /^align-(?:left|right|center)$/;

/** The fragment for `tokens`, or undefined when any token needs the sanitised HTML path. */
export function tokensToDom(tokens: Token[]): DocumentFragment | undefined {
  if (!tokens.every(isBuildableBlock)) return undefined;
  const root = document.createDocumentFragment();
  const parents: ParentNode[] = [];
  let parent: ParentNode = root;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === 'inline') {
      appendInline(parent, token.children ?? []);
      continue;
    }
    if (token.type === 'fence' || token.type === 'code_block') {
      const pre = codeBlockDom(token.content, token.type === 'fence' ? languageOf(token.info) : '');
      if (!pre) return undefined;
      parent.append(pre);
      appendText(parent, '\n');
      continue;
    }
    if (token.hidden) continue; // a tight list's paragraph: its text goes straight into the item
    if (token.nesting !== -1 && i > 0 && tokens[i - 1].hidden) appendText(parent, '\n');
    if (token.nesting === -1) {
      parent = parents.pop() ?? root;
    } else {
      const element = createBlock(token);
      parent.append(element);
      if (token.nesting === 1) {
        parents.push(parent);
        parent = element;
      }
    }
    if (newlineAfter(tokens, i)) appendText(parent, '\n');
  }
  return root;
}

function isBuildableBlock(token: Token): boolean {
  if (token.type === 'fence' || token.type === 'code_block') return true;
  if (token.type === 'inline') return (token.children ?? []).every(isBuildableInline);
  const tag = BLOCK_TAGS[token.type];
  if (!tag || !token.block || !(tag === 'h' ? HEADING.test(token.tag) : token.tag === tag)) return false;
  if (!token.attrs) return true;
  const [name, value] = token.attrs.length === 1 ? token.attrs[0] : [];
  if (token.type === 'ordered_list_open') return name === 'start' && /^\d+$/.test(String(value));
  if (tag === 'th' || tag === 'td') return name === 'class' && ALIGN_CLASS.test(String(value));
  return false;
}

function isBuildableInline(token: Token): boolean {
  if (token.attrs) return false;
  const tag = INLINE_TAGS[token.type];
  if (tag) return token.tag === tag;
  return ['text', 'softbreak', 'hardbreak', 'code_inline'].includes(token.type);
}

function createBlock(token: Token): HTMLElement {
  const element = document.createElement(token.tag);
  for (const [name, value] of token.attrs ?? []) element.setAttribute(name, String(value));
  return element;
}

/** markdown-it ends a block tag with a newline unless it opens an inline, a hidden tag or its own close. */
function newlineAfter(tokens: Token[], i: number): boolean {
  const token = tokens[i];
  if (token.nesting !== 1 || i + 1 >= tokens.length) return true;
  const next = tokens[i + 1];
  if (next.type === 'inline' || next.hidden) return false;
  return !(next.nesting === -1 && next.tag === token.tag);
}

function appendInline(block: ParentNode, children: Token[]): void {
  const parents: ParentNode[] = [];
  let parent = block;
  for (const token of children) {
    if (token.type === 'text') appendText(parent, token.content);
    else if (token.type === 'softbreak') appendText(parent, '\n');
    else if (token.type === 'hardbreak') {
      parent.append(document.createElement('br'));
      appendText(parent, '\n');
    } else if (token.type === 'code_inline') {
      const code = document.createElement('code');
      code.textContent = token.content;
      parent.append(code);
    } else if (token.nesting === 1) {
      const element = document.createElement(token.tag);
      parent.append(element);
      parents.push(parent);
      parent = element;
    } else {
      parent = parents.pop() ?? block;
    }
  }
}

/**
 * Adds text as the HTML parser would: joined to a text node just before it, and none at all when empty.
 * The fragment's own top-level whitespace is left out, as htmlToFragment drops it.
 */
function appendText(parent: ParentNode, text: string): void {
  if (!text || (parent instanceof DocumentFragment && !text.trim())) return;
  const last = parent.lastChild;
  if (last instanceof Text) last.appendData(text);
  else parent.append(text);
}
