import * as vscode from 'vscode';
import { type CompletionEngine, type CompletionQuery, contextChars } from '../../complete/engine';
import { type CompleteSettings, languageEnabled } from '../../complete/settings';
import { ReadonlyFiles, ineligibleReason } from './eligibility';

/** What the provider reads on every call; kept up to date by whoever registers it. */
export interface ProviderState {
  settings: CompleteSettings;
  exclude: readonly string[];
}

/** Ghost text from the gateway: turns VS Code's calls into engine calls, in every language. */
export class GatewayInlineCompletions implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  private readonly readonly = new ReadonlyFiles();
  private inFlightDocument: string | undefined;
  private readonly typing: vscode.Disposable;

  constructor(
    private readonly engine: CompletionEngine,
    private readonly state: () => ProviderState,
  ) {
    // A keystroke in the document of the request in flight aborts it at once, so the gateway sees the
    // connection close even before VS Code asks again.
    this.typing = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length && e.document.uri.toString() === this.inFlightDocument)
        engine.cancelInFlight();
    });
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    const { settings, exclude } = this.state();
    if (!settings.enabled || !languageEnabled(settings.languages, document.languageId)) return undefined;
    if (ineligibleReason(document, exclude)) return undefined;
    if (await this.readonly.isReadonly(document)) return undefined;
    if (token.isCancellationRequested) return undefined;

    const query = this.query(document, position, settings, context);
    const controller = new AbortController();
    const cancel = token.onCancellationRequested(() => controller.abort());
    this.inFlightDocument = query.document;
    try {
      const result = await this.engine.provide(query, controller.signal);
      if (result.kind !== 'suggestion' || token.isCancellationRequested) return undefined;
      return [new vscode.InlineCompletionItem(result.text, new vscode.Range(position, position))];
    } finally {
      cancel.dispose();
    }
  }

  /** The text around the cursor, read by offsets so a 10,000-line file costs no more than a small one. */
  private query(
    document: vscode.TextDocument,
    position: vscode.Position,
    settings: CompleteSettings,
    context: vscode.InlineCompletionContext,
  ): CompletionQuery {
    const offset = document.offsetAt(position);
    const chars = contextChars(settings.contextTokens);
    const start = document.positionAt(Math.max(0, offset - chars));
    const end = document.positionAt(offset + chars);
    const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
    const tabSize = typeof editor?.options.tabSize === 'number' ? editor.options.tabSize : 4;
    const insertSpaces =
      typeof editor?.options.insertSpaces === 'boolean' ? editor.options.insertSpaces : true;
    return {
      document: document.uri.toString(),
      fileName:
        document.uri.scheme === 'untitled'
          ? document.fileName
          : vscode.workspace.asRelativePath(document.uri, false),
      languageId: document.languageId,
      offset,
      before: document.getText(new vscode.Range(start, position)),
      after: document.getText(new vscode.Range(position, end)),
      tabSize,
      insertSpaces,
      eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
      explicit: context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke,
    };
  }

  dispose(): void {
    this.typing.dispose();
    this.readonly.dispose();
  }
}
