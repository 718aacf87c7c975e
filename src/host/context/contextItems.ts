import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { formatTerminalRun } from '../../chat/context/terminalOutput';
import type { ContextChip } from '../../contextProtocol';
import {
  problemsText,
  readFileAttachment,
  selectionLines,
  textAttachment,
  type LineRange,
  type ReadEnv,
  type Resolved,
} from './readers';
import type { TerminalCapture } from './terminalCapture';
import { KeptDiskRead } from './diskRead';
import { openDocument } from './workspacePaths';

/**
 * An attachment waiting in the composer. It is read once when added (for its token count, and to refuse it at
 * once when it must not be sent) and read again when the message is sent, so the turn holds what the file says
 * then, unsaved edits included.
 */
export interface PendingItem {
  chip: ContextChip;
  /** Two items with the same key are the same attachment (adding it twice keeps one). */
  key: string;
  resolve(env: ReadEnv): Promise<Resolved>;
  open(): Promise<void>;
}

/** A new item, or why there is none; `info` when nothing is wrong (no problems to attach), only nothing to add. */
export type Made = { ok: true; item: PendingItem } | { ok: false; message: string; info?: boolean };

async function made(
  key: string,
  resolve: (env: ReadEnv) => Promise<Resolved>,
  open: () => Promise<void>,
  env: ReadEnv,
  detail: (a: { path: string; startLine?: number; endLine?: number }) => string = lineDetail,
): Promise<Made> {
  const first = await resolve(env);
  if (!first.ok) return first;
  const a = first.attachment;
  const chip: ContextChip = {
    id: randomUUID(),
    kind: a.kind,
    name: a.name,
    detail: detail(a),
    tokens: a.tokens,
  };
  if (a.startLine !== undefined) chip.lines = `${a.startLine}-${a.endLine}`;
  return { ok: true, item: { chip, key, resolve, open } };
}

function lineDetail(a: { path: string; startLine?: number; endLine?: number }): string {
  return a.startLine !== undefined ? `${a.path}:${a.startLine}-${a.endLine}` : a.path;
}

/** A whole workspace file. */
export function fileItem(uri: vscode.Uri, env: ReadEnv): Promise<Made> {
  const kept = new KeptDiskRead();
  return made(
    `file:${uri.toString()}`,
    // The read made when the chip is added answers the one at Enter while the file is unchanged.
    (e) => readFileAttachment(uri, e, { kept }),
    () => showRange(uri),
    env,
  );
}

/** A selection: its exact text from the editor at send (unsaved edits included), or its lines from disk once closed. */
export async function selectionItem(editor: vscode.TextEditor, env: ReadEnv): Promise<Made> {
  if (editor.selection.isEmpty)
    return { ok: false, message: vscode.l10n.t('Nothing is selected: select some code first.') };
  const uri = editor.document.uri;
  const exact = new vscode.Range(editor.selection.start, editor.selection.end);
  const range = selectionLines(exact);
  return made(
    `selection:${uri.toString()}:${range.startLine}-${range.endLine}`,
    async (e) => {
      const read = await readFileAttachment(uri, e, { kind: 'selection', range });
      const document = openDocument(uri);
      if (!read.ok || !document || read.attachment.truncated) return read;
      const content = document.getText(document.validateRange(exact));
      return { ok: true, attachment: { ...read.attachment, content } };
    },
    () => showRange(uri, range),
    env,
  );
}

/** The workspace's (or one file's) errors and warnings, read again at send; none is said, never attached. */
export async function problemsItem(scope: vscode.Uri | undefined, env: ReadEnv): Promise<Made> {
  if (problemsText(scope).count === 0) {
    const message = scope
      ? vscode.l10n.t('No problems in {0}: nothing was attached.', scope.path.split('/').pop() ?? '')
      : vscode.l10n.t('No problems in the workspace: nothing was attached.');
    return { ok: false, message, info: true };
  }
  const name = scope
    ? vscode.l10n.t('Problems: {0}', scope.path.split('/').pop() ?? '')
    : vscode.l10n.t('Problems');
  return made(
    `problems:${scope?.toString() ?? '*'}`,
    async (e) => {
      const { text, count } = problemsText(scope);
      return textAttachment('problems', name, count ? text : vscode.l10n.t('No errors or warnings.'), e);
    },
    () => vscode.commands.executeCommand('workbench.actions.view.problems') as Promise<void>,
    env,
    () => (scope ? vscode.workspace.asRelativePath(scope) : 'workspace'),
  );
}

/**
 * The output of the active terminal's last command, as it was when attached. When its output never reached the
 * extension, the chip and the block say so: an empty block would read as a command that printed nothing.
 */
export async function terminalItem(capture: TerminalCapture, env: ReadEnv): Promise<Made> {
  const last = capture.lastCommand();
  if ('unavailable' in last) return { ok: false, message: last.unavailable };
  const { terminal, command } = last;
  const name =
    command.output === undefined
      ? vscode.l10n.t('Terminal: {0} (output not captured)', terminal.name)
      : vscode.l10n.t('Terminal: {0}', terminal.name);
  const snapshot = textAttachment('terminal', name, formatTerminalRun(command), env, 'shellscript');
  return made(
    `terminal:${command.commandLine}:${command.output?.length ?? 'missed'}`,
    async () => snapshot,
    async () => terminal.show(),
    env,
    () => command.commandLine,
  );
}

/** A symbol's definition: the full range of its document symbol, found from the workspace symbol's location. */
export async function symbolItem(symbol: vscode.SymbolInformation, env: ReadEnv): Promise<Made> {
  const uri = symbol.location.uri;
  const range = await definitionRange(symbol);
  const lines = selectionLines(range);
  return made(
    `symbol:${uri.toString()}:${symbol.name}:${lines.startLine}`,
    (e) => readFileAttachment(uri, e, { kind: 'symbol', range: lines, name: symbol.name }),
    () => showRange(uri, lines),
    env,
  );
}

async function definitionRange(symbol: vscode.SymbolInformation): Promise<vscode.Range> {
  const at = symbol.location.range.start;
  try {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>(
      'vscode.executeDocumentSymbolProvider',
      symbol.location.uri,
    );
    let best: vscode.DocumentSymbol | undefined;
    const visit = (list: readonly vscode.DocumentSymbol[]): void => {
      for (const s of list) {
        if (s.range.contains(at) && s.name === symbol.name) best = s;
        if (s.range.contains(at)) visit(s.children);
      }
    };
    visit(symbols ?? []);
    if (best)
      return new vscode.Range(best.range.start.line, 0, best.range.end.line, best.range.end.character);
  } catch {
    // No document symbol provider: the workspace symbol's own range is all there is.
  }
  const r = symbol.location.range;
  return new vscode.Range(r.start.line, 0, r.end.line, r.end.character);
}

/** Opens a file, selecting a line range when given. */
export async function showRange(uri: vscode.Uri, range?: LineRange): Promise<void> {
  const selection = range
    ? new vscode.Range(range.startLine - 1, 0, Math.max(range.endLine - 1, range.startLine - 1), 0)
    : undefined;
  await vscode.window.showTextDocument(uri, { selection, preview: true });
}
