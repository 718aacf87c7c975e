import * as vscode from 'vscode';
import { extensionFor, imageFileName, uniqueName } from '../../images/naming';
import { tempNameFor } from '../../images/atomicWrite';
import { buildSidecar } from '../../images/sidecar';
import type { GeneratedImage, ImageQuality, ImageSize } from '../../gateway/types';

interface SaveRequest {
  folder: vscode.Uri;
  prompt: string;
  images: GeneratedImage[];
  model: string;
  size: ImageSize;
  quality: ImageQuality;
  writeMetadata: boolean;
  token: vscode.CancellationToken;
}

/**
 * Writes every image atomically: all go to hidden temporary files first, and only when every write
 * succeeded are they renamed to their final, unique names. A cancel or an error leaves no partial file.
 */
export async function saveImages(request: SaveRequest): Promise<vscode.Uri[]> {
  const fs = vscode.workspace.fs;
  const now = new Date();
  const temps: vscode.Uri[] = [];
  const finals: vscode.Uri[] = [];
  try {
    const staged: Array<{ temp: vscode.Uri; image: GeneratedImage }> = [];
    for (const image of request.images) {
      if (request.token.isCancellationRequested) throw new vscode.CancellationError();
      const temp = vscode.Uri.joinPath(request.folder, tempNameFor(`image.${image.format}`));
      temps.push(temp);
      await fs.writeFile(temp, image.bytes);
      staged.push({ temp, image });
    }
    for (const [index, { temp, image }] of staged.entries()) {
      if (request.token.isCancellationRequested) throw new vscode.CancellationError();
      const base = imageFileName({
        prompt: request.prompt,
        timestamp: now,
        index,
        count: staged.length,
        ext: extensionFor(image.format),
      });
      const finalUri = await renameToUnique(temp, request.folder, base, request.writeMetadata);
      finals.push(finalUri);
      temps.splice(temps.indexOf(temp), 1);
      if (request.writeMetadata) {
        const sidecar = buildSidecar({
          prompt: request.prompt,
          revisedPrompt: image.revisedPrompt,
          model: request.model,
          size: request.size,
          quality: request.quality,
          createdAt: now,
          file: finalUri.path.split('/').pop() ?? '',
        });
        await writeAtomic(vscode.Uri.parse(`${finalUri.toString()}.json`), new TextEncoder().encode(sidecar));
      }
    }
    return finals;
  } catch (error) {
    await Promise.all(temps.map((t) => fs.delete(t).then(undefined, () => undefined)));
    if (error instanceof vscode.CancellationError) {
      // A cancel after some renames removes those too, so a cancel leaves nothing behind.
      await Promise.all(finals.map((f) => fs.delete(f).then(undefined, () => undefined)));
    }
    throw error;
  }
}

/** Renames onto a name no file has yet (nor its sidecar, when one is written); never overwrites. */
async function renameToUnique(
  temp: vscode.Uri,
  folder: vscode.Uri,
  base: string,
  withSidecar: boolean,
): Promise<vscode.Uri> {
  const taken = async (name: string): Promise<boolean> => {
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, name));
      return true;
    } catch {
      return false;
    }
  };
  const exists = async (name: string): Promise<boolean> =>
    (await taken(name)) || (withSidecar && (await taken(`${name}.json`)));
  for (let attempt = 0; attempt < 5; attempt++) {
    const target = vscode.Uri.joinPath(folder, await uniqueName(base, exists));
    try {
      await vscode.workspace.fs.rename(temp, target, { overwrite: false });
      return target;
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError) || error.code !== 'FileExists') throw error;
    }
  }
  throw new Error(`Could not find a free file name for ${base}.`);
}

async function writeAtomic(target: vscode.Uri, data: Uint8Array): Promise<void> {
  const folder = vscode.Uri.joinPath(target, '..');
  const temp = vscode.Uri.joinPath(folder, tempNameFor(target.path.split('/').pop() ?? 'file'));
  await vscode.workspace.fs.writeFile(temp, data);
  try {
    await vscode.workspace.fs.rename(temp, target, { overwrite: false });
  } catch (error) {
    await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
    throw error;
  }
}
