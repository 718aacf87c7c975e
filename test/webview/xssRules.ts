// What the XSS suites allow: the only paths the harness page may load, and the elements Markdown may render.

/** Every path the harness page may request; anything else left the page or loaded what it should not. */
export const HARNESS_PATHS: ReadonlySet<string> = new Set([
  '/',
  '/dist/webview.js',
  '/media/chat.css',
  '/dist/codicons/codicon.css',
  '/dist/codicons/codicon.ttf',
  '/harness/stub.js',
  '/harness/theme.css',
  '/favicon.ico',
]);

/** The element names (upper case, as `tagName` gives them) the Markdown renderer may produce. */
export const MARKDOWN_TAGS: ReadonlySet<string> = new Set(
  'A P BR HR H1 H2 H3 H4 H5 H6 STRONG EM S DEL CODE PRE SPAN BLOCKQUOTE UL OL LI TABLE THEAD TBODY TR TH TD DIV BUTTON I'.split(
    ' ',
  ),
);
