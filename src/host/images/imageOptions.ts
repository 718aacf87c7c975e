import * as vscode from 'vscode';
import type { ImageQuality, ImageResponseFormat, ImageSize } from '../../gateway/types';
import { IMAGE_FORMATS, IMAGE_QUALITIES, IMAGE_SIZES, type ExtensionConfig } from '../config';

/** The options a caller can pass to `modelGateway.generateImage` to skip the prompts. */
export interface GenerateImageOptions {
  prompt?: string;
  size?: ImageSize;
  quality?: ImageQuality;
  n?: number;
  responseFormat?: ImageResponseFormat;
  /** Name of the workspace folder to save into, when several are open. */
  workspaceFolder?: string;
}

export interface ImageChoices {
  prompt: string;
  size: ImageSize;
  quality: ImageQuality;
  n: number;
  responseFormat: ImageResponseFormat;
}

/** Collects prompt, size, quality, count and format: from the options, else prompts whose defaults Enter accepts. */
export async function askImageChoices(
  config: ExtensionConfig,
  options: GenerateImageOptions,
  selectedText: string,
): Promise<ImageChoices | undefined> {
  const images = config.images;
  const prompt =
    options.prompt?.trim() ||
    (
      await vscode.window.showInputBox({
        title: 'Model Gateway: Generate Image',
        prompt: 'Describe the image',
        value: selectedText.trim().slice(0, 4000),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'Describe the image to generate.'),
      })
    )?.trim();
  if (!prompt) return undefined;
  // Passing any option means "no questions": the rest come from the settings.
  const automated = Object.keys(options).length > 0;
  const size =
    options.size ?? (automated ? images.size : await pick('Size', IMAGE_SIZES, images.size, sizeHint));
  if (!size) return undefined;
  const quality =
    options.quality ?? (automated ? images.quality : await pick('Quality', IMAGE_QUALITIES, images.quality));
  if (!quality) return undefined;
  const countText = options.n
    ? String(options.n)
    : automated
      ? String(images.count)
      : await pick('How many images', ['1', '2', '3', '4'], String(images.count));
  if (!countText) return undefined;
  const responseFormat =
    options.responseFormat ??
    (automated
      ? images.responseFormat
      : await pick('Response format', IMAGE_FORMATS, images.responseFormat, formatHint));
  if (!responseFormat) return undefined;
  return { prompt, size, quality, n: Number(countText), responseFormat };
}

function sizeHint(size: string): string | undefined {
  return size === '4096x4096' ? 'can take minutes' : undefined;
}

function formatHint(format: string): string | undefined {
  return format === 'b64_json' ? 'bytes in the response (advised)' : 'short-lived link, downloaded at once';
}

/** A QuickPick whose first item is the current default, so Enter accepts it. */
async function pick<T extends string>(
  title: string,
  values: readonly T[],
  current: T,
  hint?: (value: T) => string | undefined,
): Promise<T | undefined> {
  const ordered = [current, ...values.filter((v) => v !== current)];
  const chosen = await vscode.window.showQuickPick(
    ordered.map((value) => ({
      label: value,
      description:
        [value === current ? 'default' : undefined, hint?.(value)].filter(Boolean).join(' · ') || undefined,
    })),
    { title: `Generate Image: ${title}`, placeHolder: `Enter accepts ${current}`, ignoreFocusOut: true },
  );
  return chosen?.label as T | undefined;
}
