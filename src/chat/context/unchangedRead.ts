/**
 * Whether a file read earlier still says what it said then, from a stat alone. A chat send reads each attachment
 * again so the turn holds the file as it is at Enter; when nothing changed since the chip was added, the bytes
 * read then are those bytes, and the send skips the disk's open, read and link checks (issue 25).
 */

/** A file's identity and last changes as a stat reports them (times in ms since the epoch). */
export interface ReadStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * How long before a read began the file's last change must be for its timestamps to be trusted. A change soon
 * after it, within the timestamps' granularity (up to 2 s on FAT; a clock tick elsewhere), could leave the stamp
 * as it was: git's "racy" entries. Such a file is read again.
 */
export const SETTLED_MS = 2000;

/** An earlier read of a file: its stamp then, when the read began (wall clock, ms), and what it gave. */
export interface EarlierRead<T> {
  stamp: ReadStamp;
  readStartedAt: number;
  value: T;
}

/**
 * True when the file whose stat is `now` is the one `earlier` read and has not changed since: the same device,
 * inode and size, the same modification and change times (a rename or a restored mtime moves ctime), and a last
 * change settled before that read began.
 */
export function stillCurrent<T>(
  earlier: EarlierRead<T> | undefined,
  now: ReadStamp,
): earlier is EarlierRead<T> {
  if (!earlier) return false;
  const then = earlier.stamp;
  const same =
    then.dev === now.dev &&
    then.ino === now.ino &&
    then.size === now.size &&
    then.mtimeMs === now.mtimeMs &&
    then.ctimeMs === now.ctimeMs;
  return same && Math.max(then.mtimeMs, then.ctimeMs) <= earlier.readStartedAt - SETTLED_MS;
}
