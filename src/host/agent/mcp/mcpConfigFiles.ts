// Where VS Code keeps the MCP servers the user configured, and reading them with the setting into one list.
import * as vscode from 'vscode';
import type { McpConfigPart } from '../../../agent/mcp/config';
import type * as McpBundle from './sdkClient';

/**
 * The user's `mcp.json`: VS Code keeps it in the profile's folder of the user data (`User/mcp.json`, or
 * `User/profiles/<id>/mcp.json`), which is two levels above the extension's global storage
 * (`<profile>/globalStorage/<publisher.name>`).
 */
export function userMcpJsonUri(globalStorageUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(globalStorageUri, '..', '..', 'mcp.json');
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

const NONE: McpConfigPart = { servers: [], disabled: [], inputs: [], problems: [] };

/**
 * The servers of the user's file, each workspace folder's `.vscode/mcp.json` and the setting, merged. The parser
 * lives in the MCP bundle, which `load` brings in only when a file or the setting configures something.
 */
export async function readMcpConfig(
  globalStorageUri: vscode.Uri,
  setting: unknown,
  load: () => typeof McpBundle,
): Promise<McpConfigPart> {
  const user = await readText(userMcpJsonUri(globalStorageUri));
  const folders: Array<{ text: string; folder: string }> = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const text = await readText(vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'));
    if (text !== undefined) folders.push({ text, folder: folder.uri.fsPath });
  }
  const settingIsEmpty =
    setting === undefined ||
    setting === null ||
    (typeof setting === 'object' && Object.keys(setting as object).length === 0);
  if (user === undefined && folders.length === 0 && settingIsEmpty) return NONE;
  const mcp = load();
  return mcp.mergeMcpConfig([
    ...(user !== undefined ? [mcp.parseMcpJson(user, 'user')] : []),
    ...folders.map(({ text, folder }) => mcp.parseMcpJson(text, 'workspace', folder)),
    mcp.readMcpSetting(setting),
  ]);
}
