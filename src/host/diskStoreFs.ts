/**
 * The conversation store's filesystem over Node's fs, for storage on the extension host's own disk (global
 * storage always is: desktop, remote and code-server alike).
 *
 * Not `workspace.fs`: there, every call waits for a round trip to the window (its file service), and a rename
 * runs in the window as delete-the-target, create-the-folder, move, each a request to the file system. A kill of
 * the extension host or a reload of the window between those steps left no conversation file, only temporary
 * ones (the restarted host then put back whichever it judged newest, an older copy once), and a busy window
 * delayed saves by seconds (both seen in CI's crash trials). Node's rename(2) replaces the file in one step.
 */
import { promises as fsp } from 'node:fs';
import type { StoreFs } from '../chat/store';
import type { FileStamp } from '../chat/writeGuard';

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

/** Moves `from` to `to` only when nothing is at `to`: a hard link fails on an existing target, then the unlink. */
export async function renameNoReplace(from: string, to: string): Promise<void> {
  try {
    await fsp.link(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error; // EEXIST among them
    // A filesystem without hard links: check, then move (a race here needs two writers recovering one file).
    if (await exists(to))
      throw Object.assign(new Error(`EEXIST: file already exists, ${to}`), { code: 'EEXIST' });
    await fsp.rename(from, to);
    return;
  }
  await fsp.unlink(from);
}

async function exists(path: string): Promise<boolean> {
  try {
    await fsp.access(path);
    return true;
  } catch {
    return false;
  }
}

/** `parts` without their first `count` bytes (what a short write left to write). */
export function bytesAfter(parts: readonly Uint8Array[], count: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  let skip = count;
  for (const part of parts) {
    if (skip >= part.length) skip -= part.length;
    else {
      rest.push(skip ? part.subarray(skip) : part);
      skip = 0;
    }
  }
  return rest;
}

/** Writes `parts` as the file at `path` (created or emptied) with `writev`, again for what a short write left. */
async function writeParts(path: string, parts: readonly Uint8Array[]): Promise<void> {
  const handle = await fsp.open(path, 'w');
  try {
    let rest = bytesAfter(parts, 0);
    while (rest.length) {
      const { bytesWritten } = await handle.writev(rest);
      if (bytesWritten === 0) throw new Error(`Nothing more could be written to ${path}.`);
      rest = bytesAfter(rest, bytesWritten);
    }
  } finally {
    await handle.close();
  }
}

/** A `StoreFs` over Node's fs: paths are local, a rename with overwrite is atomic. */
export function diskStoreFs(): StoreFs {
  return {
    readFile: async (path) => new Uint8Array(await fsp.readFile(path)),
    writeFile: (path, data) => fsp.writeFile(path, data),
    writeFileParts: writeParts,
    rename: (from, to, { overwrite }) => (overwrite ? fsp.rename(from, to) : renameNoReplace(from, to)),
    delete: (path) => fsp.rm(path),
    readDirectory: (path) => fsp.readdir(path),
    createDirectory: async (path) => {
      await fsp.mkdir(path, { recursive: true });
    },
    exists,
    stat: async (path): Promise<FileStamp | undefined> => {
      try {
        const { mtimeMs, size } = await fsp.stat(path);
        return { mtime: mtimeMs, size };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
  };
}
