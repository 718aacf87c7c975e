/** Code blocks: a toolbar (copy, insert, replace, new file, apply) around highlighted code; actions read the code at click time. */
import * as l10n from '@vscode/l10n';
import type { CodeQuote } from '../chat/types';
import type { CodeBlockAction, WebviewToHost } from '../protocol';
import { h, iconButton } from './dom';
import { highlightCode, languageOf } from './highlight';
import { fullText } from './longRuns';

type ToolbarAction = CodeBlockAction | 'copy';

/**
 * The toolbar's buttons: action, codicon, name (accessible name and tooltip) and the shorter visible label
 * shown when the block is wide enough (chat.css). Each label is a part of its name, so a voice command that
 * says what it sees still matches.
 */
const toolbarActions = (): ReadonlyArray<readonly [ToolbarAction, string, string, string]> => [
  ['copy', 'copy', l10n.t('Copy'), l10n.t('Copy')],
  ['insert', 'insert', l10n.t('Insert at cursor'), l10n.t('Insert')],
  ['replace', 'replace', l10n.t('Replace selection'), l10n.t('Replace')],
  ['newFile', 'new-file', l10n.t('Open as new file'), l10n.t('New file')],
  // The tooltip names the target file once known (applyTarget.ts); the accessible name stays "Apply".
  ['apply', 'git-pull-request-go-to-changes', l10n.t('Apply'), l10n.t('Apply')],
];

/** Wraps a `<pre><code>` in a code block with a header (language or title) and action buttons. */
export function wrapCodeBlock(
  pre: HTMLPreElement,
  language: string,
  title?: string,
  copyOnly = false,
): HTMLElement {
  const actions = h('div', { class: 'code-actions' });
  const all = toolbarActions();
  for (const [action, iconName, label, shortLabel] of copyOnly ? all.slice(0, 1) : all) {
    const button = iconButton(iconName, label);
    button.classList.add('code-action');
    // Drawn by CSS from the attribute, not a text node: the answer's text (a selection, a copy, a test reading
    // it) stays free of "CopyInsertReplace…", and the button's name already says it at more length.
    button.dataset.label = shortLabel;
    button.dataset.codeAction = action;
    actions.append(button);
  }
  const block = h(
    'div',
    { class: 'code-block' },
    h(
      'div',
      { class: 'code-toolbar' },
      // l10n-exempt: 'text' stands where a language id would, like `ts` or `python`
      h('span', { class: 'code-title' }, title ?? (language || 'text')),
      actions,
    ),
  );
  block.dataset.language = language;
  block.append(pre);
  return block;
}

/** Leaves only Copy on the code blocks of a user's own message: inserting what they typed makes no sense. */
export function keepCopyOnly(root: HTMLElement): void {
  for (const button of Array.from(root.querySelectorAll<HTMLElement>('[data-code-action]'))) {
    if (button.dataset.codeAction !== 'copy') button.remove();
  }
}

/** Gives every bare `<pre>` of a rendered fragment its toolbar. */
export function enhanceCodeBlocks(root: DocumentFragment | HTMLElement): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const code = pre.querySelector('code');
    const languageClass = Array.from(code?.classList ?? []).find((name) => name.startsWith('language-'));
    const placeholder = document.createComment('');
    pre.replaceWith(placeholder);
    placeholder.replaceWith(wrapCodeBlock(pre, languageClass ? languageClass.slice('language-'.length) : ''));
  }
}

/** A highlighted `<pre><code>` built from plain text (for quotes; no markdown involved). */
export function codeElement(
  code: string,
  language: string,
  html: (markup: string) => DocumentFragment,
): HTMLPreElement {
  const codeEl = h('code', { class: language ? `hljs language-${language}` : 'hljs' });
  codeEl.append(html(highlightCode(code, language)));
  return h('pre', {}, codeEl);
}

/** The quoted selection of a user turn, titled with its file and line. */
export function quoteBlock(quote: CodeQuote, html: (markup: string) => DocumentFragment): HTMLElement {
  const language = languageOf(quote.language);
  const name = quote.fileName.split(/[\\/]/).pop() || quote.fileName;
  const block = wrapCodeBlock(
    codeElement(quote.code, language, html),
    language,
    `${name}:${quote.startLine}`,
    true,
  );
  block.classList.add('code-quote');
  return block;
}

/** The raw code of a block. */
export function blockCode(block: HTMLElement): string {
  // The text of the highlighted code is the raw code (with any folded long run in place); markdown-it ends
  // fences with a newline nobody wants.
  const pre = block.querySelector('pre');
  return (pre ? fullText(pre) : '').replace(/\n$/, '');
}

/**
 * The message a code-block toolbar button stands for, or undefined when the click was elsewhere. Apply
 * carries the file the block names (`targetOf`) and the turn it belongs to.
 */
export function codeBlockMessage(
  target: EventTarget | null,
  targetOf: (block: HTMLElement) => string | undefined = () => undefined,
): WebviewToHost | undefined {
  if (!(target instanceof Element)) return undefined;
  const button = target.closest<HTMLElement>('[data-code-action]');
  const block = button?.closest<HTMLElement>('.code-block');
  if (!button || !block) return undefined;
  const code = blockCode(block);
  const action = button.dataset.codeAction as ToolbarAction;
  const language = block.dataset.language ?? '';
  if (action === 'copy') return { type: 'copy', text: code };
  if (action !== 'apply') return { type: 'codeAction', action, code, language };
  const turnId = block.closest<HTMLElement>('[data-turn-id]')?.dataset.turnId;
  const file = targetOf(block);
  return {
    type: 'codeAction',
    action,
    code,
    language,
    ...(file ? { target: file } : {}),
    ...(turnId ? { turnId } : {}),
  };
}
