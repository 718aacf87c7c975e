import * as vscode from 'vscode';
import { containsSecret, matchExclude } from '../../chat/context/safety';
import { countNote } from '../../agent/toolText';
import { readContextSettings } from '../context/contextSettings';
import { problemsText } from '../context/readers';
import { resolveReadable } from './refusals';
import type { HostTool, ToolEnv } from './types';

/** Problems shown at most (the rest are counted). */
export const SHOWN_PROBLEMS = 100;

/**
 * `get_problems(path?)`: the errors and warnings VS Code knows of, in one file or in every workspace file, as
 * `path:line:col  severity  message (source)`. The model calls it after an edit to see what it broke.
 */
export function getProblemsTool(env: ToolEnv): HostTool {
  return async (input) => {
    let uri: vscode.Uri | undefined;
    let shown = 'the workspace';
    if (typeof input.path === 'string' && input.path.trim() !== '') {
      const resolved = await resolveReadable(input.path);
      if ('result' in resolved) return resolved.result;
      uri = resolved.uri;
      shown = resolved.shown;
    }
    const exclude = readContextSettings().exclude;
    const apiKey = await env.apiKey();
    const inWorkspace = (file: vscode.Uri): boolean =>
      vscode.workspace.getWorkspaceFolder(file) !== undefined &&
      matchExclude(vscode.workspace.asRelativePath(file, false), exclude) === undefined;
    const lines = problemsText(uri, inWorkspace)
      .text.split('\n')
      .filter((line) => line !== '' && !containsSecret(line, apiKey));
    const summary = uri
      ? vscode.l10n.t('Problems in {0}: {1}', shown, lines.length)
      : vscode.l10n.t('Problems in the workspace: {0}', lines.length);
    // l10n-exempt: read by the model
    if (lines.length === 0) return { content: `No errors or warnings in ${shown}.`, summary };
    const head = `Errors and warnings in ${shown}: ${countNote(Math.min(lines.length, SHOWN_PROBLEMS), lines.length)}.`; // l10n-exempt: read by the model
    return { content: `${head}\n${lines.slice(0, SHOWN_PROBLEMS).join('\n')}`, summary };
  };
}
