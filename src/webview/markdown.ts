/**
 * Markdown → safe DOM: markdown-it (no raw HTML), then DOMPurify with a strict allow-list, or for prose
 * and code a DOM built from the tokens with no HTML at all (tokenDom.ts).
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { appendGrouped } from './blockGroups';
import { enhanceCodeBlocks } from './codeBlock';
import { escapeHtml, highlightCode, languageOf } from './highlight';
import { highlightedToDom } from './highlightDom';
import { type FoldEnv, foldLongRuns, foldSourceRuns } from './longRuns';
import { allowedClasses } from './safeClasses';
import { tokensToDom } from './tokenDom';

type Token = MarkdownIt.Token;

/** Only these links become anchors; everything else stays visible as the text the model wrote. */
const ALLOWED_LINK = /^(?:https?:\/\/|mailto:)/i;

/** True when a URL may be rendered as a clickable link. */
export function isAllowedLink(url: string): boolean {
  return ALLOWED_LINK.test(url);
}

/** The shared markdown-it instance; exported so the stream renderer can parse with the same rules. */
export const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

// markdown-it calls this for links, autolinks, linkify matches and images. When it answers false the
// construct is not recognised at all, so `[x](javascript:…)` is shown literally instead of as a dead link.
md.validateLink = isAllowedLink;
// Fuzzy links would turn `README.md` or `index.js` into http:// links (ccTLDs); only explicit URLs link.
md.linkify.set({ fuzzyLink: false });

// Over-long runs are folded (longRuns.ts); taking their rest out of the source first spares parsing it, and
// doing it before `normalize` spares that rule's two passes over it too (a folded rest holds no `\r` or NUL,
// the only characters `normalize` changes).
md.core.ruler.before('normalize', 'fold_long_runs', (state) => {
  state.src = foldSourceRuns(state.src, state.env as FoldEnv);
});

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx];
  const language = languageOf(token.info);
  return codeHtml(token.content, language);
};
md.renderer.rules.code_block = (tokens, idx) => codeHtml(tokens[idx].content, '');

function codeHtml(code: string, language: string): string {
  const cls = language ? `hljs language-${language}` : 'hljs';
  return `<pre><code class="${escapeHtml(cls)}">${highlightCode(code, language)}</code></pre>\n`;
}

// Images are never loaded (no request may leave the webview); they become a link to the image instead.
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const label = escapeHtml(`[image: ${self.renderInlineAsText(token.children ?? [], options, env)}]`);
  const src = token.attrGet('src') ?? '';
  if (!isAllowedLink(src) || insideLink(tokens, idx)) return label;
  return `<a href="${escapeHtml(src)}" class="image-link">${label}</a>`;
};

/** Whether the inline token at idx sits between a link_open and its link_close (anchors can't nest). */
function insideLink(tokens: Token[], idx: number): boolean {
  let depth = 0;
  for (let i = 0; i < idx; i++) {
    if (tokens[i].type === 'link_open') depth++;
    else if (tokens[i].type === 'link_close') depth--;
  }
  return depth > 0;
}

// markdown-it skips validateLink when the destination is empty (`[x]()` became `<a href="">`): such a
// link stays the text the model wrote, like every other refused link.
md.core.ruler.push('unlink_refused', (state) => {
  for (const block of state.tokens) {
    let refused = false;
    for (const token of block.children ?? []) {
      if (token.type === 'link_open' && !isAllowedLink(token.attrGet('href') ?? '')) {
        refused = true;
        toText(token, '[');
      } else if (token.type === 'link_close' && refused) {
        refused = false;
        toText(token, ']()');
      }
    }
  }
});

function toText(token: Token, content: string): void {
  token.type = 'text';
  token.tag = '';
  token.nesting = 0;
  token.attrs = null;
  token.content = content;
}

// Table alignment arrives as a style attribute, which the CSP and the sanitiser both refuse: use classes.
md.core.ruler.push('align_classes', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const align = /text-align:(left|right|center)/.exec(token.attrGet('style') ?? '')?.[1];
    token.attrs = align ? [['class', `align-${align}`]] : null;
  }
});

const PURIFY_CONFIG = {
  ALLOWED_TAGS: [
    'a',
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'em',
    's',
    'del',
    'code',
    'pre',
    'span',
    'blockquote',
    'ul',
    'ol',
    'li',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  ALLOWED_ATTR: ['href', 'class', 'start', 'title'],
  FORBID_TAGS: [
    'style',
    'form',
    'iframe',
    'svg',
    'math',
    'img',
    'object',
    'embed',
    'meta',
    'base',
    'link',
    'script',
  ],
  FORBID_ATTR: ['style'],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  // DOMPurify checks every attribute that is not "URI safe" against ALLOWED_URI_REGEXP, which a list's
  // number never matches: without this, `7. seven` rendered as a list starting at 1.
  ADD_URI_SAFE_ATTR: ['start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  RETURN_DOM_FRAGMENT: true as const,
};

DOMPurify.addHook('uponSanitizeAttribute', (_node, data) => {
  if (data.attrName !== 'class') return;
  const kept = allowedClasses(data.attrValue);
  if (kept === undefined) data.keepAttr = false;
  else data.attrValue = kept;
});

/** Sanitises HTML produced by markdown-it or highlight.js into a detached fragment (never live innerHTML). */
export function sanitizeToFragment(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, PURIFY_CONFIG);
}

/** DOM for highlight.js's HTML: built directly (highlightDom.ts), or sanitised should it hold anything else. */
export function highlightedFragment(html: string): DocumentFragment {
  return highlightedToDom(html) ?? sanitizeToFragment(html);
}

/** Sanitised, enhanced (code toolbars) DOM for a piece of markdown-it output (`env`: its parse's). */
export function htmlToFragment(html: string, env: FoldEnv = {}): DocumentFragment {
  const fragment = sanitizeToFragment(html);
  // markdown-it separates blocks with newlines; dropping them makes piecewise and whole renders identical.
  for (const node of Array.from(fragment.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE && !node.textContent?.trim()) node.remove();
  }
  enhanceCodeBlocks(fragment);
  foldLongRuns(fragment, env);
  return fragment;
}

/**
 * Renders already parsed block tokens to a safe fragment: built directly when they are prose and code
 * (tokenDom.ts, the same DOM without HTML in between), otherwise through HTML and DOMPurify.
 */
export function renderTokens(tokens: Token[], env: object): DocumentFragment {
  const built = tokensToDom(tokens);
  if (!built) return htmlToFragment(md.renderer.render(tokens, md.options, env), env);
  enhanceCodeBlocks(built);
  foldLongRuns(built, env);
  return built;
}

/** Renders a complete Markdown text to a safe fragment. */
export function renderMarkdown(text: string): DocumentFragment {
  const env = {};
  return renderTokens(md.parse(text, env), env);
}

/** Renders a complete markdown text into container, replacing its content (used for settled turns). */
export function renderMarkdownOnce(container: HTMLElement, text: string): void {
  container.replaceChildren();
  appendGrouped(container, renderMarkdown(text).childNodes, null);
}
