import * as vscode from 'vscode';
import { DEFAULT_CONTEXT_EXCLUDE } from '../../chat/context';

/** The settings that govern chat attachments. */
export interface ContextSettings {
  /** Glob patterns of files never attached (secrets). */
  exclude: readonly string[];
  /** A file above this many estimated tokens is cut, and the block says where. */
  maxFileTokens: number;
  /** Offer the active editor's file as a suggested chip. */
  suggestCurrentFile: boolean;
}

export const DEFAULT_MAX_FILE_TOKENS = 20_000;

/** Reads the context settings; a wrong type falls back to the default rather than failing a send. */
export function readContextSettings(): ContextSettings {
  const config = vscode.workspace.getConfiguration('modelGateway');
  const exclude = config.get<unknown>('context.exclude');
  const maxFileTokens = config.get<unknown>('context.maxFileTokens');
  return {
    exclude: Array.isArray(exclude)
      ? exclude.filter((p): p is string => typeof p === 'string' && p.trim() !== '')
      : DEFAULT_CONTEXT_EXCLUDE,
    maxFileTokens:
      typeof maxFileTokens === 'number' && Number.isFinite(maxFileTokens) && maxFileTokens >= 100
        ? Math.floor(maxFileTokens)
        : DEFAULT_MAX_FILE_TOKENS,
    suggestCurrentFile: config.get<boolean>('chat.suggestCurrentFile', true) !== false,
  };
}
