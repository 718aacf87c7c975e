import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import {
  attachmentTokens,
  containsSecret,
  decodeText,
  matchExclude,
  truncateToTokens,
  type Attachment,
} from '../../chat/context';
import type { ContextSettings } from './contextSettings';
import { type KeptDiskRead, readDiskFile } from './diskRead';
import { locateInWorkspace, openDocument } from './workspacePaths';

/** An attachment read now, or the reason it cannot be sent (shown to the user as is). */
export type Resolved = { ok: true; attachment: Attachment } | { ok: false; message: string };

/** What the readers need besides the file itself. */
export interface ReadEnv {
  settings: ContextSettings;
  /** The stored API key: an attachment that contains it is refused. */
  apiKey: string | undefined;
}

/** Larger files are not read at all: the per-file token limit would cut them to a sliver anyway. */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/** Lines of a text, 1-based inclusive, as they appear in `text` (the range is applied before truncation). */
export interface LineRange {
  startLine: number;
  endLine: number;
}

/** How a file is attached: its kind, the lines sent, and the name its chip shows. */
interface AttachOptions {
  kind?: 'file' | 'selection' | 'symbol';
  range?: LineRange;
  name?: string;
}

/**
 * Reads a workspace file (or some of its lines) as an attachment, refusing what must not be sent: files outside
 * the workspace or linked out of it, secrets (by `modelGateway.context.exclude`), binary files, and text that
 * holds the API key. An open editor's text is used, unsaved changes included.
 */
export async function readFileAttachment(
  uri: vscode.Uri,
  env: ReadEnv,
  options: AttachOptions & {
    /** The file's last read, reused when the file has not changed since (and kept for the next read). */
    kept?: KeptDiskRead;
  } = {},
): Promise<Resolved> {
  const document = openDocument(uri);
  // An unchanged file needs neither its link check nor its bytes again: both are those of the earlier read.
  const unchanged =
    !document && uri.scheme === 'file' ? await options.kept?.unchanged(uri.fsPath) : undefined;
  const located = await locateInWorkspace(uri, { checkLinks: !unchanged });
  if ('refused' in located) return { ok: false, message: located.refused };
  const { path } = located;
  const pattern = matchExclude(path, env.settings.exclude);
  if (pattern !== undefined) {
    return {
      ok: false,
      message: vscode.l10n.t(
        '{0} matches the secrets pattern "{1}" (modelGateway.context.exclude); it was not attached.',
        path,
        pattern,
      ),
    };
  }
  const language = document?.languageId || languageFromPath(path);
  const where = { path, language, env, options };
  if (document) {
    const fromText = (): Resolved => attachmentOf(document.getText(), where);
    // The editor's text at this version: an unsaved edit since the chip was added is a new version.
    return options.kept
      ? keptOrMade(options.kept, document, [document.version], where, fromText)
      : fromText();
  }
  let bytes: Uint8Array;
  try {
    const read: FileRead = unchanged
      ? { kind: 'bytes', bytes: unchanged }
      : await readWorkspaceFile(uri, options.kept);
    if (read.kind === 'folder')
      return { ok: false, message: vscode.l10n.t('{0} is a folder, not a file.', path) };
    if (read.kind === 'tooLarge') {
      return {
        ok: false,
        message: vscode.l10n.t(
          '{0} is {1} MB; files over 16 MB are not attached.',
          path,
          (read.size / 1048576).toFixed(0),
        ),
      };
    }
    bytes = read.bytes;
  } catch {
    return {
      ok: false,
      message: vscode.l10n.t(
        '{0} no longer exists (deleted or renamed); attach it again or remove it.',
        path,
      ),
    };
  }
  const fromBytes = (): Resolved => {
    const decoded = decodeText(bytes);
    if (!decoded.ok)
      return {
        ok: false,
        message: vscode.l10n.t('{0} is a binary file; only text files can be attached.', path),
      };
    return attachmentOf(decoded.text, where);
  };
  // Bytes of the chip's own read (made now, or unchanged since).
  return options.kept ? keptOrMade(options.kept, bytes, [], where, fromBytes) : fromBytes();
}

/**
 * What `make` gives for `source` (the chip's bytes, or its open document), made once for the same source and
 * inputs and sent again at Enter under a new id: `more` and everything the attachment is made from count.
 */
function keptOrMade(
  kept: KeptDiskRead,
  source: object,
  more: readonly unknown[],
  where: { path: string; language: string; env: ReadEnv; options: AttachOptions },
  make: () => Resolved,
): Resolved {
  const { path, language, env, options } = where;
  const { range, kind, name } = options;
  const inputs = [
    ...more,
    path,
    language,
    env.settings.maxFileTokens,
    env.apiKey,
    kind,
    name,
    range?.startLine,
    range?.endLine,
  ];
  const made = kept.derive(source, inputs, make);
  return made.ok ? { ok: true, attachment: { ...made.attachment, id: randomUUID() } } : made;
}

/** The attachment of `text` (the file's, or its editor's), or why it is refused. */
function attachmentOf(
  whole: string,
  where: { path: string; language: string; env: ReadEnv; options: AttachOptions },
): Resolved {
  const { path, language, env, options } = where;
  let text = whole;
  const { startLine } = options.range ?? { startLine: 1 };
  let endLine = options.range?.endLine ?? 0;
  if (options.range) {
    const lines = text.split(/(?<=\n)/);
    text = lines.slice(startLine - 1, endLine).join('');
  } else {
    endLine = countLines(text);
  }
  const cut = truncateToTokens(text, env.settings.maxFileTokens);
  if (containsSecret(cut.text, env.apiKey)) {
    return {
      ok: false,
      message: vscode.l10n.t('{0} contains your Model Gateway API key; it was not attached.', path),
    };
  }
  const base: Omit<Attachment, 'tokens'> = {
    id: randomUUID(),
    kind: options.kind ?? 'file',
    name: options.name ?? (path.split('/').pop() || path),
    path,
    language,
    content: cut.text,
    ...(options.range ? { startLine, endLine } : {}),
    ...(cut.truncated ? { truncated: cut.truncated } : {}),
  };
  return { ok: true, attachment: { ...base, tokens: attachmentTokens(base) } };
}

/** A workspace file's bytes, or why they are not read. */
type FileRead =
  { kind: 'folder' } | { kind: 'tooLarge'; size: number } | { kind: 'bytes'; bytes: Uint8Array };

/** A file's bytes, or why they are not read: from the local disk directly (kept in `kept`), else through `workspace.fs`. */
async function readWorkspaceFile(uri: vscode.Uri, kept?: KeptDiskRead): Promise<FileRead> {
  if (uri.scheme === 'file')
    return kept ? kept.read(uri.fsPath, MAX_READ_BYTES) : readDiskFile(uri.fsPath, MAX_READ_BYTES);
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) return { kind: 'folder' };
  if (stat.size > MAX_READ_BYTES) return { kind: 'tooLarge', size: stat.size };
  return { kind: 'bytes', bytes: await vscode.workspace.fs.readFile(uri) };
}

/** An attachment made of text the extension composed (problems, terminal output). */
export function textAttachment(
  kind: 'problems' | 'terminal',
  name: string,
  content: string,
  env: ReadEnv,
  language = '',
): Resolved {
  const cut = truncateToTokens(content, env.settings.maxFileTokens);
  if (containsSecret(cut.text, env.apiKey)) {
    return {
      ok: false,
      message: vscode.l10n.t('{0} contains your Model Gateway API key; it was not attached.', name),
    };
  }
  const base: Omit<Attachment, 'tokens'> = {
    id: randomUUID(),
    kind,
    name,
    path: '',
    language,
    content: cut.text,
    ...(cut.truncated ? { truncated: cut.truncated } : {}),
  };
  return { ok: true, attachment: { ...base, tokens: attachmentTokens(base) } };
}

/** The lines a selection covers, 1-based; a selection ending at column 0 does not take that line. */
export function selectionLines(selection: vscode.Selection | vscode.Range): LineRange {
  const end =
    selection.end.character === 0 && selection.end.line > selection.start.line
      ? selection.end.line
      : selection.end.line + 1;
  return { startLine: selection.start.line + 1, endLine: end };
}

/**
 * Errors and warnings of one file, or of the whole workspace, as `path:line:col  severity  message (source)`;
 * `include` can leave files out (the agent keeps to the workspace and leaves secrets out).
 */
export function problemsText(
  uri?: vscode.Uri,
  include: (file: vscode.Uri) => boolean = () => true,
): { text: string; count: number } {
  const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> = uri
    ? [[uri, vscode.languages.getDiagnostics(uri)]]
    : vscode.languages.getDiagnostics();
  const lines: string[] = [];
  for (const [file, diagnostics] of entries) {
    if (!include(file)) continue;
    const path = vscode.workspace.asRelativePath(file, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
    for (const d of diagnostics) {
      if (d.severity !== vscode.DiagnosticSeverity.Error && d.severity !== vscode.DiagnosticSeverity.Warning)
        continue;
      const severity = d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning';
      const source = d.source ? ` (${d.source}${d.code !== undefined ? ` ${codeOf(d.code)}` : ''})` : '';
      lines.push(
        `${path}:${d.range.start.line + 1}:${d.range.start.character + 1}  ${severity}  ${d.message}${source}`,
      );
    }
  }
  return { text: lines.join('\n'), count: lines.length };
}

function codeOf(code: NonNullable<vscode.Diagnostic['code']>): string {
  return typeof code === 'object' ? String(code.value) : String(code);
}

function countLines(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

const EXTENSION_LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  rs: 'rust',
  go: 'go',
  java: 'java',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  hpp: 'cpp',
  rb: 'ruby',
  php: 'php',
  json: 'json',
  md: 'markdown',
  yml: 'yaml',
  yaml: 'yaml',
  html: 'html',
  css: 'css',
  scss: 'scss',
  sh: 'shellscript',
  bash: 'shellscript',
  sql: 'sql',
  toml: 'toml',
  xml: 'xml',
  kt: 'kotlin',
  swift: 'swift',
};

/** A language id for a file that is not open (VS Code assigns ids only to open documents). */
function languageFromPath(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return EXTENSION_LANGUAGES[ext] ?? ext;
}
