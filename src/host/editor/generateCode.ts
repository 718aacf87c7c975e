import * as vscode from 'vscode';
import { requireTrust } from '../trust';
import { extractCode } from '../../chat/codeExtract';
import { codeGenerationMessages } from '../../chat/prompts';
import { buildChatRequest } from '../chatRequest';
import type { ExtensionConfig } from '../config';
import { isUserAbort, showError } from '../errors';
import type { GatewayService } from '../gatewayService';
import { codePlacer, surroundingLines } from './editorContext';
import { askInstruction } from './instructionInput';
import { InlineEdit } from './inlineEdit';
import type { ReviewController } from './reviewController';
import { streamCodeIntoEdit } from './streamCodeIntoEdit';

/** Options for automation: skip the instruction prompt. */
export interface GenerateCodeOptions {
  instruction?: string;
}

/** What the command did, returned to callers such as tests. */
export type GenerateCodeResult = {
  status: 'review' | 'cancelled' | 'failed' | 'empty' | 'unavailable';
  code?: string;
};

/**
 * Generate Code (streamed into the editor, then reviewed hunk by hunk in `review`); `lastEditor` is the
 * extension's editor tracker (its state lives in the activation bundle, editorTracker.ts).
 */
export function generateCodeCommand(
  context: vscode.ExtensionContext,
  gateway: GatewayService,
  getConfig: () => ExtensionConfig,
  review: ReviewController,
  lastEditor: () => vscode.TextEditor | undefined,
): (options?: GenerateCodeOptions) => Promise<GenerateCodeResult> {
  const finish = (): void => review.finish();

  const generate = async (options?: GenerateCodeOptions): Promise<GenerateCodeResult> => {
    if (!(await requireTrust(vscode.l10n.t('Generate Code')))) return { status: 'unavailable' };
    const editor = vscode.window.activeTextEditor ?? lastEditor();
    if (!editor) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Open a file first: Generate Code writes into the active editor.'),
      );
      return { status: 'unavailable' };
    }
    if (vscode.workspace.fs.isWritableFileSystem(editor.document.uri.scheme) === false) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} is read-only, so code cannot be generated into it.', editor.document.fileName),
      );
      return { status: 'unavailable' };
    }
    if (review.busy) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Accept or reject the pending generated code first.'),
      );
      return { status: 'unavailable' };
    }
    const instruction =
      typeof options?.instruction === 'string'
        ? options.instruction.trim()
        : await askInstruction(context, editor);
    if (!instruction) return { status: 'cancelled' };
    if (!(await gateway.requireKey())) return { status: 'unavailable' };

    const config = getConfig();
    const selection = editor.selection;
    const original = editor.document.getText(selection);
    // Where the code goes is decided against the document as it is now: streaming changes the region.
    const place = codePlacer(editor.document, selection);
    const { before, after } = surroundingLines(editor.document, selection, 20);
    const messages = codeGenerationMessages(instruction, {
      fileName: vscode.workspace.asRelativePath(editor.document.uri),
      languageId: editor.document.languageId,
      selection: original,
      before,
      after,
    });
    const abort = new AbortController();
    const edit = new InlineEdit(editor, selection, original, () => abort.abort());
    review.startStreaming(edit, abort, original);

    let text: string;
    try {
      const request = buildChatRequest(config.chat.model, messages, config);
      text = await streamCodeIntoEdit(
        gateway,
        request,
        edit,
        review,
        abort,
        vscode.l10n.t('Model Gateway: generating code…'),
      );
    } catch (error) {
      const conflict = edit.conflict;
      if (!conflict) await edit.restore();
      finish();
      if (conflict) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('Generation stopped because the generated region was edited.'),
        );
      } else if (!isUserAbort(error) && !abort.signal.aborted) {
        void showError(
          error,
          vscode.l10n.t('Code generation failed; the original text was restored.'),
          gateway.log,
        );
        return { status: 'failed' };
      }
      return { status: 'cancelled' };
    }
    const answer = extractCode(text, true);
    if (!answer.trim()) {
      await edit.restore();
      finish();
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The model answered without any code; the document was left unchanged.'),
      );
      return { status: 'empty' };
    }
    const code = place(answer);
    await review.prepare(code);
    if (!(await edit.setCode(code, true))) {
      // Only reached when the user typed without a pause for the whole wait: keep the code, not a part of it.
      const restored = await edit.restore();
      finish();
      await vscode.env.clipboard.writeText(code);
      void vscode.window.showWarningMessage(
        restored
          ? vscode.l10n.t(
              'The document kept changing, so the generated code could not be written into it. The original text is back, and the generated code is on the clipboard.',
            )
          : vscode.l10n.t(
              'The document kept changing, so the generated code could not be written into it. Undo puts the original text back, and the generated code is on the clipboard.',
            ),
      );
      return { status: 'failed', code };
    }
    review.startReview(code);
    return { status: 'review', code };
  };

  return generate;
}
