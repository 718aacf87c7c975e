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
 * The last `lines` lines of each log of the newest extension host under `<userDataDir>/logs`, each headed by its
 * path, or '' when there is none.
 */
export function extensionHostLogTail(userDataDir: string, lines = 20): string {
  const files = logFiles(join(userDataDir, 'logs'), LOG_NAMES);
  const newest = files
    .map((path) => ({ path, at: statSync(path).mtimeMs }))
    .sort((a, b) => b.at - a.at)
    .slice(0, LOG_NAMES.size);
  return newest
    .map(({ path }) => {
      const tail = readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines);
      return [`      ${path}:`, ...tail.map((line) => `        ${line}`)].join('\n');
    })
    .join('\n');
}
