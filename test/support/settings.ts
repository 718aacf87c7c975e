// Settings in the extension host (integration and reliability suites only: this imports vscode).
import * as vscode from 'vscode';

/** Updates a `modelGateway.*` setting globally (undefined removes it). */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration('modelGateway')
    .update(key, value, vscode.ConfigurationTarget.Global);
}

/** Updates several `modelGateway.*` settings globally (keys without the prefix), in order. */
export async function setSettings(values: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(values)) await setSetting(key, value);
}

/**
 * Remembers the global values the `modelGateway.*` settings `keys` have now; the returned function puts them
 * back. For suites that set settings in a `before` hook and restore them in `after`.
 */
export function rememberSettings(keys: Iterable<string>): () => Promise<void> {
  const config = vscode.workspace.getConfiguration('modelGateway');
  const before = [...keys].map((key) => [key, config.inspect(key)?.globalValue] as const);
  return async () => {
    for (const [key, value] of before.reverse()) await setSetting(key, value);
  };
}

/**
 * Sets `modelGateway.*` settings (keys without the prefix), runs `body`, and puts back the global values
 * they had before, also when `body` fails: a test's settings never leak into the next one.
 */
export async function withSettings<T>(
  values: Record<string, unknown>,
  body: () => T | Promise<T>,
): Promise<T> {
  const restore = rememberSettings(Object.keys(values));
  try {
    await setSettings(values);
    return await body();
  } finally {
    await restore();
  }
}

/**
 * Registers hooks in the calling `describe` that remember the global values of the `modelGateway.*` settings
 * `keys` before its tests and put them back after them. Call it first, before the suite's own `before`.
 */
export function useSettingsRestored(keys: readonly string[]): void {
  let restore: (() => Promise<void>) | undefined;
  before(() => {
    restore = rememberSettings(keys);
  });
  after(async () => {
    await restore?.();
  });
}
