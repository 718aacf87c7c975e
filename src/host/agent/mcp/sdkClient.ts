// The MCP SDK's client behind a small interface, with the parsing of the MCP configuration and the conversion of
// tools and results. This file is its own bundle (dist/mcp.js), loaded with a plain `require` on the first agent
// run that finds MCP servers configured: the SDK and its dependencies (about 280 KB minified) stay out of the
// extension's main bundle and out of activation.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpServerConfig } from '../../../agent/mcp/config';
import type { McpToolInfo } from '../../../agent/mcp/tools';

export {
  inputIds,
  mergeMcpConfig,
  parseMcpJson,
  readMcpSetting,
  resolveVariables,
} from '../../../agent/mcp/config';
export { mcpResultToToolResult, mcpToolSpecs } from '../../../agent/mcp/tools';

/** The end of a server's stderr kept for reports: enough for an error message and its stack's first lines. */
const STDERR_TAIL_CHARS = 2000;
/** Pages of `tools/list` read at most (a server that keeps paging is cut off there). */
const MAX_TOOL_PAGES = 20;

/** A `tools/call` result as the SDK returns it (the fields the agent reads). */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

/** One started server. */
export interface McpConnection {
  /** The server's tools, all pages. */
  listTools(signal?: AbortSignal): Promise<McpToolInfo[]>;
  /** Calls a tool; rejects on timeout or abort (the SDK sends the server a cancellation). */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpCallResult>;
  /** The last lines the server wrote to stderr (stdio servers). */
  stderrTail(): string;
  /** Called once when the connection ends (the server exited or closed it). */
  onClose(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

/** Starts `server` (already resolved: no `${…}` left) and completes MCP's initialize handshake. */
export async function connectMcp(
  server: McpServerConfig,
  options: { clientName: string; clientVersion: string; timeoutMs: number; env: NodeJS.ProcessEnv },
): Promise<McpConnection> {
  let stderr = '';
  let closeListener: ((reason: string) => void) | undefined;
  let closed = false;
  let exitNote = '';
  const transport =
    server.type === 'stdio'
      ? new StdioClientTransport({
          command: server.command,
          args: server.args,
          env: { ...definedOnly(options.env), ...server.env },
          ...(server.cwd ? { cwd: server.cwd } : {}),
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: server.headers },
        });
  if (transport instanceof StdioClientTransport)
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
  const client = new Client({ name: options.clientName, version: options.clientVersion });
  client.onerror = (error) => {
    exitNote = error.message;
  };
  client.onclose = () => {
    if (closed) return;
    closed = true;
    closeListener?.(exitNote || 'the connection closed');
  };
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    closed = true;
    await client.close().catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    const tail = stderr.trim();
    throw new Error(tail ? `${message}; its output: ${tail.slice(-500)}` : message);
  }
  return {
    async listTools(signal) {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const result = await client.listTools(cursor ? { cursor } : undefined, {
          timeout: options.timeoutMs,
          ...(signal ? { signal } : {}),
        });
        tools.push(...(result.tools as McpToolInfo[]));
        cursor = result.nextCursor;
        if (!cursor) break;
      }
      return tools;
    },
    async callTool(name, args, { signal, timeoutMs }) {
      return (await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
      })) as McpCallResult;
    },
    stderrTail: () => stderr,
    onClose(listener) {
      closeListener = listener;
    },
    async close() {
      closed = true;
      await client.close().catch(() => undefined);
    },
  };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
