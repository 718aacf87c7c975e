/** Folders that hold tools' files, never the user's: the index leaves them out whatever files.exclude says. */
export const TOOL_FOLDERS = ['node_modules', '.git', '.hg', '.svn'] as const;

/** What the `#` picker's listing of one folder depends on in the settings. */
export interface FileListSettings {
  /** The `files.exclude` globs that are on for the folder. */
  excludes: readonly string[];
  /** `search.followSymlinks` for the folder: findFiles follows links when it is on. */
  followSymlinks: boolean;
}

/**
 * `rg --files` arguments that list a folder as `workspace.findFiles('**\/*')` does (VS Code's own file search runs
 * ripgrep the same way): hidden files included, `.gitignore` and every other ignore file NOT applied, `files.exclude`
 * applied, links followed when `search.followSymlinks` is on, no user ripgrep config. The tools' folders are excluded
 * as globs so that ripgrep does not even walk them.
 */
export function ripgrepFileListArgs(settings: FileListSettings): string[] {
  const args = ['--files', '--hidden', '--no-ignore', '--no-config'];
  for (const folder of TOOL_FOLDERS) args.push('--glob', `!**/${folder}`);
  for (const glob of settings.excludes) args.push('--glob', `!${anchoredGlob(glob)}`);
  if (settings.followSymlinks) args.push('--follow');
  return args;
}

/**
 * A `files.exclude` glob as ripgrep must read it: VS Code matches such a glob against the whole path relative to the
 * folder, while ripgrep matches a glob without '/' at any depth; a leading '/' anchors it as VS Code does (as its
 * search does for ripgrep). Trailing slashes go, and Windows separators become '/'.
 */
export function anchoredGlob(glob: string): string {
  const normal = glob.replace(/\\/g, '/').replace(/\/+$/, '');
  return normal.startsWith('**') || normal.startsWith('/') ? normal : `/${normal}`;
}

/** The index's path of a line of `rg --files` run in a folder: its own separators, `prefix` (a multi-root folder's name and '/') first. */
export function listedPath(line: string, prefix: string, windows = process.platform === 'win32'): string {
  const path = windows ? line.replace(/\\/g, '/') : line;
  return prefix + (path.startsWith('./') ? path.slice(2) : path);
}
