/** The metadata file written next to a generated image when `modelGateway.images.writeMetadata` is on. */
import type { ImageQuality, ImageSize } from '../gateway/types';

/** Version of the sidecar format, so later readers can tell what they are looking at. */
const SIDECAR_VERSION = 1;

/** What is recorded about one generated image. */
interface SidecarInput {
  prompt: string;
  /** The prompt as the provider rewrote it, when it said so. */
  revisedPrompt?: string;
  model: string;
  size?: ImageSize;
  quality?: ImageQuality;
  createdAt: Date | number;
  /** The image's file name (not its full path, which would leak the user's folder layout if shared). */
  file: string;
}

/** The sidecar as pretty JSON with a trailing newline; absent optional fields are left out. */
export function buildSidecar(input: SidecarInput): string {
  const createdAt = new Date(input.createdAt);
  const record = {
    version: SIDECAR_VERSION,
    generator: 'Model Gateway',
    file: input.file,
    prompt: input.prompt,
    revisedPrompt: input.revisedPrompt || undefined,
    model: input.model,
    size: input.size,
    quality: input.quality,
    createdAt: Number.isNaN(createdAt.getTime()) ? undefined : createdAt.toISOString(),
  };
  return `${JSON.stringify(record, undefined, 2)}\n`;
}

/** The sidecar's file name for an image: `sunset-….png` → `sunset-….png.json`. */
export function sidecarNameFor(imageFileName: string): string {
  return `${imageFileName}.json`;
}
