/**
 * Whether a save may replace what another writer left on disk. Conversation files live in global storage,
 * shared by every window, and an extension host can outlive its window (code-server and remote windows
 * keep it through their reconnection grace, still streaming). Two sessions holding copies of one
 * conversation must not erase each other's turns: the later save replaces the file only when its copy
 * keeps everything the file holds.
 */
import type { Conversation, Turn } from './types';

/** The file's version as the filesystem reports it; a different stamp means someone wrote the file. */
export interface FileStamp {
  mtime: number;
  size: number;
}

export function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.mtime === b.mtime && a.size === b.size;
}

/**
 * True when `ours` holds every turn of `onDisk`, in the same places, each with at least its text (an answer
 * that streamed on is longer, never different; reasoning can be retracted, so only the text counts). Then writing `ours` loses nothing of `onDisk`.
 */
export function keepsEverythingOf(ours: Conversation, onDisk: Conversation): boolean {
  if (ours.turns.length < onDisk.turns.length) return false;
  return onDisk.turns.every((saved, i) => extendsTurn(ours.turns[i], saved));
}

function extendsTurn(ours: Turn, saved: Turn): boolean {
  if (ours.id !== saved.id || ours.role !== saved.role) return false;
  if (ours.role === 'image' || saved.role === 'image') return true; // its files are on disk either way
  return ours.content.startsWith(saved.content);
}
