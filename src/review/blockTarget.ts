/**
 * The file a chat code block names, for Apply: after the language in the fence's info string, or in the
 * block's first comment line. No dependencies, so the webview can use it as well as the host.
 */

/** Characters of a file name as a block states it; no spaces, no URL. */
const PATH_CHARS = /^[\w@$~+.\-/\\]+$/;
/** `file=src/a.ts`, `title="src/a.ts"`, `path:src/a.ts` in an info string. */
const INFO_KEY = /^(?:file(?:name)?|path|title)[=:]/i;
/** A whole-line comment in the usual syntaxes, holding the rest of the line. */
const COMMENT_LINE = /^\s*(?:\/\/+|#(?!!)|--|;+|\/\*+|<!--|%|')\s*(.*?)\s*(?:\*+\/|-->)?\s*$/;
const FILE_LABEL = /^(?:file(?:name)?|path)\s*:\s*/i;

/** A path (`src/a.ts`, `a.ts`, `.env`, `docs/README`), not a sentence, a URL or a version number. */
function isPathLike(value: string): boolean {
  if (!PATH_CHARS.test(value) || /^\.*$/.test(value) || /[./\\]$/.test(value)) return false;
  const name = value.split(/[/\\]/).pop() ?? '';
  return /[/\\]/.test(value) ? name !== '' : /\.[A-Za-z][\w-]*$/.test(name);
}

/** The name the fence's info string gives after the language (```ts src/a.ts), if any. */
export function targetFromInfo(info: string): string | undefined {
  const words = info.trim().split(/\s+/).slice(1);
  for (const word of words) {
    const value = word.replace(INFO_KEY, '').replace(/^["'`]|["'`]$/g, '');
    if (isPathLike(value)) return value;
  }
  // `ts:src/a.ts` or a lone `src/a.ts` as the whole info string.
  const first = info.trim().split(/\s+/)[0] ?? '';
  const tail = first.includes(':') ? first.slice(first.indexOf(':') + 1) : first;
  return tail.includes('/') && isPathLike(tail) ? tail : undefined;
}

/** The name the block's first line states as a comment (`// src/a.ts`, `# File: app.py`), if any. */
export function targetFromComment(code: string): string | undefined {
  const first = code.split('\n').find((line) => line.trim() !== '');
  const comment = first ? COMMENT_LINE.exec(first.replace(/\r$/, '')) : null;
  if (!comment) return undefined;
  const value = comment[1].replace(FILE_LABEL, '').replace(/^["'`]|["'`]$/g, '');
  return isPathLike(value) ? value : undefined;
}

/** The file a block names: the info string first, then its first comment line. */
export function blockTarget(info: string, code: string): string | undefined {
  return targetFromInfo(info) ?? targetFromComment(code);
}
