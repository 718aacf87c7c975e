// The changed files of an agent run: Keep and Undo on a row (or on all of them), and a row's file opened under the
// editor's per-hunk review, whose outcome decides the row.
import * as vscode from 'vscode';
import { decideAll, decideFile, decideHunks, type FileDecision } from '../../agent/changedFiles';
import { decodeText } from '../../chat/context/safety';
import type { UserTurn } from '../../chat/types';
import { openAgentFileReview } from './agentFileReview';
import { writeFileAtomic } from './atomicWrite';
import type { AgentHost, AgentTurn } from './chatAgent';
import { checkpointUri } from './checkpointDocuments';
import { resolveWorkspacePath } from './workspaceFiles';

/** Keep, Undo and the review of one chat's changed files. */
export class ChangedFileActions {
  constructor(
    private readonly host: AgentHost,
    /** The agent turn `turnId` and the user turn it answers. */
    private readonly find: (turnId: string) => { turn: AgentTurn; user: UserTurn } | undefined,
  ) {}

  /** Keep or Undo one changed file of a run, or all of them. */
  async decide(turnId: string, path: string | undefined, decision: 'keep' | 'undo'): Promise<void> {
    const found = this.find(turnId);
    if (!found) return;
    const { turn, user } = found;
    const review = { turnId: user.id, files: turn.agent.files };
    const targets = turn.agent.files.filter(
      (f) => f.decision === 'pending' && (path === undefined || f.path === path),
    );
    // A file whose review is open: the review ends; Keep keeps the file as it is now, hunks put back included.
    const partly = new Set<string>();
    for (const file of targets) {
      const target = await resolveWorkspacePath(file.path);
      const model = 'refusal' in target ? undefined : this.host.services.review?.endFileReview(target.uri);
      if (model?.hunks.some((h) => h.state === 'rejected')) partly.add(file.path);
    }
    if (decision === 'undo') {
      const checkpoints = await this.host.services.checkpoints.of(this.host.conversation.id);
      for (const file of targets) {
        const before = checkpoints.before(user.id, file.path);
        if (before !== undefined) await putBack(file.path, before, file.inBuffer === true);
      }
    }
    const verdict = decision === 'keep' ? 'kept' : 'undone';
    turn.agent.files = (
      path === undefined ? decideAll(review, verdict) : decideFile(review, path, verdict)
    ).files.map((f) => (verdict === 'kept' && partly.has(f.path) ? { ...f, decision: 'partial' } : f));
    await this.host.persist(this.host.conversation);
    this.host.post({ type: 'agentFiles', turnId, files: turn.agent.files });
  }

  /**
   * Opens a changed file: while it waits for a decision, in the editor with its hunks under review against the
   * checkpoint; once decided (or when the review cannot open), as a diff editor of the checkpoint against now.
   */
  async open(turnId: string, path: string): Promise<void> {
    const found = this.find(turnId);
    const file = found?.turn.agent.files.find((f) => f.path === path);
    const target = await resolveWorkspacePath(path);
    if (!found || !file || 'refusal' in target) return;
    const before = checkpointUri(this.host.conversation.id, found.user.id, path);
    if (file.deleted) {
      await vscode.commands.executeCommand('vscode.open', before);
      return;
    }
    const review = this.host.services.review;
    const original = await this.checkpointText(found.user.id, path);
    // While the run goes on it may edit the file again, which a review would take for the user's typing.
    const running = found.turn.status === 'streaming';
    if (review && !running && file.decision === 'pending' && original !== undefined) {
      const opened = await openAgentFileReview(review, {
        uri: target.uri,
        original,
        created: file.created,
        decided: (decision, lines) => void this.decidedByHunks(turnId, path, decision, lines),
      });
      if (opened) return;
    }
    await vscode.commands.executeCommand(
      'vscode.diff',
      before,
      target.uri,
      vscode.l10n.t('{0} (before the agent ↔ now)', path),
    );
  }

  /** The file's checkpoint as text ('' for a file the run created); undefined when it is not text. */
  private async checkpointText(userTurnId: string, path: string): Promise<string | undefined> {
    const checkpoints = await this.host.services.checkpoints.of(this.host.conversation.id);
    const before = checkpoints.before(userTurnId, path);
    if (before === undefined) return undefined;
    if (before === 'absent') return '';
    const decoded = decodeText(before);
    return decoded.ok ? decoded.text : undefined;
  }

  /** Records a file whose every hunk was decided in the editor's review. */
  private async decidedByHunks(
    turnId: string,
    path: string,
    decision: Exclude<FileDecision, 'pending'>,
    lines: { added: number; removed: number },
  ): Promise<void> {
    const found = this.find(turnId);
    const file = found?.turn.agent.files.find((f) => f.path === path);
    if (!found || file?.decision !== 'pending') return;
    const run = found.turn.agent;
    run.files = decideHunks({ turnId: found.user.id, files: run.files }, path, decision, lines).files;
    await this.host.persist(this.host.conversation);
    this.host.post({ type: 'agentFiles', turnId, files: run.files });
  }
}

/** Writes a file's checkpoint bytes back (or deletes a file the run created); an edited buffer gets its text back. */
export async function putBack(path: string, before: Uint8Array | 'absent', inBuffer: boolean): Promise<void> {
  const target = await resolveWorkspacePath(path);
  if ('refusal' in target) return;
  if (before === 'absent') {
    await Promise.resolve(vscode.workspace.fs.delete(target.uri, { useTrash: false })).catch(() => undefined);
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
