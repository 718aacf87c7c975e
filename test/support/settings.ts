// Settings in the extension host (integration and reliability suites only: this imports vscode).
import * as vscode from 'vscode';

/** Updates a `modelGateway.*` setting globally (undefined removes it). */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration('modelGateway')
    .update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * Sets `modelGateway.*` settings (keys without the prefix), runs `body`, and puts back the global values
 * they had before, also when `body` fails: a test's settings never leak into the next one.
 */
export async function withSettings<T>(
  values: Record<string, unknown>,
  body: () => T | Promise<T>,
): Promise<T> {
  const config = vscode.workspace.getConfiguration('modelGateway');
  const before = Object.keys(values).map((key) => [key, config.inspect(key)?.globalValue] as const);
  try {
    for (const [key, value] of Object.entries(values)) await setSetting(key, value);
    return await body();
  } finally {
    for (const [key, value] of before.reverse()) await setSetting(key, value);
  }
}
