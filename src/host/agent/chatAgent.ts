// A chat session's agent: the Mode select, agent runs in the conversation, the changed files' Keep/Undo and diff,
// Continue after the step limit, the approval clicks (Approve/Skip, Run/Skip/Always Allow), and Restore Checkpoint.
import * as vscode from 'vscode';
import { decideAll, decideFile } from '../../agent/changedFiles';
import type { ProtocolMemory } from '../../agent/modelCall';
import type { AgentRun, ApprovalChoice, ApprovalChoiceId, ChatMode } from '../../chat/agentTurn';
import { truncateFrom } from '../../chat/conversation';
import type { AssistantTurn, Conversation, UserTurn } from '../../chat/types';
import type { ChatMessage, GatewayClient } from '../../gateway/types';
import type { AgentAvailability, HostToWebview } from '../../protocol';
import type { ExtensionConfig } from '../config';
import { AgentRunner } from './agentRun';
import type { AgentTerminals } from './agentTerminal';
import { checkpointUri } from './checkpointDocuments';
import type { CheckpointStore } from './checkpointStore';
import { readRules } from './rulesFiles';
import type { ToolEnv } from './types';
import { writeFileAtomic } from './atomicWrite';
import { resolveWorkspacePath } from './workspaceFiles';

/** What every chat's agent shares (built once in activate). */
export interface AgentServices {
  toolEnv: ToolEnv;
  checkpoints: CheckpointStore;
  /** The "Model Gateway Agent" terminals of run_command. */
  terminals: AgentTerminals;
  protocolMemory: ProtocolMemory;
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

type AgentTurn = AssistantTurn & { agent: AgentRun };

/** Whether Agent is offered, and why it cannot be chosen in Restricted Mode. */
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

  constructor(private readonly host: AgentHost) {}

  /** True when the conversation's next message goes to the agent. */
  get active(): boolean {
    const { conversation, config } = this.host;
    return conversation.mode === 'agent' && config.agent.enabled && vscode.workspace.isTrusted;
  }

  async setMode(mode: ChatMode): Promise<void> {
    const conversation = this.host.conversation;
    if (mode === 'agent' && !agentAvailability(this.host.config).enabled) return;
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
    turn.agent = { parts: [], files: [], ...(rules.names.length ? { rules: rules.names } : {}) };
    const agentTurn = turn as AgentTurn;
    this.host.post({ type: 'turnsRemoved', fromTurnId: turn.id });
    this.host.post({ type: 'turnsAdded', turns: [turn] });
    const runner = this.runner(agentTurn, user.id);
    const result = await runner.start(messages, rules.text, signal);
    this.finish(agentTurn, result, runner, signal);
  }

  private runner(turn: AgentTurn, userTurnId: string): AgentRunner {
    const runner: AgentRunner = new AgentRunner(
      { ...this.host.services, log: this.host.log, client: () => this.host.client() },
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
  async decide(turnId: string, path: string | undefined, decision: 'keep' | 'undo'): Promise<void> {
    const found = this.agentTurn(turnId);
    if (!found) return;
    const { turn, user } = found;
    const review = { turnId: user.id, files: turn.agent.files };
    const targets = turn.agent.files.filter(
      (f) => f.decision === 'pending' && (path === undefined || f.path === path),
    );
    if (decision === 'undo') {
      const checkpoints = await this.host.services.checkpoints.of(this.host.conversation.id);
      for (const file of targets) {
        const before = checkpoints.before(user.id, file.path);
        if (before !== undefined) await this.putBack(file.path, before, file.inBuffer === true);
      }
    }
    const verdict = decision === 'keep' ? 'kept' : 'undone';
    turn.agent.files = (
      path === undefined ? decideAll(review, verdict) : decideFile(review, path, verdict)
    ).files;
    await this.host.persist(this.host.conversation);
    this.host.post({ type: 'agentFiles', turnId, files: turn.agent.files });
  }

  /** Writes a file's checkpoint bytes back (or deletes a file the run created); an edited buffer gets its text back. */
  private async putBack(path: string, before: Uint8Array | 'absent', inBuffer: boolean): Promise<void> {
    const target = await resolveWorkspacePath(path);
    if ('refusal' in target) return;
    if (before === 'absent') {
      await Promise.resolve(vscode.workspace.fs.delete(target.uri, { useTrash: false })).catch(
        () => undefined,
      );
      return;
    }
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.uri.toString());
    if (inBuffer && document) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        document.uri,
        new vscode.Range(0, 0, document.lineCount, 0),
        new TextDecoder().decode(before),
      );
      await vscode.workspace.applyEdit(edit);
      return;
    }
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target.uri, '..'));
    await writeFileAtomic(target.uri, before);
  }

  /** Opens the file's change against the checkpoint in a diff editor. */
  async openChangedFile(turnId: string, path: string): Promise<void> {
    const found = this.agentTurn(turnId);
    const file = found?.turn.agent.files.find((f) => f.path === path);
    const target = await resolveWorkspacePath(path);
    if (!found || !file || 'refusal' in target) return;
    const before = checkpointUri(this.host.conversation.id, found.user.id, path);
    if (file.deleted) {
      await vscode.commands.executeCommand('vscode.open', before);
      return;
    }
    await vscode.commands.executeCommand(
      'vscode.diff',
      before,
      target.uri,
      vscode.l10n.t('{0} (before the agent ↔ now)', path),
    );
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
      await this.putBack(step.path, step.action === 'write' ? step.bytes : 'absent', inBuffer.has(step.path));
    if (first) checkpoints.dropFrom(first);
    await this.host.services.checkpoints.save(conversation.id);
    truncateFrom(conversation, turnId);
    await this.host.persist(conversation);
    this.host.postState();
    this.host.post({ type: 'restoreDraft', text: user.content });
  }
}
