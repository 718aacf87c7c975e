import * as vscode from 'vscode';
import { documentChangedSince } from './documentChange';

/** How long the last edit of a generation (or a restore) keeps being tried while the user keeps typing. */
const LAST_EDIT_PATIENCE_MS = 30_000;
/** The longest wait between two tries when no change from the user arrives. */
const LAST_EDIT_RETRY_MS = 20;

interface PendingChange {
  offset: number;
  length: number;
  text: string;
}

/**
 * The region of a document that a generation owns while it streams and waits for review.
 * It follows the user's typing elsewhere in the document, so offsets stay right and nothing is corrupted.
 */
export class InlineEdit implements vscode.Disposable {
  start: number;
  end: number;
  /** Set when the user edited inside the region: streaming stops and the text is left for review. */
  conflict = false;
  private inserted = '';
  private readonly expected: PendingChange[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly subscription: vscode.Disposable;
  private firstEdit = true;
  /** How many `setCode` calls were made: a streamed update with a later one queued behind it is skipped. */
  private calls = 0;

  constructor(
    readonly editor: vscode.TextEditor,
    range: vscode.Range,
    readonly original: string,
    private readonly onConflict: () => void,
  ) {
    this.start = editor.document.offsetAt(range.start);
    this.end = editor.document.offsetAt(range.end);
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === editor.document) this.track(e.contentChanges);
    });
  }

  get document(): vscode.TextDocument {
    return this.editor.document;
  }

  /** The region as a range of the current document. */
  get range(): vscode.Range {
    return new vscode.Range(this.document.positionAt(this.start), this.document.positionAt(this.end));
  }

  /**
   * Makes the region hold `code`, editing only the part that differs; edits are queued, never interleaved. A
   * streamed update (not `last`) that is still queued when a later call comes is dropped (resolves false): the
   * later one carries its text, and the editor has one round trip less to make while the stream runs ahead.
   */
  setCode(code: string, last = false): Promise<boolean> {
    const call = ++this.calls;
    const next = this.queue.then(() => (!last && call !== this.calls ? false : this.apply(code, last)));
    this.queue = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /** Puts the original text back, byte for byte. */
  restore(): Promise<boolean> {
    this.inserted = '\u0000'; // forces a whole-region replacement
    return this.setCode(this.original, true);
  }

  private async apply(rawCode: string, last: boolean): Promise<boolean> {
    if (this.conflict && !last) return false;
    // The document stores its own line endings; matching them keeps our change events recognisable.
    const code =
      this.document.eol === vscode.EndOfLine.CRLF
        ? rawCode.replace(/\r?\n/g, '\r\n')
        : rawCode.replace(/\r\n/g, '\n');
    // VS Code refuses an edit made against a document version the user has since typed past. A streamed
    // update can be dropped (the next one carries its text), but the last one must land: it is tried again
    // as soon as this side has seen the user's change, when its version is current.
    const deadline = Date.now() + LAST_EDIT_PATIENCE_MS;
    for (;;) {
      const version = this.document.version;
      if (await this.tryEdit(code, last)) return true;
      if (!last || Date.now() > deadline) return false;
      await documentChangedSince(this.document, version, LAST_EDIT_RETRY_MS);
    }
  }

  /** One edit from the current region to `code`, against the document version of this moment. */
  private async tryEdit(code: string, last: boolean): Promise<boolean> {
    let prefix = 0;
    const limit = Math.min(code.length, this.inserted.length);
    while (prefix < limit && code.charCodeAt(prefix) === this.inserted.charCodeAt(prefix)) prefix++;
    const offset = this.start + prefix;
    const change = { offset, length: this.end - offset, text: code.slice(prefix) };
    if (change.length === 0 && change.text === '' && !last) return true;
    this.expected.push(change);
    const range = new vscode.Range(this.document.positionAt(offset), this.document.positionAt(this.end));
    const ok = await this.write(range, change.text, last);
    const index = this.expected.indexOf(change);
    if (!ok && index >= 0) this.expected.splice(index, 1);
    if (ok) {
      this.firstEdit = false;
      this.inserted = code;
    }
    return ok;
  }

  /**
   * Replaces `range` through an editor of the document when one is shown, so the streamed edits join one undo
   * step (the last one closes it). The TextEditor the edit began in is closed once the user switches to another
   * tab (VS Code then refuses its edits); another shown editor of the same document takes its place, and with
   * none shown the document is edited directly, so the generation goes on and nothing is left half-written.
   */
  private async write(range: vscode.Range, text: string, last: boolean): Promise<boolean> {
    const shown = vscode.window.visibleTextEditors;
    const editor = shown.includes(this.editor)
      ? this.editor
      : shown.find((e) => e.document === this.document);
    if (editor) {
      const edited = await editor
        .edit((edit) => edit.replace(range, text), { undoStopBefore: this.firstEdit, undoStopAfter: last })
        .then(
          (ok) => ok,
          () => undefined, // closed between the check and the edit: the document is edited directly below
        );
      if (edited !== undefined) return edited;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(this.document.uri, range, text);
    return vscode.workspace.applyEdit(edit);
  }

  private track(changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
    // Apply from the end so earlier offsets of the same event stay valid.
    const ordered = [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset);
    for (const change of ordered) {
      const delta = change.text.length - change.rangeLength;
      const head = this.expected[0];
      if (
        head &&
        head.offset === change.rangeOffset &&
        head.length === change.rangeLength &&
        head.text === change.text
      ) {
        this.expected.shift();
        this.end += delta;
        continue;
      }
      const from = change.rangeOffset;
      const to = from + change.rangeLength;
      if (to <= this.start) {
        this.start += delta;
        this.end += delta;
      } else if (from >= this.end) {
        continue;
      } else {
        this.end = Math.max(this.start, this.end + delta);
        if (!this.conflict) {
          this.conflict = true;
          this.onConflict();
        }
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
