import * as vscode from 'vscode';
import { SETTINGS } from '../settings';

/** The settings that govern chat attachments. */
export interface ContextSettings {
  /** Glob patterns of files never attached (secrets). */
  exclude: readonly string[];
  /** A file above this many estimated tokens is cut, and the block says where. */
  maxFileTokens: number;
  /** Offer the active editor's file as a suggested chip. */
  suggestCurrentFile: boolean;
}

const MAX_FILE_TOKENS = SETTINGS['context.maxFileTokens'];

/**
 * Reads the context settings; a wrong type falls back to the default rather than failing a send. The chat reads
 * them from `ConfigState` (read again only when a setting changes): a send made two `getConfiguration` calls
 * before its request went out (a fifth of a millisecond of the extension's share, issue 25).
 */
export function readContextSettings(): ContextSettings {
  const config = vscode.workspace.getConfiguration('modelGateway');
  const exclude = config.get<unknown>('context.exclude');
  const maxFileTokens = config.get<unknown>('context.maxFileTokens');
  return {
    exclude: Array.isArray(exclude)
      ? exclude.filter((p): p is string => typeof p === 'string' && p.trim() !== '')
      : SETTINGS['context.exclude'].default,
    maxFileTokens:
      typeof maxFileTokens === 'number' &&
      maxFileTokens >= MAX_FILE_TOKENS.minimum &&
      maxFileTokens <= MAX_FILE_TOKENS.maximum
        ? Math.floor(maxFileTokens)
        : MAX_FILE_TOKENS.default,
    suggestCurrentFile:
      config.get<boolean>('chat.suggestCurrentFile', SETTINGS['chat.suggestCurrentFile'].default) !== false,
  };
}
