/**
 * Which MCP servers the agent uses: VS Code's `servers` format read from the user's `mcp.json` and the
 * workspace's `.vscode/mcp.json`, then `modelGateway.agent.mcpServers`, which adds servers or disables one by
 * name (`"name": false`). Later sources win for the same name: user file, workspace file, setting.
 */
import { parseJsonc } from './jsonc';

/** Where a server's entry came from (for messages and the log). */
export type McpSource = 'user' | 'workspace' | 'setting';

interface ServerBase {
  name: string;
  source: McpSource;
  /** The folder `${workspaceFolder}` stands for in this entry (the workspace folder of its file, or the first). */
  folder?: string;
}

/** A server started as a child process, speaking MCP over its stdin and stdout. */
export interface StdioServer extends ServerBase {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface HttpServer extends ServerBase {
  type: 'http';
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = StdioServer | HttpServer;

/** An `inputs` entry of mcp.json: a value asked of the user (`${input:id}`). */
export interface McpInput {
  id: string;
  description: string;
  password: boolean;
}

/** One file's or the setting's servers, what they ask for, and what was wrong in them. */
export interface McpConfigPart {
  servers: McpServerConfig[];
  /** Names the setting turns off (`"name": false`). */
  disabled: string[];
  inputs: McpInput[];
  problems: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(value)) return out;
  for (const [key, v] of Object.entries(value))
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
  return out;
}

/** One `servers` entry, or why it cannot be used. */
export function readServerEntry(
  name: string,
  value: unknown,
  source: McpSource,
  folder?: string,
): McpServerConfig | string {
  const where = `MCP server "${name}" (${source})`;
  if (!isObject(value)) return `${where}: an entry must be an object.`;
  const type = typeof value.type === 'string' ? value.type : undefined;
  const base = { name, source, ...(folder !== undefined ? { folder } : {}) };
  const isHttp = type === 'http' || type === 'sse' || (type === undefined && typeof value.url === 'string');
  if (isHttp) {
    if (typeof value.url !== 'string' || !value.url.trim()) return `${where}: "url" is missing.`;
    return { ...base, type: 'http', url: value.url.trim(), headers: stringRecord(value.headers) };
  }
  if (type !== undefined && type !== 'stdio') return `${where}: type "${type}" is not supported.`;
  if (typeof value.command !== 'string' || !value.command.trim()) return `${where}: "command" is missing.`;
  const args = Array.isArray(value.args) ? value.args.filter((a) => typeof a === 'string') : [];
  return {
    ...base,
    type: 'stdio',
    command: value.command.trim(),
    args,
    env: stringRecord(value.env),
    ...(typeof value.cwd === 'string' && value.cwd.trim() ? { cwd: value.cwd.trim() } : {}),
  };
}

function readInputs(value: unknown): McpInput[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((input) =>
    typeof input.id === 'string' && input.id
      ? [
          {
            id: input.id,
            description: typeof input.description === 'string' ? input.description : input.id,
            password: input.password === true,
          },
        ]
      : [],
  );
}

/** The servers of an `mcp.json` text (JSONC); `folder` is the workspace folder of a workspace file. */
export function parseMcpJson(text: string, source: McpSource, folder?: string): McpConfigPart {
  const part: McpConfigPart = { servers: [], disabled: [], inputs: [], problems: [] };
  let value: unknown;
  try {
    value = text.trim() ? parseJsonc(text) : {};
  } catch (error) {
    part.problems.push(
      `The ${source} mcp.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
    return part;
  }
  if (!isObject(value)) {
    part.problems.push(`The ${source} mcp.json must hold an object with "servers".`);
    return part;
  }
  part.inputs = readInputs(value.inputs);
  if (value.servers === undefined) return part;
  if (!isObject(value.servers)) {
    part.problems.push(`The ${source} mcp.json's "servers" must be an object of servers by name.`);
    return part;
  }
  for (const [name, entry] of Object.entries(value.servers)) {
    const server = readServerEntry(name, entry, source, folder);
    if (typeof server === 'string') part.problems.push(server);
    else part.servers.push(server);
  }
  return part;
}

/** `modelGateway.agent.mcpServers`: servers by name, or `false` to turn a configured server off. */
export function readMcpSetting(value: unknown): McpConfigPart {
  const part: McpConfigPart = { servers: [], disabled: [], inputs: [], problems: [] };
  if (value === undefined || value === null) return part;
  if (!isObject(value)) {
    part.problems.push('modelGateway.agent.mcpServers must be an object of servers by name.');
    return part;
  }
  for (const [name, entry] of Object.entries(value)) {
    if (entry === false) {
      part.disabled.push(name);
      continue;
    }
    const server = readServerEntry(name, entry, 'setting');
    if (typeof server === 'string') part.problems.push(server);
    else part.servers.push(server);
  }
  return part;
}

/** The servers in use: later parts replace earlier entries of the same name; disabled names are left out. */
export function mergeMcpConfig(parts: readonly McpConfigPart[]): McpConfigPart {
  const servers = new Map<string, McpServerConfig>();
  const disabled = new Set<string>();
  const inputs = new Map<string, McpInput>();
  const problems: string[] = [];
  for (const part of parts) {
    for (const server of part.servers) servers.set(server.name, server);
    for (const name of part.disabled) disabled.add(name);
    for (const input of part.inputs) inputs.set(input.id, input);
    problems.push(...part.problems);
  }
  return {
    servers: [...servers.values()].filter((s) => !disabled.has(s.name)),
    disabled: [...disabled],
    inputs: [...inputs.values()],
    problems,
  };
}

const VARIABLE = /\$\{(workspaceFolder|env:[^}]+|input:[^}]+)\}/g;

/** The `${input:…}` ids a server's command, arguments, environment, URL or headers refer to. */
export function inputIds(server: McpServerConfig): string[] {
  const ids = new Set<string>();
  for (const text of serverTexts(server))
    for (const match of text.matchAll(VARIABLE))
      if (match[1].startsWith('input:')) ids.add(match[1].slice('input:'.length));
  return [...ids];
}

function serverTexts(server: McpServerConfig): string[] {
  return server.type === 'stdio'
    ? [server.command, ...server.args, ...Object.values(server.env), server.cwd ?? '']
    : [server.url, ...Object.values(server.headers)];
}

/** What `${…}` variables stand for when a server starts. */
export interface McpVariables {
  /** The workspace folder, when one is open. */
  workspaceFolder?: string;
  env: Record<string, string | undefined>;
  /** Values of `${input:id}` (asked of the user, kept in the secret storage). */
  inputs: Record<string, string>;
}

/** The server with `${workspaceFolder}`, `${env:NAME}` and `${input:id}` replaced; unknown ones stay as written. */
export function resolveVariables(server: McpServerConfig, variables: McpVariables): McpServerConfig {
  const folder = server.folder ?? variables.workspaceFolder;
  const expand = (text: string): string =>
    text.replace(VARIABLE, (whole, name: string) => {
      if (name === 'workspaceFolder') return folder ?? whole;
      if (name.startsWith('env:')) return variables.env[name.slice(4)] ?? '';
      return variables.inputs[name.slice('input:'.length)] ?? whole;
    });
  const record = (r: Record<string, string>) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, expand(v)]));
  if (server.type === 'http') return { ...server, url: expand(server.url), headers: record(server.headers) };
  return {
    ...server,
    command: expand(server.command),
    args: server.args.map(expand),
    env: record(server.env),
    ...(server.cwd !== undefined ? { cwd: expand(server.cwd) } : folder ? { cwd: folder } : {}),
  };
}
