import * as vscode from 'vscode';
import { containsSecret, matchExclude } from '../../chat/context/safety';
import { refusalText, type Refusal } from '../../agent/toolText';
import type { ToolResult } from '../../agent/types';
import { readContextSettings } from '../context/contextSettings';
import { resolveWorkspacePath, type ResolvedPath } from './workspaceFiles';

/** A refusal as a tool result: an error the model reads, and a short row for the user. */
export function refused(path: string, refusal: Refusal): ToolResult {
  return {
    content: refusalText(path, refusal),
    isError: true,
    summary: vscode.l10n.t('Refused {0}', path),
  };
}

/**
 * Places a path the model gave in the workspace and applies the chat context's refusals that need no reading:
 * outside the workspace, `..`, links out, and `modelGateway.context.exclude` (secrets).
 */
export async function resolveReadable(
  path: string,
  options: { allowRoot?: boolean } = {},
): Promise<ResolvedPath | { result: ToolResult }> {
  const resolved = await resolveWorkspacePath(path, options);
  if ('refusal' in resolved) return { result: refused(path, resolved.refusal) };
  const pattern = resolved.path ? matchExclude(resolved.path, readContextSettings().exclude) : undefined;
  if (pattern !== undefined) return { result: refused(resolved.shown, { kind: 'excluded', pattern }) };
  return resolved;
}

/** Whether a relative path is one of the secrets of `modelGateway.context.exclude` (left out of every listing). */
export function excludedSecret(relativePath: string, exclude = readContextSettings().exclude): boolean {
  return matchExclude(relativePath, exclude) !== undefined;
}

/** The refusal for text that holds the API key, or undefined when the text may go to the model. */
export async function secretRefusal(
  shown: string,
  text: string,
  apiKey: () => Promise<string | undefined>,
): Promise<ToolResult | undefined> {
  return containsSecret(text, await apiKey()) ? refused(shown, { kind: 'secret' }) : undefined;
}
