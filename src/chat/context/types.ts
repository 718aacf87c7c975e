/** Context attached to a chat turn (files, selection, open editors, problems, terminal, symbols). */

export type ContextKind = 'file' | 'selection' | 'editors' | 'problems' | 'terminal' | 'symbol';

/** Every kind, for validating stored or received attachments. */
export const CONTEXT_KINDS: readonly ContextKind[] = [
  'file',
  'selection',
  'editors',
  'problems',
  'terminal',
  'symbol',
];

/** One attached item, snapshotted into the user turn when sent (stored with the conversation). */
export interface Attachment {
  id: string;
  kind: ContextKind;
  /** Display name: file base name, 'Problems', 'Terminal: bash', symbol name… */
  name: string;
  /** Path relative to the workspace folder with '/' separators ('' when none, e.g. terminal). */
  path: string;
  /** 1-based inclusive line range of `content` in the file, when it is a part of a file. */
  startLine?: number;
  endLine?: number;
  /** VS Code language id ('' when unknown). */
  language: string;
  content: string;
  /** Estimated tokens of the formatted block. */
  tokens: number;
  /** Set when the content was cut to the per-file limit: lines kept and lines the source had. */
  truncated?: { keptLines: number; totalLines: number };
}
