// Test-only bundle: exposes the incremental renderer so Chromium tests can drive it chunk by chunk, and
// both ways of turning tokens (or highlighted code) into DOM so tests can compare them.
import { enhanceCodeBlocks } from '../../../src/webview/codeBlock';
import { highlightCode } from '../../../src/webview/highlight';
import { highlightedToDom } from '../../../src/webview/highlightDom';
import { htmlToFragment, md, sanitizeToFragment } from '../../../src/webview/markdown';
import { renderMarkdownOnce, StreamRenderer } from '../../../src/webview/streamRenderer';
import { tokensToDom } from '../../../src/webview/tokenDom';

function serialise(fragment: DocumentFragment): string {
  const box = document.createElement('div');
  box.append(fragment);
  return box.innerHTML;
}

/**
 * The HTML of `text` built from its tokens (with code toolbars, as renderTokens adds them unless
 * `bare`), or null when the builder refuses them.
 */
function builtHtml(text: string, bare = false): string | null {
  const fragment = tokensToDom(md.parse(text, {}));
  if (!fragment) return null;
  if (!bare) enhanceCodeBlocks(fragment);
  return serialise(fragment);
}

/** The HTML of `text` through markdown-it's HTML and DOMPurify (the path the builder must match). */
function sanitisedHtml(text: string): string {
  const env = {};
  return serialise(htmlToFragment(md.renderer.render(md.parse(text, env), md.options, env)));
}

/** highlight.js's HTML for `code`, and that HTML built directly (null if refused) and sanitised. */
function highlighted(
  code: string,
  language: string,
): { html: string; built: string | null; sanitised: string } {
  const html = highlightCode(code, language);
  return { html, ...markup(html) };
}

/** Any markup, built directly as if highlight.js wrote it (null if refused) and sanitised. */
function markup(html: string): { built: string | null; sanitised: string } {
  const built = highlightedToDom(html);
  return { built: built ? serialise(built) : null, sanitised: serialise(sanitizeToFragment(html)) };
}

window.__md = { StreamRenderer, renderMarkdownOnce, builtHtml, sanitisedHtml, highlighted, markup };
