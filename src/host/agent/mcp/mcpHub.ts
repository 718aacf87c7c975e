// The MCP servers of the window: started on the first agent run that needs them, kept while their
// configuration stays the same, restarted on a later run after a crash, and stopped when the extension
// deactivates. Each run gets the tools of the servers that started and the reasons of those that did not.
import * as vscode from 'vscode';
import type { McpServerConfig } from '../../../agent/mcp/config';
import type { McpToolInfo } from '../../../agent/mcp/tools';
import type { AgentToolSpec, ToolResult } from '../../../agent/types';
import { readMcpConfig } from './mcpConfigFiles';
import { mcpInputValues } from './mcpInputs';
import type { McpConnection } from './sdkClient';

type SdkModule = typeof import('./sdkClient');

/** MCP's error code for a request that got no answer in time (the SDK's ErrorCode.RequestTimeout). */
const REQUEST_TIMEOUT = -32001;

/** How long a server may take to start and answer `initialize` and `tools/list`. */
const START_TIMEOUT_MS = 30_000;

/** One MCP tool of a run, ready for the loop (approval is the run's business). */
export interface McpTool {
  spec: AgentToolSpec;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  run(input: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}

/** A server that could not be used in this run, and why (for the turn and the log). */
export interface McpFailure {
  server: string;
  message: string;
}

interface Running {
  /** The resolved configuration it was started with: a change restarts it. */
  key: string;
  started: Promise<{ connection: McpConnection; tools: McpToolInfo[] }>;
  /** Set when the server exited or the connection closed: the next run starts it again. */
  ended?: string;
}

/** What the hub needs from the extension. */
export interface McpHubDeps {
  globalStorageUri: vscode.Uri;
  secrets: vscode.SecretStorage;
  /** The SDK bundle's path (dist/mcp.js), loaded on the first start. */
  sdkPath: string;
  version: string;
  log: { info(message: string): void; warn(message: string): void };
  /** `modelGateway.agent.mcpServers`, as read from the settings. */
  setting(): unknown;
  /** `modelGateway.agent.mcpTimeoutSeconds`, in milliseconds. */
  callTimeoutMs(): number;
}

/** The window's MCP servers. */
export class McpHub implements vscode.Disposable {
  private readonly running = new Map<string, Running>();
  private lastListed: readonly McpTool[] = [];
  private sdk: SdkModule | undefined;
  private disposed = false;

  constructor(private readonly deps: McpHubDeps) {}

  /** The tools of every configured server, starting the ones not running yet. */
  async tools(): Promise<{ tools: McpTool[]; failures: McpFailure[] }> {
    const config = await readMcpConfig(this.deps.globalStorageUri, this.deps.setting(), () => this.loadSdk());
    for (const problem of config.problems) this.deps.log.warn(problem);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const failures: McpFailure[] = [];
    const started = await Promise.all(
      config.servers.map(async (server) => {
        try {
          const inputs = await mcpInputValues(
            this.deps.secrets,
            this.loadSdk().inputIds(server),
            config.inputs,
            server.name,
          );
          const resolved = this.loadSdk().resolveVariables(server, {
            workspaceFolder: folder,
            env: process.env,
            inputs,
          });
          return { server, ...(await this.start(resolved)) };
        } catch (error) {
          const message = this.startFailure(server, error);
          failures.push({ server: server.name, message });
          this.deps.log.warn(message);
          return undefined;
        }
      }),
    );
    for (const name of [...this.running.keys()])
      if (!config.servers.some((s) => s.name === name)) this.stop(name);
    const tools: McpTool[] = [];
    const taken = new Set<string>();
    for (const entry of started) {
      if (!entry) continue;
      const { specs, problems } = this.loadSdk().mcpToolSpecs(entry.server.name, entry.tools, taken);
      for (const problem of problems) this.deps.log.warn(problem);
      for (const { spec, tool } of specs) {
        taken.add(spec.name);
        tools.push({
          spec,
          server: entry.server.name,
          tool,
          run: (input, signal) =>
            this.call(entry.server.name, entry.connection, tool, spec.name, input, signal),
        });
      }
    }
    this.lastListed = tools;
    return { tools, failures };
  }

  /** The tools of the last listing, starting nothing (none before the servers first started). */
  listed(): readonly McpTool[] {
    return this.lastListed;
  }

  private startFailure(server: McpServerConfig, error: unknown): string {
    const reason = error instanceof Error ? error.message : String(error);
    this.running.delete(server.name);
    const what = server.type === 'stdio' ? `"${server.command}"` : server.url;
    return vscode.l10n.t('MCP server "{0}" ({1}) did not start: {2}', server.name, what, reason);
  }

  /** The running server for this configuration, started now when needed. */
  private async start(server: McpServerConfig): Promise<{ connection: McpConnection; tools: McpToolInfo[] }> {
    if (this.disposed) throw new Error('the extension is shutting down');
    const key = JSON.stringify(server);
    const current = this.running.get(server.name);
    if (current && current.key === key && current.ended === undefined) return current.started;
    if (current) this.stop(server.name);
    const sdk = this.loadSdk();
    const begun = performance.now();
    const running: Running = {
      key,
      started: (async () => {
        const connection = await sdk.connectMcp(server, {
          clientName: 'model-gateway',
          clientVersion: this.deps.version,
          timeoutMs: START_TIMEOUT_MS,
          env: process.env,
        });
        connection.onClose((reason) => {
          running.ended = reason;
          const tail = connection.stderrTail().trim();
          this.deps.log.warn(
            `MCP server "${server.name}" stopped: ${reason}${tail ? `; its last output: ${tail.slice(-500)}` : ''}`,
          );
        });
        const tools = await connection.listTools().catch(async (error: unknown) => {
          const tail = connection.stderrTail();
          await connection.close();
          throw withStderr(error, tail);
        });
        this.deps.log.info(
          `MCP server "${server.name}" started in ${(performance.now() - begun).toFixed(0)} ms with ${tools.length} tool(s).`,
        );
        return { connection, tools };
      })(),
    };
    this.running.set(server.name, running);
    return running.started;
  }

  private loadSdk(): SdkModule {
    // A runtime path, so esbuild leaves the SDK bundle out of the main one (see sdkClient.ts).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.sdk ??= require(this.deps.sdkPath) as SdkModule;
    return this.sdk;
  }

  private async call(
    server: string,
    connection: McpConnection,
    tool: string,
    name: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const ended = this.running.get(server)?.ended;
    if (ended !== undefined)
      // l10n-exempt: read by the model
      return { content: `The MCP server "${server}" has stopped (${ended}).`, isError: true };
    const timeoutMs = this.deps.callTimeoutMs();
    try {
      const result = await connection.callTool(tool, input, { signal, timeoutMs });
      return this.loadSdk().mcpResultToToolResult(name, result);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // l10n-exempt: read by the model
      if (signal.aborted) return { content: 'Stopped by the user.', isError: true };
      if ((error as { code?: unknown }).code === REQUEST_TIMEOUT)
        return {
          // l10n-exempt: read by the model
          content: `The MCP tool ${name} did not answer within ${Math.round(timeoutMs / 1000)} s; the call was cancelled.`,
          isError: true,
          summary: `${name}: timed out`,
        };
      const stopped = this.running.get(server)?.ended;
      if (stopped)
        return {
          // l10n-exempt: read by the model
          content: `The MCP server "${server}" stopped during the call (${stopped}).`,
          isError: true,
        };
      // l10n-exempt: read by the model
      return { content: `The MCP tool ${name} failed: ${message}`, isError: true };
    }
  }

  private stop(name: string): void {
    const running = this.running.get(name);
    this.running.delete(name);
    void running?.started.then(
      ({ connection }) => connection.close(),
      () => undefined,
    );
  }

  /** Stops every server (the extension deactivates). */
  dispose(): void {
    this.disposed = true;
    for (const name of [...this.running.keys()]) this.stop(name);
  }

  /** Stops every server and waits until they are closed (deactivate awaits it). */
  async close(): Promise<void> {
    const all = [...this.running.values()];
    this.dispose();
    await Promise.all(
      all.map((r) =>
        r.started.then(
          ({ connection }) => connection.close(),
          () => undefined,
        ),
      ),
    );
  }
}

/** The error with the server's last stderr lines, which usually say why it did not start. */
function withStderr(error: unknown, stderr: string | undefined): Error {
  const message = error instanceof Error ? error.message : String(error);
  const tail = stderr?.trim();
  return new Error(tail ? `${message}; its output: ${tail.slice(-500)}` : message);
}
