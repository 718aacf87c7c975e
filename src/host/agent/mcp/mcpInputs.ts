// `${input:…}` values of MCP servers (API keys, tokens): asked once with a password box and kept in the
// secret storage. The values are never logged and never shown again.
import * as vscode from 'vscode';
import type { McpInput } from '../../../agent/mcp/config';

const SECRET_PREFIX = 'modelGateway.mcp.input.';

/** The values of `ids`, asking for the ones not stored yet; an id the user does not answer is left out. */
export async function mcpInputValues(
  secrets: vscode.SecretStorage,
  ids: readonly string[],
  inputs: readonly McpInput[],
  server: string,
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const id of ids) {
    const key = `${SECRET_PREFIX}${id}`;
    let value = await secrets.get(key);
    if (value === undefined) {
      const input = inputs.find((i) => i.id === id);
      value = await vscode.window.showInputBox({
        title: vscode.l10n.t('MCP server "{0}"', server),
        prompt: input?.description ?? id,
        password: input?.password ?? true,
        ignoreFocusOut: true,
      });
      if (value === undefined) continue;
      await secrets.store(key, value);
    }
    values[id] = value;
  }
  return values;
}
