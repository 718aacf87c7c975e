// The image save path of src/host/images (imageTarget.ts + saveImages.ts) on Node's fs, built from the
// same pure pieces (safe path, naming, partial names), so thousands of hostile prompts and folders can run
// against a real temporary filesystem in seconds. Writes are exclusive: nothing is ever overwritten.
import { createHash } from 'node:crypto';
import { constants, promises as fsp, readdirSync, readFileSync, realpathSync, lstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tempNameFor } from '../../../src/images/atomicWrite';
import { imageFileName, uniqueName } from '../../../src/images/naming';
import { isInside, resolveInsideWorkspace } from '../../../src/images/safePath';

/** The folder the images go to, or why it was refused. */
export type TargetResult = { ok: true; folder: string } | { ok: false; reason: string };

/** imageTarget.ts on Node: the setting resolved inside the root, each existing symlink checked with realpath. */
export async function resolveTarget(root: string, folderSetting: string): Promise<TargetResult> {
  const resolved = resolveInsideWorkspace(root, folderSetting);
  if (!resolved.ok) return resolved;
  let folder = root;
  for (const segment of resolved.segments) {
    folder = join(folder, segment);
    const stat = lstatSync(folder, { throwIfNoEntry: false });
    if (!stat?.isSymbolicLink()) continue;
    let inside = false;
    try {
      inside = isInside(realpathSync(root), realpathSync(folder));
    } catch {
      inside = false;
    }
    if (!inside) return { ok: false, reason: 'symbolic link out of the workspace' };
  }
  await fsp.mkdir(folder, { recursive: true });
  return { ok: true, folder };
}

/** An injected failure: the write of image `index` stops after `afterBytes` bytes. */
export interface WriteFault {
  index: number;
  afterBytes: number;
}

/** saveImages.ts on Node: every image to a partial file first, then each moved to a fresh, unique name. */
export async function saveAll(
  folder: string,
  prompt: string,
  images: Uint8Array[],
  now: Date,
  fault?: WriteFault,
): Promise<string[]> {
  const temps: string[] = [];
  const finals: string[] = [];
  try {
    for (const [index, bytes] of images.entries()) {
      const temp = join(folder, tempNameFor('image.png'));
      temps.push(temp);
      const handle = await fsp.open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY);
      try {
        if (fault?.index === index) {
          await handle.write(bytes.subarray(0, fault.afterBytes));
          throw new Error('injected write failure');
        }
        await handle.write(bytes);
      } finally {
        await handle.close();
      }
    }
    for (const [index, temp] of temps.slice().entries()) {
      const base = imageFileName({ prompt, timestamp: now, index, count: images.length, ext: 'png' });
      const exists = async (name: string): Promise<boolean> =>
        lstatSync(join(folder, name), { throwIfNoEntry: false }) !== undefined;
      const target = join(folder, await uniqueName(base, exists));
      // link() fails with EEXIST instead of replacing: the no-overwrite rename.
      await fsp.link(temp, target);
      await fsp.unlink(temp);
      temps.splice(temps.indexOf(temp), 1);
      finals.push(target);
    }
    return finals;
  } catch (error) {
    await Promise.all(temps.map((t) => fsp.rm(t, { force: true })));
    throw error;
  }
}

/** Path → identity of every file directly in `dir`: inode, size and mtime (an overwrite changes one). */
export function listing(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const stat = lstatSync(join(dir, name));
    if (!stat.isDirectory()) out.set(name, `${stat.ino}:${stat.size}:${stat.mtimeMs}`);
  }
  return out;
}

/** Path → sha256 of every file below `dir` (symlinks recorded, not followed). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      const stat = lstatSync(full);
      const key = relative(dir, full);
      if (stat.isSymbolicLink()) out.set(key, 'symlink');
      else if (stat.isDirectory()) walk(full);
      else out.set(key, createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}
