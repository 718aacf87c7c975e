// Test-only bundle: exposes the incremental renderer so Chromium tests can drive it chunk by chunk, and
// both ways of turning tokens into DOM so tests can compare them.
import { htmlToFragment, md } from '../../../src/webview/markdown';
import { renderMarkdownOnce, StreamRenderer } from '../../../src/webview/streamRenderer';
import { tokensToDom } from '../../../src/webview/tokenDom';

/** The HTML of `text` built from its tokens, or null when the builder refuses them. */
function builtHtml(text: string): string | null {
  const fragment = tokensToDom(md.parse(text, {}));
  if (!fragment) return null;
  const box = document.createElement('div');
  box.append(fragment);
  return box.innerHTML;
}

/** The HTML of `text` through markdown-it's HTML and DOMPurify (the path the builder must match). */
function sanitisedHtml(text: string): string {
  const env = {};
  const box = document.createElement('div');
  box.append(htmlToFragment(md.renderer.render(md.parse(text, env), md.options, env)));
  return box.innerHTML;
}

window.__md = { StreamRenderer, renderMarkdownOnce, builtHtml, sanitisedHtml };
