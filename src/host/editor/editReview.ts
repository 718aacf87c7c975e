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
// Removed lines are not in the document: each is drawn, struck through, after the line that replaced it.
const removedStyle = vscode.window.createTextEditorDecorationType({
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
  after: {
    backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
    textDecoration: 'line-through',
    fontStyle: 'italic',
    margin: '0 0 0 3ch',
  },
});

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
  ];

  /** Shows a generation while it streams: the preview diff of what has arrived so far. */
  showStreaming(edit: InlineEdit, segments: readonly Segment[]): void {
    this.document = edit.document;
    this.top = () => edit.start;
    this.streaming = true;
    this.session = undefined;
    this.hunks = drawnHunks(edit.start, segments);
    this.setContext(true, false);
    this.redraw();
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
    this.status.text = `$(diff) ${left} ${left === 1 ? 'hunk' : 'hunks'} left`;
    this.status.tooltip =
      'Model Gateway review: Ctrl+Enter accepts all, Esc rejects all. Click for the next hunk.';
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
          title: '$(loading~spin) Generating… (Esc to cancel)',
          command: 'modelGateway.rejectEdit',
        }),
      ];
    }
    const lenses = [
      new vscode.CodeLens(at(topLine), {
        title: '$(check-all) Accept All (Ctrl+Enter)',
        command: 'modelGateway.acceptEdit',
      }),
      new vscode.CodeLens(at(topLine), {
        title: '$(discard) Reject All (Esc)',
        command: 'modelGateway.rejectEdit',
      }),
    ];
    for (const hunk of this.hunks) {
      const line = document.positionAt(hunk.offset).line;
      lenses.push(
        new vscode.CodeLens(at(line), {
          title: 'Accept',
          command: 'modelGateway.acceptHunk',
          arguments: [hunk.id],
        }),
        new vscode.CodeLens(at(line), {
          title: 'Reject',
          command: 'modelGateway.rejectHunk',
          arguments: [hunk.id],
        }),
      );
    }
    return lenses;
  }

  private redraw(): void {
    const document = this.document;
    if (!document) return;
    const added: vscode.Range[] = [];
    const removed: vscode.DecorationOptions[] = [];
    for (const hunk of this.hunks) drawHunk(document, hunk, added, removed);
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document !== document) continue;
      editor.setDecorations(addedStyle, added);
      editor.setDecorations(removedStyle, removed);
    }
    this.snapshot = {
      added: added.map((r) => r.start.line),
      removed: removed.map((d) => ({
        line: d.range.start.line,
        text: d.renderOptions?.after?.contentText ?? '',
      })),
      hunks: this.hunks.length,
    };
    this.changed.fire();
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

/**
 * Marks a hunk's added lines, and draws each removed line after the added line that took its place; the
 * removed lines left over go after the last added line, or after the line above a pure deletion.
 */
function drawHunk(
  document: vscode.TextDocument,
  hunk: DrawnHunk,
  added: vscode.Range[],
  removed: vscode.DecorationOptions[],
): void {
  const from = document.positionAt(hunk.offset);
  const to = document.positionAt(hunk.offset + hunk.length);
  const lastLine = hunk.length === 0 ? from.line - 1 : to.character === 0 ? to.line - 1 : to.line;
  for (let line = from.line; line <= lastLine; line++) added.push(document.lineAt(line).range);
  const oldLines = splitLines(hunk.oldText).map((l) => l.replace(/\r?\n$/, ''));
  if (oldLines.length === 0) return;
  const hover = new vscode.MarkdownString()
    .appendMarkdown('**Removed by this change:**')
    .appendCodeblock(hunk.oldText, document.languageId);
  const anchors = lastLine >= from.line ? lastLine - from.line + 1 : 0;
  const place = (line: number, texts: string[]): void => {
    const target = Math.min(Math.max(line, 0), document.lineCount - 1);
    const end = document.lineAt(target).range.end;
    removed.push({
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
