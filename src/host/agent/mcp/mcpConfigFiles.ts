// Where VS Code keeps the MCP servers the user configured, and reading them with the setting into one list.
import * as vscode from 'vscode';
import { mergeMcpConfig, parseMcpJson, readMcpSetting, type McpConfigPart } from '../../../agent/mcp/config';

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

/** The servers of the user's file, each workspace folder's `.vscode/mcp.json` and the setting, merged. */
export async function readMcpConfig(globalStorageUri: vscode.Uri, setting: unknown): Promise<McpConfigPart> {
  const parts: McpConfigPart[] = [];
  const user = await readText(userMcpJsonUri(globalStorageUri));
  if (user !== undefined) parts.push(parseMcpJson(user, 'user'));
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const text = await readText(vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json'));
    if (text !== undefined) parts.push(parseMcpJson(text, 'workspace', folder.uri.fsPath));
  }
  parts.push(readMcpSetting(setting));
  return mergeMcpConfig(parts);
}
