// Finding the compiled test files a runner loads.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir` whose name ends with `suffix` (none when `dir` is missing), sorted for a stable order. */
export function filesEndingWith(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return filesEndingWith(path, suffix);
      return name.endsWith(suffix) ? [path] : [];
    });
}
