// One agent run in the chat: the conversation as the loop's messages, the tools (read-only ones, the edit
// tools with their checkpoint, the MCP servers' tools, other extensions' tools), the model calls on the chosen
// protocol, and the loop's events drawn in the turn.
import * as vscode from 'vscode';
import { noteChange, type FileChange } from '../../agent/changedFiles';
import { continueAgent, runAgent, type AgentEvent, type AgentRunResult } from '../../agent/loop';
import { modelCaller, type ProtocolMemory } from '../../agent/modelCall';
import type { AgentMessage } from '../../agent/types';
import { failedSummary, pendingSummary, shownText } from '../../agent/toolRowText';
import {
  appendAgentText,
  putAgentRow,
  type AgentMeter,
  type AgentToolRow,
  type ApprovalChoice,
  type ApprovalChoiceId,
} from '../../chat/agentTurn';
import { estimateTokens } from '../../chat/tokens';
import type { AssistantTurn, Conversation } from '../../chat/types';
import type { ChatMessage } from '../../gateway/types';
import { CONTEXT_TOKENS } from '../../gateway/models';
import type { HostToWebview } from '../../protocol';
import type { ExtensionConfig } from '../config';
import { buildChatRequest } from '../chatRequest';
import { AGENT_INSTRUCTIONS } from '../../agent/instructions';
import { PLAN_INSTRUCTIONS } from '../../agent/planMode';
import type { AgentTerminals } from './agentTerminal';
import type { CheckpointStore } from './checkpointStore';
import { allowInUserSettings, runCommandTool } from './runCommand';
import { readConfig } from '../config';
import { createFileTool, deleteFileTool, editFileTool } from './editTools';
import { readOnlyTools } from './readOnlyTools';
import type { ToolCatalog } from './toolCatalog';
import { listRunTools, type RunTools } from './runTools';
import type { AlwaysAllowedTools, McpToolSource } from './toolSources';
import type { HostTool, ToolEnv } from './types';

/** What a run needs from the extension. */
export interface AgentRunServices {
  toolEnv: ToolEnv;
  checkpoints: CheckpointStore;
  terminals: AgentTerminals;
  protocolMemory: ProtocolMemory;
  tools: ToolCatalog;
  log: { info(message: string): void; warn(message: string): void };
  client: () => import('../../gateway/types').GatewayClient;
  /** The MCP servers' tools (absent in tests that run without them). */
  mcp?: McpToolSource;
  /** MCP tools the user approved in this chat session. */
  mcpAllowed?: Set<string>;
  /** MCP tools the user always allows in this workspace. */
  mcpAlways?: AlwaysAllowedTools;
}

/** What the run reports to the chat. */
export interface RunHooks {
  post(message: HostToWebview): void;
  /** The conversation changed (the store coalesces a save). */
  changed(): void;
  /** Asks on a row with these buttons; resolves with the user's click (undefined on Stop). */
  ask(
    callId: string,
    question: string,
    choices: readonly ApprovalChoice[],
    signal: AbortSignal,
  ): Promise<ApprovalChoiceId | undefined>;
}

/**
 * The conversation's chat messages as the loop's: the agent's instructions (a Plan run's own) first in the system
 * message.
 */
export function agentMessages(
  messages: readonly ChatMessage[],
  rules: string,
  instructions = AGENT_INSTRUCTIONS,
): AgentMessage[] {
  const system = [instructions, rules].filter(Boolean).join('\n\n');
  const out: AgentMessage[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    const content = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'system') out[0] = { role: 'system', content: `${system}\n\n${content}` };
    else if (m.role === 'user' || m.role === 'assistant') out.push({ role: m.role, content });
  }
  return out;
}

/** The buttons of a protected file's approval. */
function approveOrSkip(): ApprovalChoice[] {
  return [
    { id: 'approve', label: vscode.l10n.t('Approve') },
    { id: 'skip', label: vscode.l10n.t('Skip') },
  ];
}

/** Runs (or continues) the agent for `turn`, which answers the user turn `userTurnId`. */
export class AgentRunner {
  private row = new Map<string, AgentToolRow>();
  private currentCall: string | undefined;
  private result: AgentRunResult | undefined;
  private prepared: RunTools | undefined;

  constructor(
    private readonly services: AgentRunServices,
    private readonly config: ExtensionConfig,
    private readonly conversation: Conversation,
    private readonly turn: AssistantTurn & { agent: NonNullable<AssistantTurn['agent']> },
    private readonly userTurnId: string,
    private readonly hooks: RunHooks,
  ) {}

  /** True when the run stopped at the step limit and can go on. */
  get paused(): boolean {
    return this.result?.status === 'stepLimit';
  }

  /** The host's built-in tools: the read-only ones and the edit tools, checkpointed against the user turn. */
  private builtinTools(): Record<string, HostTool> {
    return {
      ...readOnlyTools(this.services.toolEnv),
      edit_file: editFileTool(this.editEnv()),
      create_file: createFileTool(this.editEnv()),
      delete_file: deleteFileTool(this.editEnv()),
      run_command: runCommandTool(this.commandEnv()),
    };
  }

  /** The run's tools and the specs the model reads, listed once per run (runTools.ts). */
  private async prepareTools(signal: AbortSignal): Promise<RunTools> {
    this.prepared ??= await listRunTools(
      {
        builtin: this.builtinTools(),
        mcp: this.services.mcp,
        mcpAllowed: this.services.mcpAllowed,
        mcpAlways: this.services.mcpAlways,
        choice: this.services.tools.choice(),
        plan: this.turn.agent.plan === true,
        ask: (question, choices, signal) => this.askOnRow(question, choices, signal),
        putRow: (row) => this.putRow(row),
      },
      signal,
    );
    return this.prepared;
  }

  private commandEnv() {
    return {
      terminals: this.services.terminals,
      settings: () => {
        const agent = readConfig().config.agent;
        return { autoApprove: agent.autoApprove, timeoutSeconds: agent.commandTimeoutSeconds };
      },
      ask: (question: string, choices: readonly ApprovalChoice[], signal: AbortSignal) =>
        this.askOnRow(question, choices, signal),
      allow: allowInUserSettings,
      log: this.services.log,
    };
  }

  private editEnv() {
    const conversationId = this.conversation.id;
    return {
      turnId: this.userTurnId,
      checkpoints: async () => {
        const checkpoints = await this.services.checkpoints.of(conversationId);
        checkpoints.beginTurn(this.userTurnId);
        return checkpoints;
      },
      saveCheckpoints: () => this.services.checkpoints.save(conversationId),
      protectedPatterns: () => this.config.agent.protectedFiles,
      approve: async (question: string, signal: AbortSignal) =>
        (await this.askOnRow(question, approveOrSkip(), signal)) === 'approve',
      noteChange: (change: FileChange) => this.noteChange(change),
    };
  }

  private noteChange(change: FileChange): void {
    const run = this.turn.agent;
    run.files = noteChange({ turnId: this.userTurnId, files: run.files }, change).files;
    const user = this.conversation.turns.find((t) => t.id === this.userTurnId);
    if (user?.role === 'user' && !user.checkpoint) {
      user.checkpoint = true;
      this.hooks.post({ type: 'checkpoint', turnId: user.id });
    }
    this.hooks.post({ type: 'agentFiles', turnId: this.turn.id, files: run.files });
    this.hooks.changed();
  }

  /** Starts the run on the conversation's messages; resolves with how it ended. */
  async start(messages: readonly ChatMessage[], rules: string, signal: AbortSignal): Promise<AgentRunResult> {
    const options = this.loopOptions(signal, await this.prepareTools(signal));
    const instructions = this.turn.agent.plan ? PLAN_INSTRUCTIONS : AGENT_INSTRUCTIONS;
    this.result = await runAgent({ ...options, messages: agentMessages(messages, rules, instructions) });
    return this.finish();
  }

  /** Goes on after the step limit, for up to maxSteps more steps. */
  async continue(signal: AbortSignal): Promise<AgentRunResult> {
    if (!this.result) throw new Error('no run to continue');
    this.turn.agent.paused = false;
    this.hooks.post({ type: 'agentPaused', turnId: this.turn.id, paused: false });
    this.result = await continueAgent(this.result, this.loopOptions(signal, await this.prepareTools(signal)));
    return this.finish();
  }

  private finish(): AgentRunResult {
    const result = this.result as AgentRunResult;
    if (result.status === 'stepLimit') {
      this.turn.agent.paused = true;
      this.hooks.post({ type: 'agentPaused', turnId: this.turn.id, paused: true });
    }
    return result;
  }

  private loopOptions(signal: AbortSignal, prepared: RunTools) {
    const config = this.config;
    // The turn's model: a Plan run's is `modelGateway.agent.planModel` when set (see ChatAgent.answer).
    const model = this.turn.model;
    const { messages: _unused, ...request } = buildChatRequest(model, [], config);
    void _unused;
    const callModel = modelCaller({
      client: this.services.client,
      request,
      tools: prepared.specs,
      setting: config.agent.toolProtocol,
      baseUrl: config.baseUrl,
      memory: this.services.protocolMemory,
      log: this.services.log,
      onProtocol: (protocol) => {
        this.turn.agent.protocol = protocol;
      },
    });
    return {
      tools: prepared.tools,
      callModel,
      signal,
      maxSteps: config.agent.maxSteps,
      maxToolResultTokens: config.agent.maxToolResultTokens,
      contextTokens: CONTEXT_TOKENS,
      estimateTokens,
      onEvent: (event: AgentEvent) => this.onEvent(event),
    };
  }

  private onEvent(event: AgentEvent): void {
    const run = this.turn.agent;
    const turnId = this.turn.id;
    switch (event.type) {
      case 'text':
        appendAgentText(run, event.text);
        this.turn.content += event.text;
        this.hooks.post({ type: 'delta', turnId, text: event.text });
        break;
      case 'reasoning':
        this.turn.reasoning = (this.turn.reasoning ?? '') + event.text;
        this.hooks.post({ type: 'delta', turnId, reasoning: event.text });
        break;
      case 'toolStart': {
        this.currentCall = event.call.id;
        const row: AgentToolRow = {
          kind: 'tool',
          id: event.call.id,
          name: event.call.name,
          summary: pendingSummary(event.call),
          status: 'running',
          input: shownText(event.call.raw ?? JSON.stringify(event.call.input, null, 2)),
        };
        this.putRow(row);
        break;
      }
      case 'toolEnd': {
        const before = this.row.get(event.call.id);
        const declined = event.result.isError && /^The user declined/.test(event.result.content);
        // Stop while the row waited for Approve or Skip: the tool never ran, which is no error.
        const unapproved = event.stopped === true && before?.status === 'awaitingApproval';
        this.putRow({
          ...(before ?? {
            kind: 'tool',
            id: event.call.id,
            name: event.call.name,
            input: shownText(JSON.stringify(event.call.input, null, 2)),
          }),
          kind: 'tool',
          summary: unapproved
            ? vscode.l10n.t('{0}: not run: stopped', before.summary)
            : (event.result.summary ?? failedSummary(before?.summary ?? event.call.name, event.result)),
          status: declined || unapproved ? 'skipped' : event.result.isError ? 'error' : 'done',
          result: shownText(event.result.content),
          approval: undefined,
          choices: undefined,
        } as AgentToolRow);
        this.currentCall = undefined;
        break;
      }
      case 'usage':
        this.meter({
          totalTokens: event.usage.promptTokens + event.usage.completionTokens,
          promptTokens: event.promptTokens,
          contextTokens: event.contextTokens,
          estimated: event.usage.estimated,
          elided: run.meter?.elided,
          cost: this.cost(event.usage.promptTokens, event.usage.completionTokens),
        });
        break;
      case 'elided':
        this.meter({
          ...(run.meter ?? {
            totalTokens: 0,
            promptTokens: event.promptTokensAfter,
            contextTokens: CONTEXT_TOKENS,
            estimated: true,
          }),
          elided: (run.meter?.elided ?? 0) + event.notes.length,
        });
        break;
      default:
        break;
    }
    this.hooks.changed();
  }

  /** The run's cost from `modelGateway.chat.prices`, when the model is priced. */
  private cost(prompt: number, completion: number): number | undefined {
    const price = this.config.prices[this.turn.model];
    return price ? (prompt * price.input + completion * price.output) / 1_000_000 : undefined;
  }

  private meter(meter: AgentMeter): void {
    this.turn.agent.meter = meter;
    this.hooks.post({ type: 'agentMeter', turnId: this.turn.id, meter });
  }

  /** Shows the row awaiting approval (called by the chat when a tool asks). */
  showApproval(callId: string, question: string, choices: readonly ApprovalChoice[]): void {
    const row = this.row.get(callId);
    if (row) this.putRow({ ...row, status: 'awaitingApproval', approval: question, choices: [...choices] });
  }

  /**
   * Asks on the current call's row; once the user lets it go on, the row shows it running, not still waiting (so
   * Stop during the tool's work reads as a stopped run, not as an approval never given).
   */
  private async askOnRow(
    question: string,
    choices: readonly ApprovalChoice[],
    signal: AbortSignal,
  ): Promise<ApprovalChoiceId | undefined> {
    const callId = this.currentCall ?? '';
    const choice = await this.hooks.ask(callId, question, choices, signal);
    if (choice !== undefined && choice !== 'skip') this.showRunning(callId);
    return choice;
  }

  private showRunning(callId: string): void {
    const row = this.row.get(callId);
    if (row?.status === 'awaitingApproval')
      this.putRow({ ...row, status: 'running', approval: undefined, choices: undefined });
  }

  private putRow(row: AgentToolRow): void {
    this.row.set(row.id, row);
    putAgentRow(this.turn.agent, row);
    this.hooks.post({ type: 'agentRow', turnId: this.turn.id, row });
  }

  /** Log line of how the run ended. */
  describe(result: AgentRunResult): string {
    // l10n-exempt: a log line
    return `Agent run ${result.status} after ${result.steps} step(s) (${this.turn.model}${this.turn.agent.plan ? ', plan' : ''}, ${this.turn.agent.protocol ?? 'native'} protocol, ${this.turn.agent.files.length} file(s) changed).`;
  }
}
