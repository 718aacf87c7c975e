import * as vscode from 'vscode';
import type { InlineEdit } from './inlineEdit';

const insertedStyle = vscode.window.createTextEditorDecorationType({
  backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
  isWholeLine: false,
  overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
  overviewRulerLane: vscode.OverviewRulerLane.Left,
});

/** Shows the pending generation: a highlight on the region and Accept/Reject CodeLenses above it. */
export class EditReview implements vscode.CodeLensProvider, vscode.Disposable {
  private edit: InlineEdit | undefined;
  private streaming = false;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly registration = vscode.languages.registerCodeLensProvider({ scheme: '*' }, this);
  private readonly docListener = vscode.workspace.onDidChangeTextDocument((e) => {
    if (this.edit && e.document === this.edit.document) this.redraw();
  });

  /** Starts showing an edit (streaming) or switches it to review. */
  show(edit: InlineEdit, streaming: boolean): void {
    this.edit = edit;
    this.streaming = streaming;
    void vscode.commands.executeCommand('setContext', 'modelGateway.editPending', true);
    this.redraw();
  }

  /** Stops showing the edit. */
  clear(): void {
    if (this.edit) this.edit.editor.setDecorations(insertedStyle, []);
    this.edit = undefined;
    void vscode.commands.executeCommand('setContext', 'modelGateway.editPending', false);
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.edit || document !== this.edit.document) return [];
    const top = new vscode.Range(this.edit.range.start, this.edit.range.start);
    if (this.streaming) {
      return [
        new vscode.CodeLens(top, {
          title: '$(loading~spin) Generating… (Esc to cancel)',
          command: 'modelGateway.rejectEdit',
        }),
      ];
    }
    return [
      new vscode.CodeLens(top, { title: '$(check) Accept (Ctrl+Enter)', command: 'modelGateway.acceptEdit' }),
      new vscode.CodeLens(top, { title: '$(discard) Reject (Esc)', command: 'modelGateway.rejectEdit' }),
    ];
  }

  private redraw(): void {
    const edit = this.edit;
    if (!edit) return;
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document === edit.document) editor.setDecorations(insertedStyle, [edit.range]);
    }
    this.changed.fire();
  }

  dispose(): void {
    this.clear();
    this.registration.dispose();
    this.docListener.dispose();
    this.changed.dispose();
  }
}
