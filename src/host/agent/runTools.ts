// The tools of one agent run and the specs the model reads: the built-in ones, the MCP servers' tools behind
// their first-call approval, and other extensions' tools, as the Tools picker and the mode (Plan) allow.
import * as vscode from 'vscode';
import type { AgentTool } from '../../agent/loop';
import { planTools } from '../../agent/planMode';
import { isToolEnabled, type ToolChoice, type ToolSource } from '../../agent/toolChoice';
import type { AgentToolSpec } from '../../agent/types';
import type { AgentToolRow, ApprovalChoice, ApprovalChoiceId } from '../../chat/agentTurn';
import { availableTools, type AlwaysAllowedTools, type McpToolSource } from './toolSources';
import type { HostTool } from './types';
import { vscodeTool, vscodeToolSpecs } from './vscodeTools';

/** The tools a run offers, by name, and their specs in the order the model reads them. */
export interface RunTools {
  tools: Map<string, AgentTool>;
  specs: AgentToolSpec[];
}

/** What the listing needs from the run. */
export interface RunToolsContext {
  builtin: Record<string, HostTool>;
  mcp?: McpToolSource;
  /** MCP tools the user approved in this chat session. */
  mcpAllowed?: Set<string>;
  /** MCP tools the user always allows in this workspace. */
  mcpAlways?: AlwaysAllowedTools;
  /** The Tools picker's choice. */
  choice: ToolChoice;
  /** A Plan run: the read-only tools only. */
  plan: boolean;
  /** Asks on the current call's row. */
  ask(
    question: string,
    choices: readonly ApprovalChoice[],
    signal: AbortSignal,
  ): Promise<ApprovalChoiceId | undefined>;
  /** Shows a row in the turn (a server that did not start). */
  putRow(row: AgentToolRow): void;
}

/** The buttons of an MCP tool's first call. */
function runOrSkip(): ApprovalChoice[] {
  return [
    { id: 'run', label: vscode.l10n.t('Run') },
    { id: 'skip', label: vscode.l10n.t('Skip') },
    { id: 'alwaysAllow', label: vscode.l10n.t('Always Allow this tool') },
  ];
}

/**
 * Lists the run's tools. The MCP servers start here, on the first run that needs them; one that does not start gets
 * an error row in the turn and the run goes on without it. Stop while a server starts resolves with no tools (the
 * loop then sees the aborted signal); the start goes on and a later run uses the server.
 */
export async function listRunTools(context: RunToolsContext, signal: AbortSignal): Promise<RunTools> {
  const listing = availableTools(context.builtin, context.mcp, {
    approve: async (question, signal) => {
      const choice = await context.ask(question, runOrSkip(), signal);
      return choice === 'alwaysAllow' ? 'always' : choice === 'run';
    },
    allowed: context.mcpAllowed ?? new Set(),
    always: context.mcpAlways,
  });
  const stopped = new Promise<undefined>((resolve) => {
    if (signal.aborted) resolve(undefined);
    signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  const listed = await Promise.race([listing, stopped]);
  if (!listed) return { tools: new Map(), specs: [] };
  for (const failure of listed.failures)
    context.putRow({
      kind: 'tool',
      id: `mcp-start-${failure.server}`,
      name: failure.server,
      summary: failure.message.length > 160 ? `${failure.message.slice(0, 159)}…` : failure.message,
      status: 'error',
      input: '',
      result: failure.message,
    });
  // Other extensions' tools (vscode.lm.tools) join them; the Tools picker's choice decides what is offered, and a
  // Plan run keeps the read-only ones only, so an edit it calls anyway is an unknown tool (an error to the model).
  const registered = vscodeToolSpecs(new Set(listed.tools.map((t) => t.spec.name))).map((spec) => ({
    ...vscodeTool(spec),
    origin: 'vscode' as ToolSource,
  }));
  const chosen = [...listed.tools, ...registered].filter((t) =>
    isToolEnabled(context.choice, t.spec.name, t.origin),
  );
  const readOnly = new Set(planTools(chosen.map((t) => t.spec)).map((spec) => spec.name));
  const offered = context.plan ? chosen.filter((t) => readOnly.has(t.spec.name)) : chosen;
  return { tools: new Map(offered.map((t) => [t.spec.name, t])), specs: offered.map((t) => t.spec) };
}
