import * as vscode from 'vscode';
import { containsSecret, matchExclude } from '../../chat/context/safety';
import { formatTextMatches, invalidRegexText } from '../../agent/toolText';
import type { ToolResult } from '../../agent/types';
import { readContextSettings } from '../context/contextSettings';
import { ripgrepScopeArgs } from './ignores';
import { findRipgrep, runRipgrep } from '../search/ripgrep';
import { searchWithoutRipgrep } from './searchFallback';
import { COUNTED_MATCHES, SHOWN_MATCHES, type TextQuery, type TextSearch } from './textSearch';
import type { HostTool, ToolEnv } from './types';

/**
 * `search_text(query, isRegex?, glob?)`: lines that match, as `path:line: text`, capped and counted. Runs VS Code's
 * own ripgrep (gitignore, files.exclude and the secrets patterns respected, binary files skipped); when it is
 * missing, a slower search over `workspace.findFiles` does the same within caps.
 */
export function searchTextTool(env: ToolEnv): HostTool {
  return async (input, signal) => {
    const query: TextQuery = {
      query: String(input.query),
      isRegex: input.isRegex === true,
      ...(typeof input.glob === 'string' && input.glob.trim() ? { glob: input.glob.trim() } : {}),
      apiKey: await env.apiKey(),
      exclude: readContextSettings().exclude,
    };
    if (query.query === '')
      return { content: 'The query is empty; pass the text to look for.', isError: true }; // l10n-exempt: read by the model
    const rg = findRipgrep(env);
    let found: TextSearch | { error: string };
    if (rg) {
      try {
        found = await searchWithRipgrep(rg, query, signal, env);
      } catch (error) {
        if (signal.aborted) throw error;
        env.log?.warn(`search_text: ripgrep could not run (${String(error)}); searching without it`);
        found = await searchWithoutRipgrep(query, signal);
      }
    } else {
      env.log?.info('search_text: no ripgrep under the app root; searching without it');
      found = await searchWithoutRipgrep(query, signal);
    }
    return searchResult(query, found);
  };
}

function searchResult(query: TextQuery, found: TextSearch | { error: string }): ToolResult {
  if ('error' in found) return { content: found.error, isError: true };
  const note = found.withheld
    ? `${found.withheld} matching line(s) held the user's API key and were left out.`
    : '';
  return {
    content: formatTextMatches(query.query, found.matches, found.total, found.capped, note),
    summary: found.capped
      ? vscode.l10n.t('Searched `{0}`: {1}+ results', query.query, found.total)
      : vscode.l10n.t('Searched `{0}`: {1} results', query.query, found.total),
  };
}

/** The ripgrep arguments of a search in `folder` (also what the bench runs directly). */
export function ripgrepSearchArgs(folder: vscode.WorkspaceFolder, query: TextQuery): string[] {
  return [
    '--json',
    '--smart-case',
    '--max-columns',
    '1000',
    '--max-columns-preview',
    '--max-filesize',
    '50M',
    ...(query.isRegex ? [] : ['--fixed-strings']),
    ...ripgrepScopeArgs(folder, { secrets: true }),
    ...(query.glob ? ['--glob', query.glob] : []),
    '--regexp',
    query.query,
    '.',
  ];
}

interface RgMatch {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string }; line_number?: number };
}

async function searchWithRipgrep(
  rg: string,
  query: TextQuery,
  signal: AbortSignal,
  env: ToolEnv,
): Promise<TextSearch | { error: string }> {
  const result: TextSearch = { matches: [], total: 0, capped: false, withheld: 0 };
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const prefix = folders.length > 1 ? `${folder.name}/` : '';
    const exit = await runRipgrep(
      rg,
      ripgrepSearchArgs(folder, query),
      folder.uri.fsPath,
      signal,
      (line) => {
        if (!line.startsWith('{"type":"match"')) return;
        const event = JSON.parse(line) as RgMatch;
        const path = event.data?.path?.text?.replace(/^\.\//, '');
        const text = event.data?.lines?.text ?? '';
        if (path === undefined || matchExclude(path, query.exclude) !== undefined) return;
        if (containsSecret(text, query.apiKey)) {
          result.withheld++;
          return;
        }
        result.total++;
        if (result.matches.length < SHOWN_MATCHES)
          result.matches.push({ path: prefix + path, line: event.data?.line_number ?? 0, text });
        if (result.total >= COUNTED_MATCHES) {
          result.capped = true;
          return false;
        }
        return true;
      },
      env,
    );
    signal.throwIfAborted();
    // 2 is also ripgrep's answer when some file could not be read; only an error with no hits at all is one.
    if (exit.code === 2 && result.total === 0 && /regex|parse error/i.test(exit.stderr))
      return { error: invalidRegexText(exit.stderr.trim().split('\n').slice(0, 6).join('\n')) };
    if (result.capped) break;
  }
  return result;
}
