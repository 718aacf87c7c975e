// The image save path on Node's fs: the product's save (src/images/saveBatch.ts, which saveImages.ts runs
// over workspace.fs) behind a Node seam with injected write faults, and the target folder resolved as
// imageTarget.ts does, so thousands of hostile prompts and folders run on a real temporary filesystem in
// seconds.
import { createHash } from 'node:crypto';
import { constants, promises as fsp, readdirSync, readFileSync, realpathSync, lstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isPartialName } from '../../../src/images/atomicWrite';
import { saveImageBatch, type ImageFs } from '../../../src/images/saveBatch';
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

/** An injected failure: the write of image `index` stops after `afterBytes` bytes are on disk. */
export interface WriteFault {
  index: number;
  afterBytes: number;
}

/**
 * Node's fs behind the save's `ImageFs` seam. Writes are exclusive and the rename is link + unlink, which
 * fails instead of replacing, so the seam itself can never overwrite. A fault makes the `index`-th image
 * write (counting only image partial files) put its first bytes on disk and then fail, as a full disk would.
 */
export class NodeImageFs implements ImageFs {
  private imageWrites = 0;
  /** The partial file the fault struck, with the bytes it held on disk when the write failed. */
  struck: { path: string; bytesOnDisk: number } | undefined;
  constructor(private readonly fault?: WriteFault) {}

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const index = /\/\.image\.[a-z]+\.partial-/.test(path) ? this.imageWrites++ : -1;
    const handle = await fsp.open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY);
    try {
      if (this.fault?.index === index) {
        await handle.write(data.subarray(0, this.fault.afterBytes));
        await handle.sync();
        this.struck = { path, bytesOnDisk: (await handle.stat()).size };
        throw new Error(`injected write failure after ${this.fault.afterBytes} bytes`);
      }
      await handle.write(data);
    } finally {
      await handle.close();
    }
  }

  async renameNoOverwrite(from: string, to: string): Promise<boolean> {
    try {
      await fsp.link(from, to);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    await fsp.unlink(from);
    return true;
  }

  delete(path: string): Promise<void> {
    return fsp.unlink(path);
  }

  async exists(path: string): Promise<boolean> {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  }
}

/** The product's save (`saveImageBatch`, as `saveImages.ts` calls it) of PNG `images` into `folder`. */
export function saveAll(
  folder: string,
  prompt: string,
  images: Uint8Array[],
  now: Date,
  fs: ImageFs = new NodeImageFs(),
): Promise<string[]> {
  return saveImageBatch(fs, {
    folder,
    prompt,
    images: images.map((bytes) => ({ bytes, format: 'png' as const })),
    model: 'test-image-model',
    size: '1024x1024',
    quality: 'auto',
    writeMetadata: false,
    now,
    isCancelled: () => false,
    cancelError: () => new Error('cancelled'),
  });
}

/** Names in `dir` (not below it) that are partial files: leftovers of a write that did not finish. */
export function partialFiles(dir: string): string[] {
  return readdirSync(dir).filter(isPartialName);
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
