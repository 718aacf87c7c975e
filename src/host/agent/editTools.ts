// The agent's edit tools: edit_file, create_file and delete_file. Each change is written as the run goes (its later
// reads and problems see it), after the file's original bytes went into the turn's checkpoint. A protected file
// (modelGateway.agent.protectedFiles) and every deletion wait for the user's click; a file with unsaved changes
// in an editor is edited in that editor's buffer, never overwritten on disk.
import * as vscode from 'vscode';
import type { FileChange } from '../../agent/changedFiles';
import type { Checkpoints, FileBefore } from '../../agent/checkpoint';
import { applyExactEdits, lineStats, type ExactEdit } from '../../agent/editText';
import { protectingPattern } from '../../agent/protectedFiles';
import type { ToolResult } from '../../agent/types';
import { decodeText, matchExclude } from '../../chat/context/safety';
import { readContextSettings } from '../context/contextSettings';
import { openDocument } from '../context/workspacePaths';
import { writeFileAtomic } from './atomicWrite';
import { refused } from './refusals';
import type { HostTool } from './types';
import { resolveWorkspacePath, type ResolvedPath } from './workspaceFiles';

/** Files the edit tools read whole; a larger one is refused (an agent edit of a huge file is a mistake). */
const MAX_EDIT_BYTES = 4 * 1024 * 1024;

/** What the edit tools need from the run. */
export interface EditEnv {
  /** The user turn the run answers: the checkpoint's key. */
  turnId: string;
  checkpoints: () => Promise<Checkpoints>;
  /** Persists the checkpoints after a record. */
  saveCheckpoints(): Promise<void>;
  protectedPatterns(): readonly string[];
  /** Asks the user in the turn (Approve / Skip); only a click resolves it. */
  approve(question: string, signal: AbortSignal): Promise<boolean>;
  /** The file's row in the changed-files list, measured against the checkpoint. */
  noteChange(change: FileChange): void;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const encoder = new TextEncoder();
const UTF8_BOM = [0xef, 0xbb, 0xbf];

function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && UTF8_BOM.every((b, i) => bytes[i] === b);
}

/** The file's current text: an open editor's (unsaved changes win), else the disk's; or why it cannot be edited. */
async function currentText(
  target: ResolvedPath,
): Promise<
  | { text: string; bytes?: Uint8Array; document?: vscode.TextDocument }
  | { result: ToolResult }
  | { missing: true }
> {
  const document = openDocument(target.uri);
  if (document?.isDirty) return { text: document.getText(), document };
  let bytes: Uint8Array;
  try {
    const stat = await vscode.workspace.fs.stat(target.uri);
    if (stat.type & vscode.FileType.Directory) return { result: refused(target.shown, { kind: 'isFolder' }) };
    if (stat.size > MAX_EDIT_BYTES)
      return {
        result: {
          // l10n-exempt: read by the model
          content: `Refused ${JSON.stringify(target.shown)}: it is ${stat.size} bytes, too large to edit with this tool.`,
          isError: true,
        },
      };
    bytes = await vscode.workspace.fs.readFile(target.uri);
  } catch {
    return { missing: true };
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { result: refused(target.shown, { kind: 'binary' }) };
  return { text: decoded.text, bytes };
}

/** Places the path, refusing what no edit may touch, and asks first for a protected file. */
async function placeForWrite(
  env: EditEnv,
  path: string,
  question: (shown: string, pattern: string | undefined) => string,
  signal: AbortSignal,
  options: { alwaysAsk?: boolean; reads?: boolean } = {},
): Promise<ResolvedPath | { result: ToolResult }> {
  const target = await resolveWorkspacePath(path);
  if ('refusal' in target) return { result: refused(path, target.refusal) };
  // An edit reads the file (its refusals quote nearby lines), so a secrets file is never edited.
  const secret = matchExclude(target.path, readContextSettings().exclude);
  if (options.reads && secret !== undefined)
    return { result: refused(target.shown, { kind: 'excluded', pattern: secret }) };
  const alwaysAsk = options.alwaysAsk ?? false;
  const pattern = protectingPattern(target.path, env.protectedPatterns());
  if (pattern !== undefined || alwaysAsk) {
    if (!(await env.approve(question(target.shown, pattern), signal)))
      return {
        result: {
          // l10n-exempt: read by the model
          content: `The user declined: ${target.shown} was not changed${pattern !== undefined ? ` (a protected file, "${pattern}")` : ''}. Do not try to change it another way.`,
          isError: true,
          summary: vscode.l10n.t('Skipped {0}', target.shown),
        },
      };
  }
  return target;
}

/** Records the file's state before the turn's first change to it; returns the recorded state. */
async function recordBefore(env: EditEnv, key: string, before: FileBefore): Promise<FileBefore> {
  const checkpoints = await env.checkpoints();
  if (checkpoints.needsRecord(env.turnId, key)) {
    checkpoints.record(env.turnId, key, before);
    await env.saveCheckpoints();
  }
  return checkpoints.before(env.turnId, key) ?? before;
}

function beforeText(before: FileBefore): string {
  if (before === 'absent') return '';
  const decoded = decodeText(before);
  return decoded.ok ? decoded.text : '';
}

/** Writes new text where the old came from: the dirty editor's buffer, or the disk (atomically, BOM kept). */
async function writeText(
  target: ResolvedPath,
  next: string,
  current: { bytes?: Uint8Array; document?: vscode.TextDocument },
): Promise<boolean> {
  if (current.document) {
    const document = current.document;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), next);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the editor refused the edit');
    return true;
  }
  const body = encoder.encode(next);
  const bytes = current.bytes && hasBom(current.bytes) ? new Uint8Array([...UTF8_BOM, ...body]) : body;
  await writeFileAtomic(target.uri, bytes);
  return false;
}

function stats(before: FileBefore, after: string): { added: number; removed: number } {
  return lineStats(beforeText(before), after);
}

/** edit_file(path, edits): exact-match replacements, all or nothing. */
export function editFileTool(env: EditEnv): HostTool {
  return async (input, signal) => {
    const path = text(input.path);
    const edits = (Array.isArray(input.edits) ? input.edits : []).map(
      (e: Record<string, unknown>): ExactEdit => ({ oldText: text(e?.oldText), newText: text(e?.newText) }),
    );
    const target = await placeForWrite(
      env,
      path,
      (shown, pattern) => vscode.l10n.t('Edit {0}? It is a protected file ({1}).', shown, pattern ?? ''),
      signal,
      { reads: true },
    );
    if ('result' in target) return target.result;
    const current = await currentText(target);
    if ('result' in current) return current.result;
    if ('missing' in current)
      return {
        content: `${JSON.stringify(target.shown)} does not exist. Use create_file to create it, or find_files to find the right path.`,
        isError: true,
      };
    const outcome = applyExactEdits(current.text, edits);
    if (!outcome.ok) return { content: outcome.message, isError: true };
    signal.throwIfAborted();
    const before = await recordBefore(env, target.shown, current.bytes ?? encoder.encode(current.text));
    const inBuffer = await writeText(target, outcome.text, current);
    const { added, removed } = stats(before, outcome.text);
    env.noteChange({
      path: target.shown,
      created: before === 'absent',
      deleted: false,
      added,
      removed,
      inBuffer,
    });
    const where = inBuffer ? ' (in the editor, where the file has unsaved changes)' : '';
    return {
      // l10n-exempt: read by the model
      content: `Edited ${target.shown}${where}: ${edits.length} edit(s) applied.`,
      summary: vscode.l10n.t('Edited {0} +{1} −{2}', target.shown, added, removed),
    };
  };
}

/** create_file(path, content): a new file; an existing one is left alone. */
export function createFileTool(env: EditEnv): HostTool {
  return async (input, signal) => {
    const path = text(input.path);
    const content = text(input.content);
    const target = await placeForWrite(
      env,
      path,
      (shown, pattern) => vscode.l10n.t('Create {0}? It is a protected file ({1}).', shown, pattern ?? ''),
      signal,
    );
    if ('result' in target) return target.result;
    const exists = await Promise.resolve(vscode.workspace.fs.stat(target.uri)).then(
      () => true,
      () => false,
    );
    if (exists)
      return {
        content: `${JSON.stringify(target.shown)} already exists. Use edit_file to change it.`,
        isError: true,
      };
    signal.throwIfAborted();
    const before = await recordBefore(env, target.shown, 'absent');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target.uri, '..'));
    await writeFileAtomic(target.uri, encoder.encode(content));
    const { added, removed } = stats(before, content);
    env.noteChange({ path: target.shown, created: before === 'absent', deleted: false, added, removed });
    return {
      // l10n-exempt: read by the model
      content: `Created ${target.shown} (${content.split('\n').length} lines).`,
      summary: vscode.l10n.t('Created {0} +{1}', target.shown, added),
    };
  };
}

/** delete_file(path): always asks first. */
export function deleteFileTool(env: EditEnv): HostTool {
  return async (input, signal) => {
    const path = text(input.path);
    const target = await placeForWrite(
      env,
      path,
      (shown, pattern) =>
        pattern === undefined
          ? vscode.l10n.t('Delete {0}?', shown)
          : vscode.l10n.t('Delete {0}? It is a protected file ({1}).', shown, pattern),
      signal,
      { alwaysAsk: true },
    );
    if ('result' in target) return target.result;
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(target.uri);
    } catch {
      return { content: `${JSON.stringify(target.shown)} does not exist.`, isError: true };
    }
    signal.throwIfAborted();
    const before = await recordBefore(env, target.shown, bytes);
    await vscode.workspace.fs.delete(target.uri, { useTrash: false });
    const removed = before === 'absent' ? 0 : beforeText(before).split('\n').length;
    env.noteChange({ path: target.shown, created: before === 'absent', deleted: true, added: 0, removed });
    return {
      // l10n-exempt: read by the model
      content: `Deleted ${target.shown}.`,
      summary: vscode.l10n.t('Deleted {0}', target.shown),
    };
  };
}
