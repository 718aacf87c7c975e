/** highlight.js with a modest set of languages, so the webview bundle stays small. */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
// Names models commonly put on fences that the bundled grammars don't already alias.
hljs.registerAliases(['shell', 'console', 'shellscript'], { languageName: 'bash' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['vue', 'svelte'], { languageName: 'xml' });

/** Beyond this size a grammar pass could stall the frame; such code is shown plain. */
const MAX_HIGHLIGHT_CHARS = 200_000;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for use inside HTML markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** Highlighted HTML for code (escaped plain text when the language is unknown); never auto-detects. */
export function highlightCode(code: string, language: string): string {
  if (language && code.length <= MAX_HIGHLIGHT_CHARS && hljs.getLanguage(language)) {
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      // A grammar bug must not lose the answer: fall through to plain text.
    }
  }
  return escapeHtml(code);
}

/** The language id of a fence info string: its first word, reduced to safe characters. */
export function languageOf(info: string): string {
  const word = info.trim().split(/\s+/, 1)[0] ?? '';
  return word
    .replace(/[^\w+#.-]/g, '')
    .slice(0, 32)
    .toLowerCase();
}
