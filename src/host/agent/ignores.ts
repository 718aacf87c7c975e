import * as vscode from 'vscode';
import { readContextSettings } from '../context/contextSettings';

/** The `files.exclude` globs that are on for `folder` (conditional `when` entries are left to VS Code's own views). */
export function filesExcludeGlobs(folder: vscode.WorkspaceFolder): string[] {
  const setting = vscode.workspace
    .getConfiguration('files', folder.uri)
    .get<Record<string, unknown>>('exclude');
  return Object.entries(setting ?? {})
    .filter(([glob, on]) => on === true && glob.trim() !== '')
    .map(([glob]) => glob);
}

/**
 * ripgrep's arguments for what the agent sees in `folder`: hidden files included (`.github/`), `.gitignore` and
 * `.ignore` applied even outside a git repository, `files.exclude` left out, and (`secrets`) the files of
 * `modelGateway.context.exclude` left out, case-insensitively as the chat context matches them. `--no-config` keeps a
 * user's RIPGREP_CONFIG_PATH from changing the results.
 */
export function ripgrepScopeArgs(folder: vscode.WorkspaceFolder, options: { secrets: boolean }): string[] {
  // A repository's internals are never the answer, whatever files.exclude says (with --hidden, rg would search them).
  const args = ['--no-config', '--hidden', '--no-require-git', '--glob', '!**/.git'];
  for (const glob of filesExcludeGlobs(folder)) args.push('--glob', `!${glob}`);
  if (options.secrets) for (const glob of readContextSettings().exclude) args.push('--iglob', `!${glob}`);
  return args;
}
