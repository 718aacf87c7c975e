/** Checks of image generation options (from settings or a picker) with messages a user can act on. */
import * as l10n from '@vscode/l10n';
import {
  IMAGE_QUALITIES,
  IMAGE_RESPONSE_FORMATS,
  IMAGE_SIZES,
  type ImageGenerationRequest,
  type ImageQuality,
  type ImageResponseFormat,
  type ImageSize,
} from '../gateway/types';

/** Most images one request may ask for. */
export const MAX_IMAGES_PER_REQUEST = 4;
/** Longest prompt accepted, in characters (the most generous common provider limit). */
export const MAX_PROMPT_LENGTH = 32000;

/** The options of an image request other than prompt and model. */
type ImageOptions = Pick<ImageGenerationRequest, 'n' | 'size' | 'quality' | 'response_format'>;

/** Options as they arrive from configuration: anything, to be checked. */
interface ImageOptionsInput {
  n?: unknown;
  size?: unknown;
  quality?: unknown;
  response_format?: unknown;
}

/** Valid options, or every problem found (not just the first), each a full sentence. */
type ImageOptionsValidation = { ok: true; options: ImageOptions } | { ok: false; errors: string[] };

/** Whether `value` is a supported image size. */
function isImageSize(value: unknown): value is ImageSize {
  return (IMAGE_SIZES as readonly unknown[]).includes(value);
}

/** Whether `value` is a supported image quality. */
function isImageQuality(value: unknown): value is ImageQuality {
  return (IMAGE_QUALITIES as readonly unknown[]).includes(value);
}

/** Whether `value` is a supported response format. */
function isImageResponseFormat(value: unknown): value is ImageResponseFormat {
  return (IMAGE_RESPONSE_FORMATS as readonly unknown[]).includes(value);
}

/** Validates image options; absent fields stay absent so the gateway's defaults apply. */
export function validateImageOptions(input: ImageOptionsInput): ImageOptionsValidation {
  const errors: string[] = [];
  const options: ImageOptions = {};
  const { n, size, quality, response_format: format } = input;
  if (n !== undefined) {
    if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_IMAGES_PER_REQUEST) options.n = n;
    else
      errors.push(
        l10n.t(
          'The number of images must be a whole number from 1 to {0} (got {1}).',
          MAX_IMAGES_PER_REQUEST,
          show(n),
        ),
      );
  }
  if (size !== undefined) {
    if (isImageSize(size)) options.size = size;
    else
      errors.push(
        l10n.t('Image size {0} is not supported. Use one of: {1}.', show(size), IMAGE_SIZES.join(', ')),
      );
  }
  if (quality !== undefined) {
    if (isImageQuality(quality)) options.quality = quality;
    else
      errors.push(
        l10n.t(
          'Image quality {0} is not supported. Use one of: {1}.',
          show(quality),
          IMAGE_QUALITIES.join(', '),
        ),
      );
  }
  if (format !== undefined) {
    if (isImageResponseFormat(format)) options.response_format = format;
    else errors.push(l10n.t('Response format {0} is not supported. Use "url" or "b64_json".', show(format)));
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, options };
}

/** An error message for an unusable prompt, or undefined when it is fine (fits `showInputBox.validateInput`). */
export function validateImagePrompt(prompt: string): string | undefined {
  if (!prompt.trim()) return l10n.t('Describe the image to generate.');
  if (prompt.length > MAX_PROMPT_LENGTH) {
    return l10n.t('The prompt is {0} characters long; the limit is {1}.', prompt.length, MAX_PROMPT_LENGTH);
  }
  return undefined;
}

/** A value quoted for a message, whatever its type. */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeof value;
}
