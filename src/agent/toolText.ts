/**
 * The text the read-only tools return to the model: pages of a file, capped lists with their count, and the reasons
 * for a refusal, worded so that the model knows what to do next. Pure, so the wording is tested in plain Node and
 * the host tools stay thin.
 */
import { estimateTokens } from '../chat/tokens';

/** Most lines `read_file` returns at once. */
export const PAGE_LINES = 400;
/** Most estimated tokens `read_file` returns at once (a page of long lines ends sooner). */
export const PAGE_TOKENS = 8000;
/** A single line longer than this many characters is cut in listings (minified code, data). */
export const MAX_LINE_CHARS = 300;

/** `1234` as `1,234`, the way the model and the user read counts. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** What `pageOfText` returns: the page and where it sits in the file. */
export interface Page {
  text: string;
  /** 1-based, inclusive; endLine < startLine when the page is empty. */
  startLine: number;
  endLine: number;
  /** The file's line count, when the whole file was read. */
  totalLines?: number;
  /** Where the next page starts, when there is more after this one. */
  nextStartLine?: number;
  /** Set when the first line alone was over the token limit and was cut to this many characters. */
  cutLineAt?: number;
}

/** The lines of `text` with their line breaks, `\r\n`, `\n` or `\r` (a final break starts no line). */
function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\r\n|\n|\r(?!\n))/);
}

/**
 * The page of `text` from `startLine` (default 1) to `endLine` (default: as far as the limits allow): at most
 * `PAGE_LINES` lines and about `PAGE_TOKENS` tokens. `complete` says whether `text` is the whole file (a huge file
 * is read only as far as the page needs, so its line count is unknown).
 */
export function pageOfText(
  text: string,
  options: { startLine?: number; endLine?: number; complete: boolean },
  limits = { lines: PAGE_LINES, tokens: PAGE_TOKENS },
): Page {
  const lines = splitLines(text);
  // A prefix of a huge file may end inside a line: that line is not whole, so it is not shown.
  // (A single line longer than the whole prefix is kept: the token limit cuts it anyway.)
  if (!options.complete && lines.length > 1) lines.pop();
  const start = Math.max(1, Math.floor(options.startLine ?? 1));
  const wanted = options.endLine === undefined ? Infinity : Math.floor(options.endLine);
  const last = Math.min(wanted, start + limits.lines - 1, lines.length);
  const kept: string[] = [];
  let tokens = 0;
  let end = start - 1;
  let cutLineAt: number | undefined;
  for (let n = start; n <= last; n++) {
    const line = lines[n - 1];
    const cost = estimateTokens(line);
    if (tokens + cost > limits.tokens) {
      if (kept.length === 0) {
        // One line over the whole budget (minified code): a cut of it is better than nothing.
        cutLineAt = limits.tokens * 2;
        kept.push(line.slice(0, cutLineAt));
        end = n;
      }
      break;
    }
    kept.push(line);
    tokens += cost;
    end = n;
  }
  const more = !options.complete || end < lines.length;
  return {
    text: kept.join(''),
    startLine: start,
    endLine: end,
    ...(options.complete ? { totalLines: lines.length } : {}),
    ...(more ? { nextStartLine: end + 1 } : {}),
    ...(cutLineAt !== undefined ? { cutLineAt } : {}),
  };
}

/** The first line of a `read_file` result: which lines these are, and how to read on. */
export function pageHeader(path: string, page: Page, fileSize?: number): string {
  const of =
    page.totalLines !== undefined
      ? `of ${formatCount(page.totalLines)}`
      : `of a ${formatCount(Math.round((fileSize ?? 0) / 1048576))} MB file (line count not read)`;
  if (page.endLine < page.startLine) {
    return page.totalLines !== undefined
      ? `${path}: no lines from ${formatCount(page.startLine)} (the file has ${formatCount(page.totalLines)} lines).`
      : `${path}: line ${formatCount(page.startLine)} is too far into this ${formatCount(Math.round((fileSize ?? 0) / 1048576))} MB file to be read; use search_text to find what you need.`;
  }
  let header = `${path}: lines ${page.startLine}-${page.endLine} ${of}`;
  if (page.cutLineAt !== undefined)
    header += `; line ${page.endLine} is cut after ${formatCount(page.cutLineAt)} characters`;
  if (page.nextStartLine !== undefined)
    header += `; call read_file with startLine ${page.nextStartLine} for more`;
  return `${header}.`;
}

/** One search hit. */
export interface TextMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

/** A line cut to `MAX_LINE_CHARS`, its indentation and line break dropped. */
export function clipLine(text: string): string {
  const line = text.replace(/[\r\n]+$/, '').trim();
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}

/** How many there were, when more were found than shown: "first 50 of 312" (or "of 10,000+" when counting stopped). */
export function countNote(shown: number, total: number, totalIsLowerBound = false): string {
  const of = `${formatCount(total)}${totalIsLowerBound ? '+' : ''}`;
  return shown < total || totalIsLowerBound
    ? `first ${formatCount(shown)} of ${of}`
    : `${formatCount(total)}`;
}

/** A `search_text` result: a count line, then `path:line: text` per hit. */
export function formatTextMatches(
  query: string,
  matches: readonly TextMatch[],
  total: number,
  totalIsLowerBound = false,
  note = '',
): string {
  if (total === 0) return `No matches for ${JSON.stringify(query)}.${note ? ` ${note}` : ''}`;
  const head = `Matches for ${JSON.stringify(query)}: ${countNote(matches.length, total, totalIsLowerBound)}.`;
  const more =
    matches.length < total || totalIsLowerBound ? ' Narrow the query or pass a glob to see the rest.' : '';
  const body = matches.map((m) => `${m.path}:${m.line}: ${clipLine(m.text)}`).join('\n');
  return `${head}${more}${note ? ` ${note}` : ''}\n${body}`;
}

/** A `search_text` regular expression that the engine rejected, with the engine's words. */
export function invalidRegexText(detail: string): string {
  return `The regular expression is invalid: ${detail}\nFix it, or pass isRegex false to search for the text as it is.`;
}

/** A capped list of paths (`find_files`, `list_dir`) with its count line. */
export function formatPathList(
  title: string,
  paths: readonly string[],
  total: number,
  empty: string,
): string {
  if (total === 0) return empty;
  const more = paths.length < total ? ' Narrow the pattern to see the rest.' : '';
  return `${title}: ${countNote(paths.length, total)}.${more}\n${paths.join('\n')}`;
}

/** Why a tool did not read a path. */
export type Refusal =
  | { kind: 'unsafePath' }
  | { kind: 'outside' }
  | { kind: 'linkOut'; target: string }
  | { kind: 'notFound' }
  | { kind: 'excluded'; pattern: string }
  | { kind: 'binary' }
  | { kind: 'secret' }
  | { kind: 'isFolder' }
  | { kind: 'notFolder' }
  | { kind: 'unreadable'; detail: string };

/** A refusal in words the model can act on: what is wrong, and what to do instead. */
export function refusalText(path: string, refusal: Refusal): string {
  const p = JSON.stringify(path);
  switch (refusal.kind) {
    case 'unsafePath':
      return `Refused ${p}: paths must be relative to the workspace root, without '..' or a leading '/'.`;
    case 'outside':
      return `Refused ${p}: it is outside the workspace; only files inside the workspace folders can be read.`;
    case 'linkOut':
      return `Refused ${p}: it is a symbolic link that leads outside the workspace; it is not read.`;
    case 'notFound':
      return `${p} does not exist. Use list_dir or find_files to find the right path.`;
    case 'excluded':
      return `Refused ${p}: it matches the secrets pattern "${refusal.pattern}" (modelGateway.context.exclude); it is never read. Do not try other ways to read it.`;
    case 'binary':
      return `Refused ${p}: it is a binary file; only text files can be read.`;
    case 'secret':
      return `Refused ${p}: it contains the user's Model Gateway API key; it is never read.`;
    case 'isFolder':
      return `${p} is a folder, not a file. Use list_dir to see what it holds.`;
    case 'notFolder':
      return `${p} is a file, not a folder. Use read_file to read it.`;
    case 'unreadable':
      return `${p} could not be read: ${refusal.detail}`;
  }
}
