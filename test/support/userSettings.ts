// User settings of the UI suites' editor, changed in its settings.json as a user would.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Replaces `file` by a rename: a new file, which the settings watcher reliably sees (unlike a rewrite). */
function replaceFile(file: string, text: string): void {
  writeFileSync(`${file}.next`, text);
  renameSync(`${file}.next`, file);
}

/**
 * Sets `values` (full keys, `modelGateway.baseUrl`) in the user settings.json of the editor whose user-data
 * folder is `userDataDir`; returns a function that puts the previous file back.
 */
export function setUserSettings(userDataDir: string, values: Record<string, unknown>): () => void {
  const file = join(userDataDir, 'User', 'settings.json');
  const original = readFileSync(file, 'utf8');
  replaceFile(file, JSON.stringify({ ...(JSON.parse(original) as object), ...values }, null, 2));
  return () => replaceFile(file, original);
}
