/** The filesystem seam and result shapes of the chat store, and the two careful writes it relies on. */
import * as l10n from '@vscode/l10n';
import { newId } from './conversation';
import { parseConversationFile } from './storeFormat';
import type { Conversation, ConversationSummary } from './types';
import type { FileStamp } from './writeGuard';

/** The filesystem operations the store needs. Paths are plain strings joined with '/'. */
export interface StoreFs {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Writes the parts one after another as the file, in one call where it can (`writeFile` of them joined else). */
  writeFileParts?(path: string, parts: readonly Uint8Array[]): Promise<void>;
  rename(from: string, to: string, options: { overwrite: boolean }): Promise<void>;
  delete(path: string): Promise<void>;
  /** Names (not paths) of the entries of a folder. */
  readDirectory(path: string): Promise<string[]>;
  /** Creates the folder and its parents; succeeds when it already exists. */
  createDirectory(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Modification time (ms) and size of a file, or undefined when there is none. */
  stat(path: string): Promise<FileStamp | undefined>;
}

/** Tuning and hooks of a `ConversationStore`. */
export interface ConversationStoreOptions {
  /** Shortest gap between two saves of a conversation by `scheduleSave` (default 500 ms). */
  saveIntervalMs?: number;
  /** Receives errors of saves started by `scheduleSave` timers (nobody else awaits them). */
  onError?: (error: unknown, conversationId: string) => void;
  /** The clock used for backup file names. */
  now?: () => number;
  /**
   * A save found its conversation changed on disk by another writer (another window, or an extension host
   * that outlived its window) in a way its copy does not keep, so the copy was saved as a new conversation
   * instead (`conversation.id` and its title changed; `fromId` is the one left as the other writer saved it).
   */
  onFork?: (conversation: Conversation, fromId: string) => void;
}

/** The history list, plus messages about files that could not be read. */
export interface ListResult {
  summaries: ConversationSummary[];
  problems: string[];
}

/** A loaded conversation (undefined when absent or unreadable), plus messages about unreadable files. */
export interface LoadResult {
  conversation: Conversation | undefined;
  problems: string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Writes `<path>.tmp-<random>` and renames it over `path`, so readers see the old or the new file,
 * never a torn one. The temporary file is removed when the rename fails. (There is no fsync through
 * `vscode.workspace.fs`; a file emptied by a power cut is caught by validation and backed up.)
 */
export async function writeFileAtomic(
  fs: StoreFs,
  path: string,
  data: string | readonly Uint8Array[],
): Promise<void> {
  const temp = `${path}.tmp-${newId().slice(0, 8)}`;
  if (typeof data === 'string') await fs.writeFile(temp, encoder.encode(data));
  else if (fs.writeFileParts) await fs.writeFileParts(temp, data);
  else await fs.writeFile(temp, joinBytes(data));
  try {
    await fs.rename(temp, path, { overwrite: true });
  } catch (error) {
    await fs.delete(temp).catch(noop);
    throw error;
  }
}

/** The parts as one array. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

const TEMP_PATTERN = /^([A-Za-z0-9_-]{1,128})\.json\.tmp-[A-Za-z0-9-]+$/;

/** Names in `names` that are temporary files of conversation `id` (left by `writeFileAtomic`). */
export function tempFilesOf(names: readonly string[], id: string): string[] {
  return names.filter((name) => TEMP_PATTERN.exec(name)?.[1] === id);
}

/**
 * Puts back conversation files lost between the two halves of a rename: over an existing file,
 * `vscode.workspace.fs` in the extension host deletes the target and then moves the new file, so a kill
 * between them leaves only the complete temporary file (found by the crash trials; the extension now writes
 * with Node's fs, whose rename is one step, where it can, and files left by older versions remain). For each id in `dir`
 * with temporary files but no `<id>.json` (and not `busy`, i.e. being written now), the newest one that
 * parses is renamed into place. Returns the ids put back.
 */
export async function recoverInterruptedRenames(
  fs: StoreFs,
  dir: string,
  names: readonly string[],
  busy: (id: string) => boolean,
): Promise<string[]> {
  const present = new Set(names);
  const orphaned = new Set(names.flatMap((name) => TEMP_PATTERN.exec(name)?.[1] ?? []));
  const recovered: string[] = [];
  for (const id of orphaned) {
    if (present.has(`${id}.json`) || busy(id)) continue;
    const best = await newestParsed(fs, dir, tempFilesOf(names, id), id);
    if (!best) continue;
    await fs.rename(`${dir}/${best.name}`, `${dir}/${id}.json`, { overwrite: false });
    recovered.push(id);
  }
  return recovered;
}

/** A leftover temporary file is this old before it is settled: a live writer renames its own within milliseconds. */
export const LEFTOVER_TEMP_MS = 60_000;

/**
 * Settles temporary files left next to an existing `<id>.json` by a writer killed between its write and its
 * rename (with Node's fs the temporary file is then complete). The newest one that parses replaces the file when it
 * is newer (`updatedAt`): that save was the conversation's latest. The others, and all of them when the file is as
 * new, are deleted. Temporary files younger than LEFTOVER_TEMP_MS (another window may be about to rename its own),
 * those of a conversation being written (`busy`), and those next to a file that does not parse (it may be a newer
 * format, never overwritten) are left alone. Returns the ids whose file was replaced.
 */
export async function settleLeftoverTemps(
  fs: StoreFs,
  dir: string,
  names: readonly string[],
  busy: (id: string) => boolean,
  now: number,
): Promise<string[]> {
  const present = new Set(names);
  const withTemps = new Set(names.flatMap((name) => TEMP_PATTERN.exec(name)?.[1] ?? []));
  const replaced: string[] = [];
  for (const id of withTemps) {
    if (!present.has(`${id}.json`) || busy(id)) continue;
    try {
      const old: string[] = [];
      for (const name of tempFilesOf(names, id)) {
        const stamp = await fs.stat(`${dir}/${name}`);
        if (stamp && now - stamp.mtime >= LEFTOVER_TEMP_MS) old.push(name);
      }
      if (old.length === 0) continue;
      const file = parseConversationFile(decoder.decode(await fs.readFile(`${dir}/${id}.json`)), id);
      if (!file.ok) continue;
      const best = await newestParsed(fs, dir, old, id);
      const newer = best && best.updatedAt > file.value.updatedAt ? best.name : undefined;
      if (newer) {
        await fs.rename(`${dir}/${newer}`, `${dir}/${id}.json`, { overwrite: true });
        replaced.push(id);
      }
      for (const name of old) if (name !== newer) await fs.delete(`${dir}/${name}`);
    } catch {
      // Best effort: another window may have renamed or removed these files meanwhile.
    }
  }
  return replaced;
}

/** The temporary file among `temps` holding the newest conversation that parses (a torn one does not). */
async function newestParsed(
  fs: StoreFs,
  dir: string,
  temps: readonly string[],
  id: string,
): Promise<{ name: string; updatedAt: number } | undefined> {
  let best: { name: string; updatedAt: number; size: number } | undefined;
  for (const name of temps) {
    const text = decoder.decode(await fs.readFile(`${dir}/${name}`));
    const parsed = parseConversationFile(text, id);
    if (!parsed.ok) continue;
    const { updatedAt } = parsed.value;
    if (!best || updatedAt > best.updatedAt || (updatedAt === best.updatedAt && text.length > best.size)) {
      best = { name, updatedAt, size: text.length };
    }
  }
  return best;
}

/**
 * Moves an unreadable file aside as `<path>.corrupt-<timestamp>.bak` (copying, then removing the
 * original, when a move is impossible) and returns the message for the user. Never deletes the data.
 */
export async function backUpCorrupt(
  fs: StoreFs,
  path: string,
  bytes: Uint8Array,
  reason: string,
  what: string,
  now: number,
): Promise<string> {
  const backup = `${path}.corrupt-${backupStamp(now)}.bak`;
  const intro = l10n.t('{0} "{1}" could not be read: {2}.', what, path, reason);
  try {
    await fs.rename(path, backup, { overwrite: false });
  } catch {
    try {
      await fs.writeFile(backup, bytes);
      await fs.delete(path).catch(noop);
    } catch (error) {
      return l10n.t(
        '{0} A backup could not be written ({1}); the file was left in place.',
        intro,
        errorText(error),
      );
    }
  }
  return l10n.t('{0} It was kept as "{1}"; other conversations are not affected.', intro, backup);
}

/** `20261122T073455123Z`: sortable, unique to the millisecond, and legal in file names everywhere. */
function backupStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:.]/g, '');
}

/** The message of an error of any type. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Swallows a settled value or a best-effort failure. */
export function noop(): void {}
