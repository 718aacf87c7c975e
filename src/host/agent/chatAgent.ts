// A chat session's agent: the Mode select, agent runs in the conversation, the changed files (changedFileActions.ts),
// Continue after the step limit, the approval clicks (Approve/Skip, Run/Skip/Always Allow), and Restore Checkpoint.
import * as vscode from 'vscode';
import type { ProtocolMemory } from '../../agent/modelCall';
import type { AgentRun, ApprovalChoice, ApprovalChoiceId, ChatMode } from '../../chat/agentTurn';
import { CARRY_OUT_PLAN } from '../../agent/planMode';
import { truncateFrom } from '../../chat/conversation';
import type { AssistantTurn, Conversation, UserTurn } from '../../chat/types';
import type { ChatMessage, GatewayClient } from '../../gateway/types';
import type { AgentAvailability, HostToWebview } from '../../protocol';
import type { ExtensionConfig } from '../config';
import type { EditReviewHost } from '../editor/editReviewHost';
import type { AgentRunner } from './agentRun';
import type { AgentTerminals } from './agentTerminal';
import { ChangedFileActions, putBack } from './changedFileActions';
import type { CheckpointStore } from './checkpointStore';
import { readRules } from './rulesFiles';
import type { ToolCatalog } from './toolCatalog';
import type { AlwaysAllowedTools, McpToolSource } from './toolSources';
import type { ToolEnv } from './types';

/** What every chat's agent shares (built once in activate). */
export interface AgentServices {
  toolEnv: ToolEnv;
  checkpoints: CheckpointStore;
  /** The "Model Gateway Agent" terminals of run_command. */
  terminals: AgentTerminals;
  protocolMemory: ProtocolMemory;
  /** The tools a run can offer and the user's choice among them (the Tools picker). */
  tools: ToolCatalog;
  /** The editor's per-hunk review (Generate Code's), where a changed file opens. */
  review?: EditReviewHost;
  /** The window's MCP servers. */
  mcp?: McpToolSource;
  /** MCP tools the user always allows in this workspace. */
  mcpAlways?: AlwaysAllowedTools;
}

/** What the agent needs of its chat session. */
export interface AgentHost {
  readonly conversation: Conversation;
  readonly config: ExtensionConfig;
  readonly services: AgentServices;
  readonly log: { info(message: string): void; warn(message: string): void; error(message: string): void };
  client(): GatewayClient;
  post(message: HostToWebview): void;
  postState(): void;
  /** Saves the conversation now. */
  persist(conversation: Conversation): Promise<void>;
  scheduleSave(conversation: Conversation): void;
  /** Sends `text` as the user's next message and answers it (in the conversation's mode). */
  send(text: string): Promise<void>;
  /** Runs `work` as the conversation's request in flight (Stop aborts its signal). */
  inFlight(work: (signal: AbortSignal) => Promise<void>): Promise<void>;
  /** Asks the user to confirm an action that cannot be undone; the modal dialog unless a test gives another. */
  confirm?: ConfirmAction;
}

/** Resolves true when the user confirms `action` after reading `question` and `detail`. */
export type ConfirmAction = (question: string, detail: string, action: string) => Promise<boolean>;

/** The modal warning with one button: true when the user clicked `action`. */
const confirmModal: ConfirmAction = async (question, detail, action) =>
  (await vscode.window.showWarningMessage(question, { modal: true, detail }, action)) === action;

/** An assistant turn that is an agent run. */
export type AgentTurn = AssistantTurn & { agent: AgentRun };

/**
 * The run-time of agent runs, required on the first run: in the shipped bundle `./agentRuntime` is the separate
 * dist/agent.js (esbuild.mjs), so a window that never runs the agent never parses it.
 */
function agentRuntime(): typeof import('./agentRuntime') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./agentRuntime') as typeof import('./agentRuntime');
}

/**
 * Whether Agent and Plan are offered, and why Agent cannot be chosen in Restricted Mode. Plan stays available
 * there: its tools only read inside the workspace (the secrets files refused), as Ask's # context does, and run
 * nothing of the workspace's.
 */
export function agentAvailability(config: ExtensionConfig): AgentAvailability {
  return {
    enabled: config.agent.enabled,
    ...(vscode.workspace.isTrusted
      ? {}
      : {
          disabledReason: vscode.l10n.t(
            'Agent mode edits files, so it needs a trusted workspace. Trust this folder to use it.',
          ),
        }),
  };
}

/** The agent of one chat session. */
export class ChatAgent {
  /** Runs that can be continued (paused at the step limit), by assistant turn id. */
  private readonly runners = new Map<string, AgentRunner>();
  /** Clicks awaited, by `${turnId}/${callId}`: the choices offered, and what takes the answer. */
  private readonly approvals = new Map<
    string,
    { offered: readonly ApprovalChoiceId[]; done: (choice: ApprovalChoiceId | undefined) => void }
  >();
  private readonly files: ChangedFileActions;
  /** MCP tools the user let run (Run), by conversation: their later calls in that conversation do not ask again. */
  private readonly mcpAllowed = new Map<string, Set<string>>();

  constructor(private readonly host: AgentHost) {
    this.files = new ChangedFileActions(host, (turnId) => this.agentTurn(turnId));
  }

  /** True when the conversation's next message goes to the agent (in Agent or Plan mode). */
  get active(): boolean {
    const { conversation, config } = this.host;
    if (!config.agent.enabled) return false;
    return conversation.mode === 'plan' || (conversation.mode === 'agent' && vscode.workspace.isTrusted);
  }

  /**
   * The chat's hand-off to Agent mode: runs the agent for the last user turn, then saves the conversation and
   * marks the turn finished in the webview (while this chat still shows the conversation).
   */
  async answerAndFinish(turn: AssistantTurn, messages: ChatMessage[], signal: AbortSignal): Promise<void> {
    const conversation = this.host.conversation;
    await this.answer(turn, messages, signal);
    await this.host.persist(conversation);
    const status = turn.status === 'streaming' ? 'complete' : turn.status;
    turn.status = status;
    if (this.host.conversation === conversation)
      this.host.post({ type: 'turnFinished', turnId: turn.id, status, error: turn.error });
  }

  async setMode(mode: ChatMode): Promise<void> {
    const conversation = this.host.conversation;
    if (mode !== 'ask' && !agentAvailability(this.host.config).enabled) return;
    conversation.mode = mode;
    if (conversation.turns.length) await this.host.persist(conversation);
    this.host.post({ type: 'mode', mode, agent: agentAvailability(this.host.config) });
  }

  /** Runs the agent to answer the last user turn; `turn` is the empty assistant turn already shown. */
  async answer(turn: AssistantTurn, messages: ChatMessage[], signal: AbortSignal): Promise<void> {
    const conversation = this.host.conversation;
    const user = [...conversation.turns].reverse().find((t): t is UserTurn => t.role === 'user');
    if (!user) return;
    const rules = this.host.config.agent.useRulesFiles ? await readRules() : { text: '', names: [] };
    const plan = conversation.mode === 'plan';
    turn.agent = {
      parts: [],
      files: [],
      ...(rules.names.length ? { rules: rules.names } : {}),
      ...(plan ? { plan: true } : {}),
    };
    // A Plan run may use its own model; the turn's header names the model that answered.
    if (plan && this.host.config.agent.planModel) turn.model = this.host.config.agent.planModel;
    const agentTurn = turn as AgentTurn;
    this.host.post({ type: 'turnsRemoved', fromTurnId: turn.id });
    this.host.post({ type: 'turnsAdded', turns: [turn] });
    const runner = this.runner(agentTurn, user.id);
    const result = await runner.start(messages, rules.text, signal);
    this.finish(agentTurn, result, runner, signal);
  }

  /** The MCP tools allowed in one conversation (a new chat asks again). */
  private allowedIn(conversationId: string): Set<string> {
    let allowed = this.mcpAllowed.get(conversationId);
    if (!allowed) this.mcpAllowed.set(conversationId, (allowed = new Set()));
    return allowed;
  }

  private runner(turn: AgentTurn, userTurnId: string): AgentRunner {
    const runner: AgentRunner = new (agentRuntime().AgentRunner)(
      {
        ...this.host.services,
        log: this.host.log,
        client: () => this.host.client(),
        mcpAllowed: this.allowedIn(this.host.conversation.id),
      },
      this.host.config,
      this.host.conversation,
      turn,
      userTurnId,
      {
        post: (m) => this.host.post(m),
        changed: () => this.host.scheduleSave(this.host.conversation),
        ask: (callId, question, choices, signal) =>
          this.ask(turn.id, callId, question, choices, signal, runner),
      },
    );
    this.runners.set(turn.id, runner);
    return runner;
  }

  private finish(
    turn: AgentTurn,
    result: Awaited<ReturnType<AgentRunner['start']>>,
    runner: AgentRunner,
    signal: AbortSignal,
  ): void {
    this.host.log.info(runner.describe(result));
    if (!runner.paused) this.runners.delete(turn.id);
    const status =
      signal.aborted || result.status === 'stopped'
        ? 'stopped'
        : result.status === 'failed'
          ? 'error'
          : 'complete';
    turn.status = status;
    if (result.status === 'failed' && result.error)
      turn.error = {
        message:
          result.error.kind === 'model' && result.error.cause instanceof Error
            ? result.error.cause.message
            : result.error.message,
      };
    else delete turn.error;
  }

  /**
   * "Start with Agent" under a finished plan: the conversation goes to Agent mode and asks for the plan to be
   * carried out. The plan is the answer just before, so it is in the history the request sends.
   */
  async startWithAgent(turnId: string): Promise<void> {
    const turn = this.host.conversation.turns.find(
      (t): t is AgentTurn => t.id === turnId && t.role === 'assistant' && !!t.agent?.plan,
    );
    if (!turn || turn.status !== 'complete') return;
    const availability = agentAvailability(this.host.config);
    if (!availability.enabled || availability.disabledReason !== undefined) {
      const message =
        availability.disabledReason ?? vscode.l10n.t('Agent mode is off (modelGateway.agent.enabled).');
      this.host.post({ type: 'notice', level: 'info', message });
      return;
    }
    await this.setMode('agent');
    await this.host.send(CARRY_OUT_PLAN);
  }

  /** Resumes a run paused at the step limit. */
  async continueRun(turnId: string): Promise<void> {
    const runner = this.runners.get(turnId);
    const turn = this.host.conversation.turns.find(
      (t): t is AgentTurn => t.id === turnId && t.role === 'assistant' && !!t.agent,
    );
    if (!turn) return;
    if (!runner || !runner.paused) {
      // The run's steps lived in the window that ran it: after a reload there is nothing to resume.
      turn.agent.paused = false;
      await this.host.persist(this.host.conversation);
      this.host.post({ type: 'agentPaused', turnId, paused: false });
      this.host.post({
        type: 'notice',
        level: 'info',
        message: vscode.l10n.t(
          'This run cannot go on after the window was reloaded. Send a new message to carry on from where it stopped.',
        ),
      });
      return;
    }
    await this.host.inFlight(async (signal) => {
      turn.status = 'streaming';
      const result = await runner.continue(signal);
      this.finish(turn, result, runner, signal);
      await this.host.persist(this.host.conversation);
      this.host.post({
        type: 'turnFinished',
        turnId,
        status: turn.status === 'streaming' ? 'complete' : turn.status,
        error: turn.error,
      });
    });
  }

  /** Waits for the user's click on one of `choices` on the row of `callId`; Stop resolves undefined. */
  private ask(
    turnId: string,
    callId: string,
    question: string,
    choices: readonly ApprovalChoice[],
    signal: AbortSignal,
    runner: AgentRunner,
  ): Promise<ApprovalChoiceId | undefined> {
    runner.showApproval(callId, question, choices);
    return new Promise<ApprovalChoiceId | undefined>((resolve) => {
      const key = `${turnId}/${callId}`;
      const done = (choice: ApprovalChoiceId | undefined): void => {
        this.approvals.delete(key);
        signal.removeEventListener('abort', stopped);
        resolve(choice);
      };
      const stopped = (): void => done(undefined);
      if (signal.aborted) return done(undefined);
      signal.addEventListener('abort', stopped, { once: true });
      this.approvals.set(key, { offered: choices.map((c) => c.id), done });
    });
  }

  /** The Tools picker opened: sends it every tool with its state (starting MCP servers, as a run does). */
  async openTools(): Promise<void> {
    this.host.post({ type: 'tools', tools: await this.host.services.tools.entries() });
  }

  /** The Tools button shown: sends the tools known so far, for its count, without starting MCP servers. */
  async listTools(): Promise<void> {
    this.host.post({ type: 'tools', tools: await this.host.services.tools.entries({ start: false }) });
  }

  /** A Tools picker checkbox: keeps the choice for the workspace and redraws the list. */
  async setToolEnabled(name: string, enabled: boolean): Promise<void> {
    this.host.post({ type: 'tools', tools: await this.host.services.tools.setEnabled(name, enabled) });
  }

  /** The user's click on a choice; a choice the row did not offer answers nothing. */
  approve(turnId: string, callId: string, choice: ApprovalChoiceId): void {
    const waiting = this.approvals.get(`${turnId}/${callId}`);
    if (waiting?.offered.includes(choice)) waiting.done(choice);
  }

  private agentTurn(turnId: string): { turn: AgentTurn; user: UserTurn } | undefined {
    const turns = this.host.conversation.turns;
    const index = turns.findIndex((t) => t.id === turnId);
    const turn = turns[index];
    if (turn?.role !== 'assistant' || !turn.agent) return undefined;
    const user = turns
      .slice(0, index)
      .reverse()
      .find((t): t is UserTurn => t.role === 'user');
    return user ? { turn: turn as AgentTurn, user } : undefined;
  }

  /** Keep or Undo one changed file of a run, or all of them. */
  decide(turnId: string, path: string | undefined, decision: 'keep' | 'undo'): Promise<void> {
    return this.files.decide(turnId, path, decision);
  }

  /** Opens a changed file: under review while it waits for a decision, else as a diff against the checkpoint. */
  openChangedFile(turnId: string, path: string): Promise<void> {
    return this.files.open(turnId, path);
  }

  /** Puts every file changed since `turnId` (a user turn) back, removes that turn and the later ones. */
  async restoreCheckpoint(turnId: string): Promise<void> {
    const conversation = this.host.conversation;
    const user = conversation.turns.find((t): t is UserTurn => t.id === turnId && t.role === 'user');
    if (!user) return;
    const checkpoints = await this.host.services.checkpoints.of(conversation.id);
    const known = checkpoints.turnIds();
    const from = conversation.turns.indexOf(user);
    const later = conversation.turns
      .slice(from)
      .filter((t) => t.role === 'user')
      .map((t) => t.id);
    const first = later.find((id) => known.includes(id));
    const plan = first ? checkpoints.restorePlan(first) : [];
    const confirm = this.host.confirm ?? confirmModal;
    const confirmed = await confirm(
      vscode.l10n.t('Restore the checkpoint of this message?'),
      vscode.l10n.t(
        '{0} file(s) go back to how they were before it, and this message and the {1} turn(s) after it are removed.',
        plan.length,
        conversation.turns.length - from - 1,
      ),
      vscode.l10n.t('Restore'),
    );
    if (!confirmed) return;
    // A file the runs edited in an editor with unsaved changes gets its text back there: its checkpoint holds that
    // unsaved text, which must not land on disk.
    const inBuffer = new Set(
      conversation.turns
        .slice(from)
        .flatMap((t) => (t.role === 'assistant' && t.agent ? t.agent.files : []))
        .filter((f) => f.inBuffer)
        .map((f) => f.path),
    );
    for (const step of plan)
      await putBack(step.path, step.action === 'write' ? step.bytes : 'absent', inBuffer.has(step.path));
    if (first) checkpoints.dropFrom(first);
    await this.host.services.checkpoints.save(conversation.id);
    truncateFrom(conversation, turnId);
    await this.host.persist(conversation);
    this.host.postState();
    this.host.post({ type: 'restoreDraft', text: user.content });
  }
}
