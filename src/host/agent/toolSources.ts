// The tools a run offers and where each comes from: the built-in tools, then the MCP servers' tools. This is the
// one list a Tools picker (or VS Code's registered tools) would filter or extend.
import * as vscode from 'vscode';
import { BUILTIN_TOOLS } from '../../agent/builtinTools';
import type { AgentTool } from '../../agent/loop';
import type { ToolResult } from '../../agent/types';
import type { McpFailure, McpTool } from './mcp/mcpHub';
import type { HostTool } from './types';

/** Where a tool comes from. */
export type ToolOrigin = 'builtin' | 'mcp';

/** A tool of a run, with its origin. */
export interface SourcedTool extends AgentTool {
  origin: ToolOrigin;
}

/** What lists the MCP servers' tools (the window's McpHub). */
export interface McpToolSource {
  tools(): Promise<{ tools: McpTool[]; failures: McpFailure[] }>;
  /** The tools of the last `tools()`, starting nothing. */
  listed(): readonly McpTool[];
}

/** How a run asks before an MCP tool's first call, and what it remembers. */
export interface McpApproval {
  /** Asks Run / Skip / Always Allow on the current row: true for Run, 'always', false on Skip or Stop. */
  approve(question: string, signal: AbortSignal): Promise<boolean | 'always'>;
  /** Tools the user let run (Run) in this conversation: their later calls there run without asking. */
  allowed: Set<string>;
  /** Tools the user always allows in this workspace (Always Allow). */
  always?: AlwaysAllowedTools;
}

/** The MCP tools the user clicked Always Allow for, kept per workspace (never from a file the agent can write). */
export class AlwaysAllowedTools {
  private static readonly KEY = 'modelGateway.agent.mcpAlwaysAllowed';
  constructor(private readonly state: vscode.Memento) {}

  has(name: string): boolean {
    return this.names().includes(name);
  }

  async add(name: string): Promise<void> {
    if (!this.has(name)) await this.state.update(AlwaysAllowedTools.KEY, [...this.names(), name].sort());
  }

  private names(): string[] {
    const stored = this.state.get<unknown>(AlwaysAllowedTools.KEY);
    return Array.isArray(stored) ? stored.filter((n): n is string => typeof n === 'string') : [];
  }
}

/** Longest input shown in an approval question. */
const QUESTION_INPUT_CHARS = 300;

/** The run's tools: the built-in ones that have an implementation, then each MCP tool behind its approval. */
export async function availableTools(
  builtin: Record<string, HostTool>,
  mcp: McpToolSource | undefined,
  approval: McpApproval,
): Promise<{ tools: SourcedTool[]; failures: McpFailure[] }> {
  const tools: SourcedTool[] = BUILTIN_TOOLS.filter((spec) => spec.name in builtin).map((spec) => ({
    spec,
    run: builtin[spec.name],
    origin: 'builtin',
  }));
  if (!mcp) return { tools, failures: [] };
  const listed = await mcp.tools();
  for (const tool of listed.tools) {
    if (tools.some((t) => t.spec.name === tool.spec.name)) continue;
    tools.push({ spec: tool.spec, origin: 'mcp', run: approvedFirst(tool, approval) });
  }
  return { tools, failures: listed.failures };
}

/** The tool's run, asking the user before its first call in the session. */
function approvedFirst(tool: McpTool, approval: McpApproval): AgentTool['run'] {
  return async (input: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> => {
    if (!approval.allowed.has(tool.spec.name) && !approval.always?.has(tool.spec.name)) {
      const shown = JSON.stringify(input);
      const question = vscode.l10n.t(
        'Run the tool "{0}" of the MCP server "{1}" with {2}?',
        tool.tool,
        tool.server,
        shown.length > QUESTION_INPUT_CHARS ? `${shown.slice(0, QUESTION_INPUT_CHARS)}…` : shown,
      );
      const answer = await approval.approve(question, signal);
      if (answer === 'always') await approval.always?.add(tool.spec.name);
      if (!answer)
        return {
          // l10n-exempt: read by the model
          content: `The user declined to run ${tool.spec.name}. Do not try to get its result another way.`,
          isError: true,
        };
      approval.allowed.add(tool.spec.name);
    }
    return tool.run(input, signal);
  };
}
