import * as vscode from 'vscode';
import { ReviewModel, type TextChange } from '../../review/model';
import { documentChangedSince } from './documentChange';

/** How long a rejection keeps being tried while the user keeps typing (VS Code refuses edits to old versions). */
const PATIENCE_MS = 30_000;
/** The longest wait between two tries when no change from the user arrives. */
const RETRY_MS = 20;

/**
 * An open review in one document: the pure model, kept in step with every change of the document, and the
 * edits that reject hunks. It works on the document, not an editor, so it survives switching editors.
 */
export class ReviewSession implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;

  constructor(
    readonly document: vscode.TextDocument,
    readonly model: ReviewModel,
    private readonly changed: () => void,
  ) {
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== document || e.contentChanges.length === 0) return;
      // The changes of one event are all against the text before it: follow them from the last.
      const ordered = [...e.contentChanges].sort((a, b) => b.rangeOffset - a.rangeOffset);
      for (const c of ordered) {
        this.model.applyDocumentChange({ offset: c.rangeOffset, length: c.rangeLength, text: c.text });
      }
      this.changed();
    });
  }

  /** The hunk's shown text as a range of the document. */
  rangeOf(id: number): vscode.Range | undefined {
    const span = this.model.spans().find((s) => s.hunk.id === id);
    if (!span) return undefined;
    return new vscode.Range(
      this.document.positionAt(span.offset),
      this.document.positionAt(span.offset + span.length),
    );
  }

  /** Keeps a hunk as proposed. */
  accept(id: number): boolean {
    const ok = this.model.accept(id);
    this.changed();
    return ok;
  }

  /** Keeps every hunk left. */
  acceptAll(): void {
    this.model.acceptAll();
    this.changed();
  }

  /** Puts the original text of the given hunks back, in one edit, trying again while the user types. */
  async reject(ids: readonly number[]): Promise<boolean> {
    const deadline = Date.now() + PATIENCE_MS;
    for (;;) {
      const changes = ids.flatMap((id) => this.model.rejectChange(id) ?? []);
      if (changes.length === 0) return true;
      const version = this.document.version;
      const ok = await this.tryEdit(changes);
      // A change that landed was matched and dropped already; the rest did not land.
      for (const change of changes) this.model.forget(change);
      if (ok) {
        this.changed();
        return true;
      }
      if (Date.now() > deadline) return false;
      await documentChangedSince(this.document, version, RETRY_MS);
    }
  }

  private async tryEdit(changes: TextChange[]): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    for (const change of changes) {
      const range = new vscode.Range(
        this.document.positionAt(change.offset),
        this.document.positionAt(change.offset + change.length),
      );
      edit.replace(this.document.uri, range, change.text);
    }
    try {
      return await vscode.workspace.applyEdit(edit);
    } catch {
      return false;
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
