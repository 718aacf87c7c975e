import { readFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { requireTrust } from '../trust';
import { extractCode } from '../../chat/codeExtract';
import type { CodeQuote } from '../../chat/types';
import {
  checkMerge,
  findQuote,
  isLazyLine,
  isWholeFile,
  matchFinalNewline,
  withoutNameComment,
} from '../../review/apply';
import { mergeMessages } from '../../review/mergePrompt';
import { buildChatRequest } from '../chatRequest';
import type { ExtensionConfig } from '../config';
import { isUserAbort, showError } from '../errors';
import type { GatewayService } from '../gatewayService';
import { isUnsafeRelativePath } from '../../chat/context/safety';
import { findWorkspaceFile, locateInWorkspace, openDocument } from '../context/workspacePaths';
import { InlineEdit } from './inlineEdit';
import type { ReviewController } from './reviewController';
import { streamCodeIntoEdit } from './streamCodeIntoEdit';

/** A chat code block to apply, with the file it names and the quoted selection its turn answered. */
export interface ApplyRequest {
  code: string;
  language?: string;
  target?: string;
  quote?: CodeQuote;
}

/** What Apply did, returned to callers such as tests. */
export interface ApplyResult {
  status: 'review' | 'unchanged' | 'cancelled' | 'failed' | 'refused' | 'unavailable';
  mode?: 'direct' | 'merge';
  file?: string;
  hunks?: number;
  message?: string;
}

/**
 * `modelGateway.applyCodeBlock` (the chat's Apply button): a block into a file, reviewed in `review`;
 * `lastEditor` is the extension's editor tracker (its state lives in the activation bundle).
 */
export function applyCodeBlockCommand(
  gateway: GatewayService,
  getConfig: () => ExtensionConfig,
  review: ReviewController,
  lastEditor: () => vscode.TextEditor | undefined,
): (request: ApplyRequest) => Promise<ApplyResult> {
  const warn = (message: string, status: ApplyResult['status'], file?: string): ApplyResult => {
    void vscode.window.showWarningMessage(message);
    return { status, file, message };
  };

  const apply = async (request: ApplyRequest): Promise<ApplyResult> => {
    if (!(await requireTrust(vscode.l10n.t('Apply'))))
      return {
        status: 'unavailable',
        message: vscode.l10n.t('The workspace is not trusted. Nothing was changed.'),
      };
    const code = String(request?.code ?? '');
    const uri = await resolveTarget(
      typeof request?.target === 'string' ? request.target : undefined,
      lastEditor,
    );
    if (!uri) {
      return warn(
        vscode.l10n.t(
          'Apply needs a file: open the file to apply the code to, or name it in the code block (```ts src/file.ts). Nothing was changed.',
        ),
        'unavailable',
      );
    }
    const name = vscode.workspace.asRelativePath(uri);
    // Read meanwhile: an open document is compared with its file once shown (catchUpWithDisk).
    const disk = diskText(uri);
    if (await isReadOnly(uri))
      return warn(
        vscode.l10n.t('{0} is read-only, so the code was not applied. Nothing was changed.', name),
        'unavailable',
        name,
      );
    if (review.busy)
      return warn(vscode.l10n.t('Accept or reject the pending edit first.'), 'unavailable', name);
    if (!code.trim())
      return warn(vscode.l10n.t('The code block is empty; nothing was applied.'), 'unavailable', name);

    const document = await vscode.workspace.openTextDocument(uri);
    review.holdAutoSave(document);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    await catchUpWithDisk(document, await disk);
    const wasDirty = document.isDirty;
    const current = document.getText();
    const block = toEol(document, withoutNameComment(code, current));

    const quoted =
      request.quote && request.quote.fileName === name
        ? findQuote(current, toEol(document, request.quote.code), request.quote.startLine)
        : undefined;
    const lazy = block.split('\n').some(isLazyLine);
    if ((quoted && !lazy) || isWholeFile(current, block)) {
      const region = quoted ?? { offset: 0, length: current.length };
      const original = current.slice(region.offset, region.offset + region.length);
      const proposed = quoted ? matchFinalNewline(original, block) : matchFinalNewline(current, block);
      const range = new vscode.Range(
        document.positionAt(region.offset),
        document.positionAt(region.offset + region.length),
      );
      const abort = new AbortController();
      const edit = new InlineEdit(editor, range, original, () => abort.abort());
      review.startStreaming(edit, abort, original);
      await review.prepare(proposed);
      if (!(await edit.setCode(proposed, true))) {
        await edit.restore();
        review.finish();
        return warn(vscode.l10n.t('{0} kept changing, so the code was not applied.', name), 'failed', name);
      }
      const hunks = review.startReview(proposed);
      if (hunks === 0) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('{0} already holds this code; nothing to review.', name),
        );
        return { status: 'unchanged', mode: 'direct', file: name, hunks };
      }
      return { status: 'review', mode: 'direct', file: name, hunks };
    }

    if (!(await gateway.requireKey())) {
      review.finish();
      return { status: 'unavailable', file: name };
    }
    const config = getConfig();
    const model = config.edit.applyModel;
    const messages = mergeMessages({
      fileName: name,
      languageId: document.languageId,
      fileText: current,
      block,
    });
    const { stop: _stop, ...base } = buildChatRequest(model, messages, config);
    const chatRequest = { ...base, temperature: 0 };
    const abort = new AbortController();
    const range = new vscode.Range(document.positionAt(0), document.positionAt(current.length));
    const edit = new InlineEdit(editor, range, current, () => abort.abort());
    review.startStreaming(edit, abort, current);
    const giveBack = async (): Promise<void> => {
      await edit.restore();
      review.finish();
      await revertIfUnchanged(document, wasDirty);
    };

    let text: string;
    try {
      text = await streamCodeIntoEdit(
        gateway,
        chatRequest,
        edit,
        review,
        abort,
        vscode.l10n.t('Model Gateway: merging the code block into {0}…', name),
      );
    } catch (error) {
      await giveBack();
      if (!isUserAbort(error) && !abort.signal.aborted) {
        void showError(
          error,
          vscode.l10n.t('The merge into {0} failed; the file was left as it was.', name),
          gateway.log,
        );
        return { status: 'failed', mode: 'merge', file: name };
      }
      return { status: 'cancelled', mode: 'merge', file: name };
    }

    const merged = matchFinalNewline(current, toEol(document, extractCode(text, true)));
    await review.prepare(merged);
    const check = checkMerge(current, merged, review.finalSegments(merged));
    if (!check.ok) {
      await giveBack();
      return warn(
        vscode.l10n.t(
          'The merge from {0} was not applied: {1}. {2} was left as it was; try Insert or Copy instead.',
          model,
          check.reason,
          name,
        ),
        'refused',
        name,
      );
    }
    if (!(await edit.setCode(merged, true))) {
      await giveBack();
      return warn(vscode.l10n.t('{0} kept changing, so the merge was not applied.', name), 'failed', name);
    }
    const hunks = review.startReview(merged);
    if (hunks === 0) {
      await revertIfUnchanged(document, wasDirty);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('{0} already holds this code; nothing to review.', name),
      );
      return { status: 'unchanged', mode: 'merge', file: name, hunks };
    }
    return { status: 'review', mode: 'merge', file: name, hunks };
  };

  return apply;
}

/** The file a block names, when it is in the workspace; else the active editor's file. */
async function resolveTarget(
  named: string | undefined,
  lastEditor: () => vscode.TextEditor | undefined,
): Promise<vscode.Uri | undefined> {
  if (named) {
    const found = await findNamed(named.replace(/\\/g, '/').replace(/^\.\//, ''));
    if (found) return found;
  }
  const editor = lastEditor();
  return editor && editor.document.uri.scheme !== 'output' ? editor.document.uri : undefined;
}

async function findNamed(path: string): Promise<vscode.Uri | undefined> {
  if (path.startsWith('/')) {
    const located = await locateInWorkspace(vscode.Uri.file(path));
    return 'uri' in located ? located.uri : undefined;
  }
  const exact = openWorkspaceFile(path) ?? (await findWorkspaceFile(path));
  if (exact) return exact;
  // A bare or partial name (`a.ts`, `lib/a.ts`) counts when exactly one workspace file ends with it.
  if (/[[\]{}*?!]/.test(path) || path.split('/').includes('..')) return undefined;
  const matches = await vscode.workspace.findFiles(`**/${path}`, '**/node_modules/**', 2);
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * The workspace file at relative `path` when it is open in the first folder that could hold it, as
 * findWorkspaceFile would find it, without its file-system round trip; undefined to ask the file system.
 */
function openWorkspaceFile(path: string): vscode.Uri | undefined {
  if (isUnsafeRelativePath(path)) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0];
  const document = folder && openDocument(vscode.Uri.joinPath(folder.uri, ...path.split('/')));
  return document && !document.isUntitled ? document.uri : undefined;
}

async function isReadOnly(uri: vscode.Uri): Promise<boolean> {
  if (vscode.workspace.fs.isWritableFileSystem(uri.scheme) === false) return true;
  if (uri.scheme !== 'file') return false;
  try {
    // Node's own stat of the local file: through workspace.fs it was a round trip to the window, 150-340 ms of
    // Apply's wait before anything showed in code-server (bench case 8). VS Code's disk provider marks a file
    // locked when its owner may not write it; no write bit for anyone is read-only too, even for a root process
    // that could write it anyway.
    const { mode } = await stat(uri.fsPath);
    return (mode & 0o200) === 0 || (mode & 0o222) === 0;
  } catch {
    return true;
  }
}

/** The file's text on disk, read with Node (a local read, not a round trip through the window). */
async function diskText(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme !== 'file') return undefined;
  try {
    // TextDecoder drops a UTF-8 BOM, as the document's text does.
    return new TextDecoder().decode(await readFile(uri.fsPath));
  } catch {
    return undefined;
  }
}

/**
 * An open document without unsaved changes whose file changed on disk (`disk`, its text read just before) is
 * reloaded first, so the review is computed against the file as it is now (VS Code's watcher may not have
 * caught up yet).
 */
async function catchUpWithDisk(document: vscode.TextDocument, disk: string | undefined): Promise<void> {
  if (document.isDirty) return;
  if (disk === undefined || disk === document.getText()) return;
  await vscode.commands.executeCommand('workbench.action.files.revert');
  const deadline = Date.now() + 2000;
  while (document.getText() !== disk && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/** After a merge put the original back, a document that had no unsaved changes is reloaded clean. */
async function revertIfUnchanged(document: vscode.TextDocument, wasDirty: boolean): Promise<void> {
  if (wasDirty || !document.isDirty) return;
  if ((await diskText(document.uri)) !== document.getText()) return;
  if (vscode.window.activeTextEditor?.document !== document)
    await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

/** The text with the document's own line endings. */
function toEol(document: vscode.TextDocument, text: string): string {
  return document.eol === vscode.EndOfLine.CRLF
    ? text.replace(/\r?\n/g, '\r\n')
    : text.replace(/\r\n/g, '\n');
}
