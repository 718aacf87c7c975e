import * as vscode from 'vscode';
import type { Segment } from '../../review/diff';
import { ReviewModel } from '../../review/model';
import { StreamingDiff } from '../../review/streaming';
import { AutoSaveGuard } from './autoSaveGuard';
import { EditReview, type ReviewSnapshot } from './editReview';
import type { InlineEdit } from './inlineEdit';
import { ReviewSession } from './reviewSession';
import { saveClosedAsIs } from './saveAsIs';

type Active =
  | { kind: 'streaming'; edit: InlineEdit; abort: AbortController; diff: StreamingDiff }
  | { kind: 'review'; session: ReviewSession; hooks?: FileReviewHooks };

/**
 * A review of a change a file already holds (an agent run's edit, against its checkpoint): nothing waits to be
 * written on Accept, so auto-save stays as it is and closing the file just ends the review.
 */
export interface FileReviewHooks {
  /** Hunks were put back in the document; `wasClean` when it had no unsaved changes before. */
  rejected(document: vscode.TextDocument, model: ReviewModel, wasClean: boolean): Promise<void>;
  /** The review ended: every hunk decided (`model.done`), or closed with hunks left. */
  ended(model: ReviewModel): void;
}

/**
 * The one edit the extension proposes at a time: while it streams (an InlineEdit owns the region) and then
 * while its hunks are reviewed (a ReviewSession follows the document). The review commands (registered at
 * activation, editReviewHost.ts) call its public methods.
 */
export class ReviewController implements vscode.Disposable {
  private readonly view = new EditReview();
  private active: Active | undefined;
  private readonly autoSave = new AutoSaveGuard();
  /** Settles once auto-save is off for the document of the edit in progress. */
  private autoSaveOff: Promise<void> = Promise.resolve();
  /** Set while the question asked on closing the reviewed file waits for an answer. */
  private asking = false;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.subscriptions.push(
      this.view,
      this.autoSave,
      vscode.workspace.onDidCloseTextDocument((doc) => {
        // While the close question waits, the review outlives its document: Cancel opens the file again.
        if (this.active?.kind === 'review' && doc === this.active.session.document && !this.asking)
          this.finish();
      }),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        if (e.closed.length > 0) void this.askOnClose(e.closed);
      }),
    );
  }

  /** True while an edit streams or waits for review. */
  get busy(): boolean {
    return this.active !== undefined;
  }

  /** What the review's decorations show, for tests. */
  get snapshot(): ReviewSnapshot {
    return this.view.snapshot;
  }

  /**
   * Starts turning auto-save off for `document` ahead of `startStreaming`, so that the settings write overlaps
   * the caller's own preparation instead of holding back the stream's first edit. A caller that then proposes
   * nothing calls `finish`.
   */
  holdAutoSave(document: vscode.TextDocument): void {
    if (this.active) return;
    this.autoSaveOff = this.autoSave.hold(document);
  }

  /** Starts showing a streaming edit of `original`, and turns auto-save off for its document. */
  startStreaming(edit: InlineEdit, abort: AbortController, original: string): void {
    this.active = { kind: 'streaming', edit, abort, diff: new StreamingDiff(original) };
    this.autoSaveOff = this.autoSave.hold(edit.document);
    this.view.showStreaming(edit, []);
  }

  /** Settles once auto-save is off for the edit's document: wait for it before writing the proposal. */
  whenAutoSaveOff(): Promise<void> {
    return this.autoSaveOff;
  }

  /** Notes auto-save suspensions in `memento`, and ends one that an earlier session left behind. */
  recoverAutoSave(memento: vscode.Memento): Promise<void> {
    return this.autoSave.recover(memento);
  }

  /** Shows the diff of the part streamed so far; `code` is what the region now holds. */
  preview(code: string): void {
    if (this.active?.kind !== 'streaming') return;
    const { diff, edit } = this.active;
    const open = diff.update(toEol(edit.document, code));
    this.view.showStreaming(edit, [...diff.settledSegments, ...open]);
  }

  /** Diffs the finished stream ahead across event-loop turns, so `finalSegments` and `startReview` block little. */
  async prepare(code: string): Promise<void> {
    await this.autoSaveOff;
    if (this.active?.kind !== 'streaming') return;
    const { diff, edit } = this.active;
    await diff.prepare(toEol(edit.document, code), () => new Promise((resolve) => setImmediate(resolve)));
  }

  /** The whole change `code` makes to the streamed region, reusing the streaming diff's settled part. */
  finalSegments(code: string): Segment[] | undefined {
    if (this.active?.kind !== 'streaming') return undefined;
    return this.active.diff.finish(toEol(this.active.edit.document, code));
  }

  /** Turns the finished stream, already written in full, into a review of its hunks. */
  startReview(code: string): number {
    if (this.active?.kind !== 'streaming') return 0;
    const { diff, edit } = this.active;
    const model = new ReviewModel(diff.finish(toEol(edit.document, code)), edit.start);
    const session = new ReviewSession(edit.document, model, () => this.changed());
    edit.dispose();
    this.active = { kind: 'review', session };
    if (model.done) {
      this.finish();
      return 0;
    }
    this.view.showReview(session);
    return model.pending.length;
  }

  /**
   * Opens the review of a change `document` already holds, against `original`; returns its hunk count (0 opens
   * nothing). Refused (undefined) while Generate Code streams or waits for review: ending that review would leave
   * its proposal unreviewed. Another file change's review ends first (its file stays listed).
   */
  openFileReview(
    document: vscode.TextDocument,
    original: string,
    hooks: FileReviewHooks,
  ): number | undefined {
    if (this.active && (this.active.kind === 'streaming' || !this.active.hooks)) return undefined;
    if (this.active) this.finish();
    const model = ReviewModel.fromTexts(toEol(document, original), document.getText());
    if (model.done) return 0;
    const session = new ReviewSession(document, model, () => this.changed());
    this.active = { kind: 'review', session, hooks };
    this.view.showReview(session);
    return model.pending.length;
  }

  /** Ends the review of a file change open on `uri`, if any, without deciding its hunks left; returns its model. */
  endFileReview(uri: vscode.Uri): ReviewModel | undefined {
    const active = this.active;
    if (active?.kind !== 'review' || !active.hooks) return undefined;
    if (active.session.document.uri.toString() !== uri.toString()) return undefined;
    this.finish();
    return active.session.model;
  }

  /** Ends whatever is shown. */
  finish(): void {
    const ended = this.active;
    if (ended?.kind === 'streaming') ended.edit.dispose();
    if (ended?.kind === 'review') ended.session.dispose();
    this.active = undefined;
    this.view.clear();
    void this.autoSave.release();
    if (ended?.kind === 'review') ended.hooks?.ended(ended.session.model);
  }

  private changed(): void {
    if (this.active?.kind !== 'review') return;
    if (this.active.session.model.done) this.finish();
    else this.view.refresh();
  }

  /** Accept All: keeps every hunk left. */
  acceptAll(): boolean {
    if (this.active?.kind !== 'review') return false;
    this.active.session.acceptAll();
    return true;
  }

  /** Reject All: cancels a streaming edit, or puts back every hunk left. */
  async rejectAll(): Promise<boolean> {
    if (!this.active) return false;
    if (this.active.kind === 'streaming') {
      this.active.abort.abort();
      return true;
    }
    const { session, hooks } = this.active;
    const wasClean = !session.document.isDirty;
    const ok = await session.reject(session.model.pending.map((h) => h.id));
    if (ok) await hooks?.rejected(session.document, session.model, wasClean);
    if (!ok) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The document kept changing, so the original text could not be put back. Use Undo to remove the generated code.',
        ),
      );
      if (this.active?.kind === 'review' && this.active.session === session) this.finish();
    }
    return ok;
  }

  /** Keeps one hunk (see `target`). */
  acceptHunk(id?: number): boolean {
    const hunk = this.target(id);
    return hunk !== undefined && this.active?.kind === 'review' && this.active.session.accept(hunk);
  }

  /** Puts one hunk's original text back (see `target`). */
  async rejectHunk(id?: number): Promise<boolean> {
    const hunk = this.target(id);
    if (hunk === undefined || this.active?.kind !== 'review') return false;
    const { session, hooks } = this.active;
    const wasClean = !session.document.isDirty;
    const ok = await session.reject([hunk]);
    if (ok) await hooks?.rejected(session.document, session.model, wasClean);
    return ok;
  }

  /** The hunk a command means: the one given, else the one at or after the cursor, else the first. */
  private target(id?: number): number | undefined {
    if (this.active?.kind !== 'review') return undefined;
    const { model, document } = this.active.session;
    if (typeof id === 'number') return id;
    const editor = vscode.window.activeTextEditor;
    const cursor = editor?.document === document ? document.offsetAt(editor.selection.active) : 0;
    const spans = model.spans().filter((s) => s.hunk.state === 'pending');
    return (spans.find((s) => s.offset + s.length >= cursor) ?? spans[0])?.hunk.id;
  }

  /** Moves the cursor to the next (1) or previous (-1) hunk left, wrapping around, and shows it. */
  async reveal(direction: 1 | -1): Promise<boolean> {
    if (this.active?.kind !== 'review') return false;
    const { model, document } = this.active.session;
    const editor = await vscode.window.showTextDocument(document);
    const cursor = document.offsetAt(editor.selection.active);
    const starts = model
      .spans()
      .filter((s) => s.hunk.state === 'pending')
      .map((s) => s.offset);
    if (starts.length === 0) return false;
    const next =
      direction === 1
        ? (starts.find((o) => o > cursor) ?? starts[0])
        : ([...starts].reverse().find((o) => o < cursor) ?? starts[starts.length - 1]);
    const position = document.positionAt(next);
    editor.selection = new vscode.Selection(position, position);
    editor.revealRange(
      new vscode.Range(position, position),
      vscode.TextEditorRevealType.InCenterIfOutsideViewport,
    );
    return true;
  }

  /**
   * When the reviewed file's last tab closes, asks whether to keep the changes left. VS Code cannot veto a
   * close, so Cancel opens the file again in its group, with the review as it was.
   */
  private async askOnClose(closed: readonly vscode.Tab[]): Promise<void> {
    if (this.active?.kind !== 'review' || this.asking) return;
    // A file change is on disk already, and its file stays listed: closing the file just ends its review.
    if (this.active.hooks) return;
    const session = this.active.session;
    const uri = session.document.uri.toString();
    const isReviewed = (t: vscode.Tab): boolean =>
      t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri;
    const tab = closed.find(isReviewed);
    if (!tab || vscode.window.tabGroups.all.some((g) => g.tabs.some(isReviewed))) return;
    const text = session.document.getText();
    const name = vscode.workspace.asRelativePath(session.document.uri);
    const keep = vscode.l10n.t('Keep');
    const discard = vscode.l10n.t('Discard');
    this.asking = true;
    try {
      const answer = await vscode.window.showInformationMessage(
        vscode.l10n.t('Keep the changes still under review in {0}?', name),
        { modal: true },
        keep,
        discard,
      );
      if (this.active?.kind !== 'review' || this.active.session !== session) return;
      if (answer === keep) {
        session.acceptAll();
        return;
      }
      const current = await this.reattach(session, text);
      if (!current) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            "{0} changed while it was closed, so its review ended. Use Undo or the file's history to go back.",
            name,
          ),
        );
        this.finish();
      } else if (answer === discard) {
        // The file as it was before the review, as is: format on save would rewrite the lines put back.
        if (await current.reject(current.model.pending.map((h) => h.id)))
          await saveClosedAsIs(current.document);
        this.finish();
      } else {
        await vscode.window.showTextDocument(current.document, {
          viewColumn: tab.group.viewColumn,
          preview: false,
        });
      }
    } finally {
      this.asking = false;
    }
  }

  /**
   * The review's session on the open document of its file: the same one, or, when VS Code closed the document
   * with its tab, a new one on the reopened document, if it still holds `text`.
   */
  private async reattach(session: ReviewSession, text: string): Promise<ReviewSession | undefined> {
    // Opening it also holds the document for the extension, so it is not closed while we use it.
    const document = await vscode.workspace.openTextDocument(session.document.uri);
    if (document === session.document) return session;
    if (document.getText() !== text) return undefined;
    const next = new ReviewSession(document, session.model, () => this.changed());
    session.dispose();
    this.active = { kind: 'review', session: next };
    this.view.showReview(next);
    return next;
  }

  dispose(): void {
    this.finish();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The text with the document's own line endings, as InlineEdit writes it. */
function toEol(document: vscode.TextDocument, text: string): string {
  return document.eol === vscode.EndOfLine.CRLF
    ? text.replace(/\r?\n/g, '\r\n')
    : text.replace(/\r\n/g, '\n');
}
