// A changed file of an agent run, opened in the editor with the per-hunk review of Generate Code: its text now
// against its checkpoint. The file already holds the run's text, so Accept writes nothing; Reject puts the hunk's
// original lines back at once, into the editor's buffer and, when the file had no unsaved changes, to disk.
import * as vscode from 'vscode';
import { decisionOfHunks, type FileDecision } from '../../agent/changedFiles';
import { lineStats } from '../../agent/editText';
import type { ReviewModel } from '../../review/model';
import type { EditReviewHost } from '../editor/editReviewHost';
import { saveAsIs } from '../editor/saveAsIs';
import { documentAsOnDisk } from './documentAsOnDisk';

/** A file decided hunk by hunk: how, and its lines now against the checkpoint. */
export type HunksDecided = (
  decision: Exclude<FileDecision, 'pending'>,
  lines: { added: number; removed: number },
) => void;

/** What the review of one changed file needs. */
export interface AgentFileReview {
  uri: vscode.Uri;
  /** The file's text in the checkpoint ('' for a file the run created). */
  original: string;
  /** The run created the file: putting every hunk back deletes it, as Undo does. */
  created: boolean;
  decided: HunksDecided;
}

/**
 * Opens the file with its hunks under review; false when nothing differs from the checkpoint any more or Generate
 * Code holds the review (the caller shows the plain diff then).
 */
export async function openAgentFileReview(review: EditReviewHost, file: AgentFileReview): Promise<boolean> {
  const document = await vscode.workspace.openTextDocument(file.uri);
  await vscode.window.showTextDocument(document, { preview: false });
  // The file watcher may not have reloaded the run's last write yet: a stale text would show no hunks.
  await documentAsOnDisk(document);
  const hunks = review.openFileReview(document, file.original, {
    rejected: (doc, model, wasClean) => writeBack(doc, model, file, wasClean),
    ended: (model) => {
      const decision = decisionOfHunks(model.hunks);
      if (!model.done || decision === undefined) return;
      file.decided(decision, lineStats(file.original, document.getText()));
    },
  });
  if (hunks === undefined)
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Accept or reject the pending generated code first.'),
    );
  return (hunks ?? 0) > 0;
}

/**
 * Puts rejected hunks on disk at once: VS Code saves the document the rejection just edited (the editor and the disk
 * stay one, with the file's own line endings and encoding), without format on save and the other save participants,
 * which would rewrite lines the user kept. A document that had unsaved changes keeps them in its buffer only: saving
 * would write the user's unsaved text. A created file with every hunk put back is deleted.
 */
async function writeBack(
  document: vscode.TextDocument,
  model: ReviewModel,
  file: AgentFileReview,
  wasClean: boolean,
): Promise<void> {
  if (!wasClean) return;
  if (!(await saveAsIs(document)))
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        '{0} could not be saved: the lines put back are in the editor only. Save the file to put them on disk.',
        vscode.workspace.asRelativePath(document.uri),
      ),
    );
  if (file.created && decisionOfHunks(model.hunks) === 'undone') {
    await Promise.resolve(vscode.workspace.fs.delete(file.uri, { useTrash: false })).catch(() => undefined);
  }
}
