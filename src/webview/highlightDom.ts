/**
 * Highlighted code as DOM, built without an HTML parser or a sanitiser. highlight.js writes a small,
 * fixed kind of HTML: text with its five escapes, and nested `<span class="…">`…`</span>`. Highlighted
 * code is one span per token, so sanitising it (parse into a new document, walk and clone every node)
 * was most of the cost of settling a code block while an answer streams.
 *
 * This reads exactly that kind of HTML and nothing else: any other markup, entity or character the HTML
 * parser would change (a carriage return, a NUL) makes it return undefined, and the caller sanitises
 * instead. It creates only `span` elements, with the classes the sanitiser allows, and text nodes; the
 * result is node for node what DOMPurify gives for the same HTML (test/webview/highlightDom.test.ts).
 */
import { highlightCode } from './highlight';
import { allowedClasses } from './safeClasses';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};

/** The fragment for highlight.js's HTML, or undefined when it holds anything else. */
export function highlightedToDom(html: string): DocumentFragment | undefined {
  const piece = /<span class="([^"<>&]*)">|<\/span>|&(?:amp|lt|gt|quot|#x27|#39);|[^<&\r\0]+/y;
  const root = document.createDocumentFragment();
  const parents: ParentNode[] = [];
  let parent: ParentNode = root;
  let text = '';
  while (piece.lastIndex < html.length) {
    const match = piece.exec(html);
    if (!match) return undefined;
    const [whole, spanClass] = match;
    if (whole[0] === '&') {
      text += ENTITIES[whole];
      continue;
    }
    if (whole[0] !== '<') {
      text += whole;
      continue;
    }
    if (text) parent.append(text);
    text = '';
    if (spanClass === undefined) {
      const outer = parents.pop();
      if (!outer) return undefined;
      parent = outer;
      continue;
    }
    const span = document.createElement('span');
    const classes = allowedClasses(spanClass);
    if (classes !== undefined) span.className = classes;
    parent.append(span);
    parents.push(parent);
    parent = span;
  }
  if (text) parent.append(text);
  return parents.length === 0 ? root : undefined;
}

/** `<pre><code class="hljs language-…">` with the highlighted code, as the Markdown fence renders it. */
export function codeBlockDom(code: string, language: string): HTMLPreElement | undefined {
  const body = highlightedToDom(highlightCode(code, language));
  if (!body) return undefined;
  const codeElement = document.createElement('code');
  const classes = allowedClasses(language ? `hljs language-${language}` : 'hljs');
  if (classes !== undefined) codeElement.className = classes;
  codeElement.append(body);
  const pre = document.createElement('pre');
  pre.append(codeElement);
  return pre;
}
