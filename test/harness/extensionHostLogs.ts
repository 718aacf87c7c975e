// On a failed UI test, the end of the extension host's logs: what our extension logged, and what VS Code logged
// about extensions (a command that threw, an activation error). The editor's user data is deleted after the run,
// so a failure seen only in CI is otherwise explained by its screenshot alone.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LOG_NAMES = new Set(['Model Gateway.log', 'remoteexthost.log']);

/** Every file under `dir` whose name is in `names`, depth first. */
function logFiles(dir: string, names: ReadonlySet<string>): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (names.has(name)) return [path];
    try {
      return statSync(path).isDirectory() ? logFiles(path, names) : [];
    } catch {
      return [];
    }
  });
}

/**
 * The last `lines` lines of the logs under `<userDataDir>/logs`: our extension's log of the newest three extension
 * hosts of the run (a window reload starts a new one, and the old one can live on), and VS Code's extension-host log
 * of the newest, each headed by its path; '' when there is none.
 */
export function extensionHostLogTail(userDataDir: string, lines = 20): string {
  const byAge = (paths: string[]): string[] =>
    paths
      .map((path) => ({ path, at: statSync(path).mtimeMs }))
      .sort((a, b) => a.at - b.at)
      .map((f) => f.path);
  const files = logFiles(join(userDataDir, 'logs'), LOG_NAMES);
  // The newest three: a reload test's old and new host, and the one before (a suite can start dozens).
  const ours = byAge(files.filter((path) => path.endsWith('Model Gateway.log'))).slice(-3);
  const vscode = byAge(files.filter((path) => path.endsWith('remoteexthost.log'))).slice(-1);
  return [...vscode, ...ours]
    .map((path) => {
      const tail = readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines);
      return [`      ${path}:`, ...tail.map((line) => `        ${line}`)].join('\n');
    })
    .join('\n');
}
