// The Tools picker's host side: which tools an agent run can offer (built in, from MCP servers, registered with
// VS Code by other extensions) and the user's choice among them, kept per workspace.
import type * as vscode from 'vscode';
import {
  isToolEnabled,
  readToolChoice,
  toolChoiceEntries,
  withToolEnabled,
  type ToolChoice,
  type ToolChoiceEntry,
  type ToolSource,
} from '../../agent/toolChoice';
import { BUILTIN_TOOLS } from '../../agent/builtinTools';
import type { AgentToolSpec } from '../../agent/types';
import type { McpToolSource } from './toolSources';
import { vscodeToolSpecs } from './vscodeTools';

/** The workspace state key of the choice. */
export const TOOL_CHOICE_KEY = 'modelGateway.agent.toolChoice';

/** A tool the catalog knows, with where it comes from. */
export interface SourcedSpec {
  spec: AgentToolSpec;
  source: ToolSource;
}

/** How far a listing may go: `start` false lists only what is known without starting MCP servers. */
export interface ListOptions {
  start: boolean;
}

/** Lists the tools of one source (MCP servers may have to start first). */
export type ToolLister = (options: ListOptions) => Promise<SourcedSpec[]> | SourcedSpec[];

/** The choice of one workspace, over the tools its listers name. */
export class ToolCatalog {
  constructor(
    private readonly state: vscode.Memento,
    private readonly listers: readonly ToolLister[],
  ) {}

  choice(): ToolChoice {
    return readToolChoice(this.state.get(TOOL_CHOICE_KEY));
  }

  /** Whether a run offers the tool. */
  enabled(tool: SourcedSpec): boolean {
    return isToolEnabled(this.choice(), tool.spec.name, tool.source);
  }

  /** Every tool the listers name; one that fails to list is left out (it reports its own problem). */
  async all(options: ListOptions = { start: true }): Promise<SourcedSpec[]> {
    const lists = await Promise.all(
      this.listers.map((list) =>
        Promise.resolve()
          .then(() => list(options))
          .catch((): SourcedSpec[] => []),
      ),
    );
    const seen = new Set<string>();
    return lists.flat().filter((t) => !seen.has(t.spec.name) && seen.add(t.spec.name));
  }

  /** The picker's rows; `start` false leaves out the tools of MCP servers that have not started yet. */
  async entries(options: ListOptions = { start: true }): Promise<ToolChoiceEntry[]> {
    const tools = await this.all(options);
    return toolChoiceEntries(
      tools.map((t) => ({ name: t.spec.name, source: t.source, description: t.spec.description })),
      this.choice(),
    );
  }

  /** Turns `name` on or off (a name no lister knows is ignored) and returns the rows. */
  async setEnabled(name: string, enabled: boolean): Promise<ToolChoiceEntry[]> {
    const tool = (await this.all()).find((t) => t.spec.name === name);
    if (tool)
      await this.state.update(TOOL_CHOICE_KEY, withToolEnabled(this.choice(), name, tool.source, enabled));
    return this.entries();
  }
}

/** The built-in tools and VS Code's registered ones; `more` adds other sources (MCP servers). */
export function agentToolCatalog(state: vscode.Memento, more: readonly ToolLister[] = []): ToolCatalog {
  const builtin: ToolLister = () => BUILTIN_TOOLS.map((spec) => ({ spec, source: 'builtin' as const }));
  const registered: ToolLister = () =>
    vscodeToolSpecs(new Set(BUILTIN_TOOLS.map((t) => t.name))).map((spec) => ({
      spec,
      source: 'vscode' as const,
    }));
  return new ToolCatalog(state, [builtin, ...more, registered]);
}

/**
 * The MCP servers' tools for the picker (opening it starts the configured servers, as a run does); without
 * `start`, the tools of the last listing, by a run or the picker (none before the servers first started).
 */
export function mcpToolLister(mcp: McpToolSource): ToolLister {
  return async ({ start }) =>
    (start ? (await mcp.tools()).tools : mcp.listed()).map((t) => ({ spec: t.spec, source: 'mcp' as const }));
}
