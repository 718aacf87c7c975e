import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** What one open of a file found: a folder, a file too large to read, or the file's bytes. */
export type DiskRead =
  { kind: 'folder' } | { kind: 'tooLarge'; size: number } | { kind: 'bytes'; bytes: Uint8Array };

// As VS Code's own disk provider opens files for reading: never blocking on a FIFO or a device.
const READ_FLAGS = process.platform === 'win32' ? 'r' : constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * Reads a file of the local disk through one handle: its type and size from the handle, then its bytes. A send
 * reads every attachment again, and `workspace.fs.stat` then `readFile` wait on the disk about nine times in a
 * row (stat, open, two fstats, reads, close); this waits three times (open, fstat, read), which on a busy machine was most
 * of the extension's time between Enter and the request. Rejects when the file cannot be opened or is neither a
 * regular file nor a folder, as `workspace.fs.readFile` does; `maxBytes` is checked against the size first.
 */
export async function readDiskFile(fsPath: string, maxBytes: number): Promise<DiskRead> {
  let handle;
  try {
    handle = await open(fsPath, READ_FLAGS);
  } catch (error) {
    // Windows refuses to open a folder.
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') return { kind: 'folder' };
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return { kind: 'folder' };
    if (!stat.isFile()) throw new Error(`${fsPath} is not a regular file`);
    if (stat.size > maxBytes) return { kind: 'tooLarge', size: stat.size };
    return { kind: 'bytes', bytes: await readToEnd(handle, stat.size) };
  } finally {
    // Nothing waits for the close.
    handle.close().catch(() => undefined);
  }
}

type Handle = Awaited<ReturnType<typeof open>>;

/**
 * The file's bytes from the start: `size` of them, as measured, the way Node's own readFile reads a file whose
 * size it knows (fewer when it shrank meanwhile); a size of 0 (some special files) reads until the end.
 */
async function readToEnd(handle: Handle, size: number): Promise<Uint8Array> {
  let buffer = Buffer.allocUnsafe(size || 8192);
  let length = 0;
  while (size === 0 || length < size) {
    if (length === buffer.length) {
      const grown = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}
