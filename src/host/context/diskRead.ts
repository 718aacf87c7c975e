import { type Stats, constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { type EarlierRead, type ReadStamp, stillCurrent } from '../../chat/context/unchangedRead';

/** What one open of a file found: a folder, a file too large to read, or the file's bytes and their stamp. */
export type DiskRead =
  | { kind: 'folder' }
  | { kind: 'tooLarge'; size: number }
  | { kind: 'bytes'; bytes: Uint8Array; stamp: ReadStamp };

function stampOf(s: Stats): ReadStamp {
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
}

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
    return { kind: 'bytes', bytes: await readToEnd(handle, stat.size), stamp: stampOf(stat) };
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

/**
 * One file's latest read, kept so that the next read of an unchanged file is a stat (see `stillCurrent`): a chip
 * is read when it is added and again at Enter, and most files did not change in between.
 */
export class KeptDiskRead {
  private earlier: EarlierRead<Uint8Array> | undefined;
  private made: { source: object; inputs: readonly unknown[]; value: unknown } | undefined;

  /** `now`: the wall clock (tests move it on to stand for a read made seconds after the file was written). */
  constructor(private readonly now: () => number = Date.now) {}

  /** The earlier read's bytes when a stat finds the same file unchanged since; undefined otherwise. */
  async unchanged(fsPath: string): Promise<Uint8Array | undefined> {
    const earlier = this.earlier;
    if (!earlier) return undefined;
    try {
      return stillCurrent(earlier, stampOf(await stat(fsPath))) ? earlier.value : undefined;
    } catch {
      return undefined; // Gone: the full read says why.
    }
  }

  /**
   * `make()`'s value for `source` (bytes this kept read returned, or an open document with its version among the
   * inputs) and `inputs`, made once while the source is the same object and each input the same value: an
   * unchanged chip at Enter is not decoded, cut, searched for the key and counted again (a tenth of a millisecond
   * a chip in the extension host, issue 25).
   */
  derive<T>(source: object, inputs: readonly unknown[], make: () => T): T {
    const made = this.made;
    if (
      made?.source === source &&
      made.inputs.length === inputs.length &&
      made.inputs.every((v, i) => v === inputs[i])
    )
      return made.value as T;
    const value = make();
    this.made = { source, inputs, value };
    return value;
  }

  /** `readDiskFile`, keeping the bytes it read and their stamp for the next read. */
  async read(fsPath: string, maxBytes: number): Promise<DiskRead> {
    this.earlier = undefined;
    const readStartedAt = this.now();
    const read = await readDiskFile(fsPath, maxBytes);
    if (read.kind === 'bytes') this.earlier = { stamp: read.stamp, readStartedAt, value: read.bytes };
    return read;
  }
}
