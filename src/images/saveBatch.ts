/**
 * Saving a batch of generated images behind a filesystem seam, so the same code runs in the extension
 * host (over `workspace.fs`) and in tests on a real temporary folder with injected faults.
 */
import type { GeneratedImage, ImageQuality, ImageSize } from '../gateway/types';
import { tempNameFor } from './atomicWrite';
import { extensionFor, imageFileName, uniqueName } from './naming';
import { buildSidecar } from './sidecar';

/** The filesystem operations a save needs. Paths are plain strings joined with '/'. */
export interface ImageFs {
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Moves `from` to `to` unless `to` exists; resolves false (moving nothing) when it does. Never overwrites. */
  renameNoOverwrite(from: string, to: string): Promise<boolean>;
  delete(path: string): Promise<void>;
  exists(path: string): Promise<boolean>;
}

/** One save: where, what, and how a cancel is seen and reported. */
export interface SaveBatch {
  /** The folder path, already resolved inside the workspace and created. */
  folder: string;
  prompt: string;
  images: GeneratedImage[];
  model: string;
  size: ImageSize;
  quality: ImageQuality;
  writeMetadata: boolean;
  /** The clock for the file names and sidecars. */
  now: Date;
  isCancelled: () => boolean;
  /** The error thrown on cancel (the host's `CancellationError`). */
  cancelError: () => Error;
}

/**
 * Writes every image atomically: all go to hidden temporary files first, and only when every write
 * succeeded are they renamed to their final, unique names. A cancel or an error leaves no partial file;
 * a cancel also removes the images already renamed, so it leaves nothing. Returns the final paths.
 */
export async function saveImageBatch(fs: ImageFs, batch: SaveBatch): Promise<string[]> {
  const temps: string[] = [];
  const finals: string[] = [];
  let cancelled = false;
  const checkCancel = (): void => {
    if (!batch.isCancelled()) return;
    cancelled = true;
    throw batch.cancelError();
  };
  try {
    const staged: Array<{ temp: string; image: GeneratedImage }> = [];
    for (const image of batch.images) {
      checkCancel();
      const temp = `${batch.folder}/${tempNameFor(`image.${image.format}`)}`;
      // Recorded before the write, so a write that fails halfway is still removed.
      temps.push(temp);
      await fs.writeFile(temp, image.bytes);
      staged.push({ temp, image });
    }
    for (const [index, { temp, image }] of staged.entries()) {
      checkCancel();
      const base = imageFileName({
        prompt: batch.prompt,
        timestamp: batch.now,
        index,
        count: staged.length,
        ext: extensionFor(image.format),
      });
      const finalPath = await renameToUnique(fs, temp, batch.folder, base, batch.writeMetadata);
      finals.push(finalPath);
      temps.splice(temps.indexOf(temp), 1);
      if (batch.writeMetadata) {
        const sidecar = buildSidecar({
          prompt: batch.prompt,
          revisedPrompt: image.revisedPrompt,
          model: batch.model,
          size: batch.size,
          quality: batch.quality,
          createdAt: batch.now,
          file: finalPath.split('/').pop() ?? '',
        });
        await writeAtomic(fs, `${finalPath}.json`, new TextEncoder().encode(sidecar));
      }
    }
    return finals;
  } catch (error) {
    await Promise.all(temps.map((t) => fs.delete(t).catch(ignore)));
    if (cancelled) await Promise.all(finals.map((f) => fs.delete(f).catch(ignore)));
    throw error;
  }
}

/** Renames onto a name no file has yet (nor its sidecar, when one is written); never overwrites. */
async function renameToUnique(
  fs: ImageFs,
  temp: string,
  folder: string,
  base: string,
  withSidecar: boolean,
): Promise<string> {
  const exists = async (name: string): Promise<boolean> =>
    (await fs.exists(`${folder}/${name}`)) || (withSidecar && (await fs.exists(`${folder}/${name}.json`)));
  // Another writer may take the free name between the check and the rename: try again a few times.
  for (let attempt = 0; attempt < 5; attempt++) {
    const target = `${folder}/${await uniqueName(base, exists)}`;
    if (await fs.renameNoOverwrite(temp, target)) return target;
  }
  throw new Error(`Could not find a free file name for ${base}.`);
}

/** Writes a small file through a temporary name; the temporary file is removed when the rename fails. */
async function writeAtomic(fs: ImageFs, target: string, data: Uint8Array): Promise<void> {
  const slash = target.lastIndexOf('/');
  const temp = `${target.slice(0, slash)}/${tempNameFor(target.slice(slash + 1))}`;
  try {
    await fs.writeFile(temp, data);
    if (!(await fs.renameNoOverwrite(temp, target))) throw new Error(`${target} already exists.`);
  } catch (error) {
    await fs.delete(temp).catch(ignore);
    throw error;
  }
}

function ignore(): void {}
