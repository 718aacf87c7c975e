import * as vscode from 'vscode';
import type { ImageQuality, ImageResponseFormat, ImageSize } from '../../gateway/types';
import { IMAGE_QUALITIES, IMAGE_SIZES } from '../../gateway/types';
import { MAX_IMAGES_PER_REQUEST } from '../../images/validate';
import type { ExtensionConfig } from '../config';

/** '1' to the most one request may ask for. */
const IMAGE_COUNTS = Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, i) => String(i + 1));

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

/**
 * Collects prompt, size, quality and count: from the options, else prompts whose defaults Enter accepts. The
 * response format comes from the options or the `modelGateway.images.responseFormat` setting.
 */
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
        title: vscode.l10n.t('Model Gateway: Generate Image'),
        prompt: vscode.l10n.t('Describe the image'),
        value: selectedText.trim().slice(0, 4000),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Describe the image to generate.')),
      })
    )?.trim();
  if (!prompt) return undefined;
  // Passing any option means "no questions": the rest come from the settings.
  const automated = Object.keys(options).length > 0;
  const size =
    options.size ??
    (automated ? images.size : await pick(vscode.l10n.t('Size'), IMAGE_SIZES, images.size, sizeHint));
  if (!size) return undefined;
  const quality =
    options.quality ??
    (automated ? images.quality : await pick(vscode.l10n.t('Quality'), IMAGE_QUALITIES, images.quality));
  if (!quality) return undefined;
  const countText = options.n
    ? String(options.n)
    : automated
      ? String(images.count)
      : await pick(vscode.l10n.t('How many images'), IMAGE_COUNTS, String(images.count));
  if (!countText) return undefined;
  // How the bytes travel is an implementation detail: the setting decides, never a step of the wizard.
  const responseFormat = options.responseFormat ?? images.responseFormat;
  return { prompt, size, quality, n: Number(countText), responseFormat };
}

function sizeHint(size: string): string | undefined {
  return size === '4096x4096' ? vscode.l10n.t('can take minutes') : undefined;
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
        [value === current ? vscode.l10n.t('default') : undefined, hint?.(value)]
          .filter(Boolean)
          .join(' · ') || undefined,
    })),
    {
      title: vscode.l10n.t('Generate Image: {0}', title),
      placeHolder: vscode.l10n.t('Enter accepts {0}', current),
      ignoreFocusOut: true,
    },
  );
  return chosen?.label as T | undefined;
}
