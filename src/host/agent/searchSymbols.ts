import * as vscode from 'vscode';
import { containsSecret, matchExclude } from '../../chat/context/safety';
import { clipLine, countNote } from '../../agent/toolText';
import { readContextSettings } from '../context/contextSettings';
import type { HostTool, ToolEnv } from './types';

/** Symbols shown at most. */
export const SHOWN_SYMBOLS = 50;

/**
 * `search_symbols(query)`: the workspace symbol providers' answer (the language servers'), as
 * `name  kind  path:line  (container)`, kept to workspace files that are not secrets.
 */
export function searchSymbolsTool(env: ToolEnv): HostTool {
  return async (input, signal) => {
    const query = String(input.query).trim();
    if (!query) return { content: 'The query is empty; pass a symbol name.', isError: true }; // l10n-exempt: read by the model
    const found = await abortable(
      vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
        'vscode.executeWorkspaceSymbolProvider',
        query,
      ),
      signal,
    );
    const exclude = readContextSettings().exclude;
    const apiKey = await env.apiKey();
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const lines: string[] = [];
    const seen = new Set<string>();
    for (const symbol of found ?? []) {
      const uri = symbol.location.uri;
      if (!vscode.workspace.getWorkspaceFolder(uri)) continue;
      const path = vscode.workspace.asRelativePath(uri, multiRoot);
      if (matchExclude(path, exclude) !== undefined || containsSecret(symbol.name, apiKey)) continue;
      const container = symbol.containerName ? `  (in ${symbol.containerName})` : '';
      const kind = vscode.SymbolKind[symbol.kind]?.toLowerCase() ?? 'symbol';
      const line = `${clipLine(symbol.name)}  ${kind}  ${path}:${symbol.location.range.start.line + 1}${container}`;
      // Two providers (a language server and a linter's) may report the same symbol.
      if (!seen.has(line)) lines.push(line);
      seen.add(line);
    }
    const summary = vscode.l10n.t('Searched symbols `{0}`: {1} results', query, lines.length);
    // l10n-exempt: read by the model
    if (lines.length === 0) return { content: `No symbols match ${JSON.stringify(query)}.`, summary };
    const head = `Symbols matching ${JSON.stringify(query)}: ${countNote(Math.min(lines.length, SHOWN_SYMBOLS), lines.length)}.`; // l10n-exempt: read by the model
    return { content: `${head}\n${lines.slice(0, SHOWN_SYMBOLS).join('\n')}`, summary };
  };
}

/** `promise`, or a rejection as soon as `signal` aborts (the symbol command cannot be cancelled). */
function abortable<T>(promise: Thenable<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
