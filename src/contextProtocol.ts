/** Chat context (attachments) as the host shows it to the webview; the webview's messages are in protocol.ts. */
import type { ContextKind } from './chat/context/types';

/** An attachment waiting in the composer (or the suggested current file). */
export interface ContextChip {
  id: string;
  kind: ContextKind;
  /** Short name: file base name, "Problems", "Terminal: bash"… */
  name: string;
  /** Where it comes from: `src/a.ts:3-9`, "workspace"… */
  detail: string;
  /** Estimated tokens of the block it adds to the message. */
  tokens: number;
  /** The lines of a part of a file (a selection, a symbol), e.g. `3-7`: without them it reads like the file. */
  lines?: string;
}

/** What the `#` picker searches: everything (kinds and files), or only files or symbols. */
export const PICKER_MODES = ['all', 'files', 'symbols'] as const;
export type PickerMode = (typeof PICKER_MODES)[number];

/** One row of the `#` picker. `key` is opaque to the webview and only valid for the results it came with. */
export interface PickerItem {
  key: string;
  label: string;
  detail?: string;
  /** Codicon name. */
  icon: string;
}

export type ContextHostMessage =
  /** The composer's attachments and the suggestion, replaced whole on every change (a handful of items). */
  | {
      type: 'contextChips';
      chips: ContextChip[];
      suggestion?: ContextChip;
      /** The active model's context size, for the composer's token meter. */
      contextTokens: number;
      /** An attachment was just added without a refusal: a refusal still shown is out of date. */
      clearNotice?: boolean;
    }
  /** Picker results for `requestId`; `pending` while a search (the file index, symbols) is still running. */
  | { type: 'contextResults'; requestId: number; mode: PickerMode; items: PickerItem[]; pending: boolean }
  /** Something the user must know about an attachment or a send that was refused. */
  | { type: 'notice'; level: 'error' | 'info'; message: string }
  /** A send was refused before anything went out: put the text back in the composer. */
  | { type: 'restoreDraft'; text: string };
