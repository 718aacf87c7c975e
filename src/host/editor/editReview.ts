import * as vscode from 'vscode';
import { splitLines, type Segment } from '../../review/diff';
import type { InlineEdit } from './inlineEdit';
import type { ReviewSession } from './reviewSession';

const addedStyle = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
});
// Removed lines are not in the document: each is drawn after the line that replaced it, behind a "−", in the
// theme's colours for removed text: upright and not struck through (italics and a line through the glyphs
// made them hard to read), in the editor's own foreground, with the diff border high-contrast themes define.
// Each carries its own text and hover, which cost the extension host (serializing) and the editor (a CSS
// rule each), so only those near the visible lines are drawn; the overview ruler marks every one.
const removedStyle = vscode.window.createTextEditorDecorationType({
  after: {
    color: new vscode.ThemeColor('editor.foreground'),
    backgroundColor: new vscode.ThemeColor('diffEditor.removedTextBackground'),
    border: '1px dashed',
    borderColor: new vscode.ThemeColor('diffEditor.removedTextBorder'),
    margin: '0 0 0 3ch',
  },
});
const removedRulerStyle = vscode.window.createTextEditorDecorationType({
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
});
/** Lines above and below the visible ones whose removed lines are drawn too, so scrolling shows them at once. */
const MARGIN_LINES = 200;

/** A hunk as drawn: where its shown text is in the document, and the original text it replaces. */
export interface DrawnHunk {
  id?: number;
  offset: number;
  length: number;
  oldText: string;
}

/** What the decorations last showed, for tests: the added lines and the removed lines' text. */
export interface ReviewSnapshot {
  added: number[];
  removed: Array<{ line: number; text: string }>;
  hunks: number;
}

/** Shows a generation and its review in place: added lines, removed lines, CodeLenses and a status item. */
export class EditReview implements vscode.CodeLensProvider, vscode.Disposable {
  private document: vscode.TextDocument | undefined;
  private top: (() => number) | undefined;
  private hunks: DrawnHunk[] = [];
  private streaming = false;
  private session: ReviewSession | undefined;
  /** The last drawing, exposed to tests through a command. */
  snapshot: ReviewSnapshot = { added: [], removed: [], hunks: 0 };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100);
  private readonly subscriptions = [
    vscode.languages.registerCodeLensProvider({ scheme: '*' }, this),
    vscode.window.onDidChangeVisibleTextEditors(() => this.redraw()),
    vscode.window.onDidChangeTextEditorVisibleRanges((e) => {
      if (e.textEditor.document === this.document && !this.covers(e.visibleRanges)) this.redraw(false);
    }),
  ];
  /** The lines whose removed lines were last drawn. */
  private drawnWindow: { from: number; to: number } = { from: 0, to: -1 };

  /** Shows a generation while it streams: the preview diff of what has arrived so far. */
  showStreaming(edit: InlineEdit, segments: readonly Segment[]): void {
    // Only the first call changes the Generating… lens and the context keys; later ones redraw the diff, and
    // VS Code asks for the lenses again after each edit by itself.
    const started = !this.streaming || this.document !== edit.document;
    this.document = edit.document;
    this.top = () => edit.start;
    this.streaming = true;
    this.session = undefined;
    this.hunks = drawnHunks(edit.start, segments);
    if (started) this.setContext(true, false);
    this.redraw(started);
  }

  /** Shows an open review; call `refresh` whenever it changes. */
  showReview(session: ReviewSession): void {
    this.document = session.document;
    this.top = () => session.model.start;
    this.streaming = false;
    this.session = session;
    this.setContext(true, true);
    this.refresh();
  }

  /** Redraws the open review from its model. */
  refresh(): void {
    if (!this.session) return;
    this.hunks = this.session.model
      .spans()
      .filter((s) => s.hunk.state === 'pending')
      .map((s) => ({ id: s.hunk.id, offset: s.offset, length: s.length, oldText: s.hunk.oldText }));
    const left = this.hunks.length;
    this.status.text =
      left === 1 ? vscode.l10n.t('$(diff) 1 hunk left') : vscode.l10n.t('$(diff) {0} hunks left', left);
    this.status.tooltip = vscode.l10n.t(
      'Model Gateway review: Ctrl+Enter accepts all, Esc rejects all. Click for the next hunk.',
    );
    this.status.command = 'modelGateway.nextHunk';
    this.status.show();
    this.redraw();
  }

  /** Stops showing anything. */
  clear(): void {
    this.hunks = [];
    this.redraw();
    this.document = undefined;
    this.session = undefined;
    this.streaming = false;
    this.status.hide();
    this.setContext(false, false);
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.document || document !== this.document || !this.top) return [];
    const topLine = document.positionAt(this.top()).line;
    const at = (line: number): vscode.Range => new vscode.Range(line, 0, line, 0);
    if (this.streaming) {
      return [
        new vscode.CodeLens(at(topLine), {
          title: vscode.l10n.t('$(loading~spin) Generating… (Esc to cancel)'),
          command: 'modelGateway.rejectEdit',
        }),
      ];
    }
    const lenses = [
      new vscode.CodeLens(at(topLine), {
        title: vscode.l10n.t('$(check-all) Accept All (Ctrl+Enter)'),
        command: 'modelGateway.acceptEdit',
      }),
      new vscode.CodeLens(at(topLine), {
        title: vscode.l10n.t('$(discard) Reject All (Esc)'),
        command: 'modelGateway.rejectEdit',
      }),
    ];
    for (const hunk of this.hunks) {
      const line = document.positionAt(hunk.offset).line;
      lenses.push(
        new vscode.CodeLens(at(line), {
          title: vscode.l10n.t('$(check) Accept'),
          command: 'modelGateway.acceptHunk',
          arguments: [hunk.id],
        }),
        new vscode.CodeLens(at(line), {
          title: vscode.l10n.t('$(close) Reject'),
          command: 'modelGateway.rejectHunk',
          arguments: [hunk.id],
        }),
      );
    }
    return lenses;
  }

  /** Draws the hunks; `lensesChanged` false when only the visible lines moved. */
  private redraw(lensesChanged = true): void {
    const document = this.document;
    if (!document) return;
    const editors = vscode.window.visibleTextEditors.filter((e) => e.document === document);
    this.drawnWindow = drawnWindow(editors);
    const added: vscode.Range[] = [];
    const removed: vscode.DecorationOptions[] = [];
    const ruler: vscode.Range[] = [];
    for (const hunk of this.hunks) drawHunk(document, hunk, this.drawnWindow, { added, removed, ruler });
    for (const editor of editors) {
      editor.setDecorations(addedStyle, added);
      editor.setDecorations(removedStyle, removed);
      editor.setDecorations(removedRulerStyle, ruler);
    }
    this.snapshot = {
      added: added.flatMap((r) =>
        Array.from({ length: r.end.line - r.start.line + 1 }, (_, i) => r.start.line + i),
      ),
      removed: removed.map((d) => ({
        line: d.range.start.line,
        text: d.renderOptions?.after?.contentText ?? '',
      })),
      hunks: this.hunks.length,
    };
    if (lensesChanged) this.changed.fire();
  }

  /** True when the removed lines drawn cover these visible ranges. */
  private covers(ranges: readonly vscode.Range[]): boolean {
    const { from, to } = this.drawnWindow;
    return ranges.every((r) => r.start.line >= from && r.end.line <= to);
  }

  private setContext(pending: boolean, review: boolean): void {
    void vscode.commands.executeCommand('setContext', 'modelGateway.editPending', pending);
    void vscode.commands.executeCommand('setContext', 'modelGateway.reviewOpen', review);
  }

  dispose(): void {
    this.clear();
    for (const s of this.subscriptions) s.dispose();
    this.status.dispose();
    this.changed.dispose();
  }
}

/** The drawn hunks of preview segments, with document offsets from the region's start. */
function drawnHunks(start: number, segments: readonly Segment[]): DrawnHunk[] {
  const hunks: DrawnHunk[] = [];
  let offset = start;
  for (const segment of segments) {
    const shown = segment.kind === 'same' ? segment.text : segment.newText;
    if (segment.kind === 'change') hunks.push({ offset, length: shown.length, oldText: segment.oldText });
    offset += shown.length;
  }
  return hunks;
}

/** The visible lines of these editors with a margin each side; when none is visible, the first lines. */
function drawnWindow(editors: readonly vscode.TextEditor[]): { from: number; to: number } {
  const ranges = editors.flatMap((e) => e.visibleRanges);
  if (ranges.length === 0) return { from: 0, to: MARGIN_LINES };
  const from = Math.min(...ranges.map((r) => r.start.line)) - MARGIN_LINES;
  const to = Math.max(...ranges.map((r) => r.end.line)) + MARGIN_LINES;
  return { from: Math.max(0, from), to };
}

/**
 * Marks a hunk's added lines, and draws each removed line after the added line that took its place; the
 * removed lines left over go after the last added line, or after the line above a pure deletion. Removed
 * lines outside `window` get only their overview-ruler mark.
 */
function drawHunk(
  document: vscode.TextDocument,
  hunk: DrawnHunk,
  window: { from: number; to: number },
  out: { added: vscode.Range[]; removed: vscode.DecorationOptions[]; ruler: vscode.Range[] },
): void {
  const from = document.positionAt(hunk.offset);
  const to = document.positionAt(hunk.offset + hunk.length);
  const lastLine = hunk.length === 0 ? from.line - 1 : to.character === 0 ? to.line - 1 : to.line;
  if (lastLine >= from.line) out.added.push(new vscode.Range(from.line, 0, lastLine, 0));
  if (hunk.oldText === '') return;
  const anchor = Math.min(
    Math.max(lastLine >= from.line ? from.line : from.line - 1, 0),
    document.lineCount - 1,
  );
  out.ruler.push(new vscode.Range(anchor, 0, anchor, 0));
  if (Math.max(anchor, lastLine) < window.from || anchor > window.to) return;
  const oldLines = splitLines(hunk.oldText).map((l) => l.replace(/\r?\n$/, ''));
  const hover = new vscode.MarkdownString()
    .appendMarkdown('**Removed by this change:**')
    .appendCodeblock(hunk.oldText, document.languageId);
  const anchors = lastLine >= from.line ? lastLine - from.line + 1 : 0;
  const place = (line: number, texts: string[]): void => {
    const target = Math.min(Math.max(line, 0), document.lineCount - 1);
    const end = document.lineAt(target).range.end;
    out.removed.push({
      range: new vscode.Range(end, end),
      hoverMessage: hover,
      // Visible spaces: leading indentation would collapse in a decoration.
      renderOptions: {
        after: {
          contentText: `− ${texts.map((t) => t.replace(/\t/g, '  ').replace(/ /g, '\u00a0')).join('  ⏎  ')}`,
        },
      },
    });
  };
  if (anchors === 0) {
    place(from.line > 0 ? from.line - 1 : 0, oldLines);
    return;
  }
  for (let i = 0; i < anchors && i < oldLines.length; i++) {
    place(from.line + i, i === anchors - 1 ? oldLines.slice(i) : [oldLines[i]]);
  }
}
