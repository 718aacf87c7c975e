/** Turns an image-generation result into bytes: base64 decoding, or an immediate, guarded download of each link. */

import * as l10n from '@vscode/l10n';
import { checkBase64 } from './base64';
import { errorInfoFromJson } from './errorBody';
import { headerValue } from './errorFactory';
import { ImageError, MalformedResponseError, StreamError } from './errors';
import type { Exchange, ExchangeEnv } from './exchange';
import { send } from './http';
import {
  type ImageBodyParts,
  ImageBodyReader,
  ImageNotBase64Error,
  ImageTooLargeError,
  yieldToEventLoop,
} from './imageBody';
import { detectImageFormat } from './imageFormat';
import type { GeneratedImage, ImageGenerationResult, RetryOptions } from './types';

interface ImageContext {
  env: ExchangeEnv;
  /** Only links on this origin receive the API key. */
  gatewayOrigin: string;
  apiKey: string;
  /** `modelGateway.network.headers`; like the key, sent to the gateway's origin only. */
  extraHeaders?: Record<string, string>;
  userAgent: string;
  maxImageBytes: number;
  firstByteMs: number;
  idleMs: number;
  retry: RetryOptions;
  signal?: AbortSignal;
}

export const DEFAULT_MAX_IMAGE_BYTES = 256 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/** How long the body-reading loop may run before it lets the event loop turn (ms). */
const READ_SLICE_MS = 10;
const DATA_URI = /^data:([^,]*?),/i;

function tooLarge(maxBytes: number): ImageError {
  const mib = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return new ImageError(
    'too_large',
    l10n.t('The generated image is larger than the {0} MiB limit. Try a smaller size.', mib),
  );
}

/** The error for image text that is not valid base64: nothing of it is decoded, saved or shown. */
function brokenImage(reason: string): MalformedResponseError {
  return new MalformedResponseError(l10n.t('The gateway sent a broken image: {0}. Try again.', reason));
}

/** Decodes base64 image text, with or without a `data:image/…;base64,` prefix, within the size cap. */
export function decodeBase64Image(text: string, maxBytes: number): Uint8Array {
  let b64 = text.trim();
  const prefix = DATA_URI.exec(b64);
  if (prefix) {
    if (!/;base64$/i.test(prefix[1])) throw brokenImage('a data URI that is not base64');
    b64 = b64.slice(prefix[0].length);
  }
  try {
    b64 = checkBase64(b64);
  } catch (e) {
    throw brokenImage(e instanceof Error ? e.message : String(e));
  }
  // Check the size implied by the text before allocating the decoded buffer.
  if (Math.floor((b64.replace(/=+$/, '').length * 3) / 4) > maxBytes) throw tooLarge(maxBytes);
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  if (bytes.length === 0) throw new MalformedResponseError(l10n.t('The gateway sent an empty image.'));
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

function imageLink(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new ImageError(
      'unsupported_url',
      l10n.t('The gateway returned an image link that is not a valid URL.'),
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImageError(
      'unsupported_url',
      l10n.t('The gateway returned an image link with an unsupported scheme ({0}).', url.protocol),
    );
  }
  return url;
}

/** Downloads one image link now (links expire): http(s) only, key only on the gateway's origin, ≤ 3 redirects. */
async function downloadImage(link: string, ctx: ImageContext): Promise<Uint8Array> {
  let url = imageLink(link);
  for (let hop = 0; ; hop++) {
    let headers: Record<string, string> = { 'User-Agent': ctx.userAgent, Accept: 'image/*' };
    // Re-checked on every hop: a redirect must never carry the key (or custom headers) to another origin.
    if (url.origin === ctx.gatewayOrigin) {
      headers = { ...ctx.extraHeaders, ...headers, Authorization: `Bearer ${ctx.apiKey}` };
    }
    const exchange = await send(
      ctx.env,
      {
        method: 'GET',
        url,
        logPath: url.pathname,
        headers,
        firstByteMs: ctx.firstByteMs,
        idleMs: ctx.idleMs,
        signal: ctx.signal,
      },
      { retry: ctx.retry, errorContext: 'image_download', passStatus: (s) => s >= 300 && s < 400 },
    );
    try {
      if (exchange.status >= 300 && exchange.status < 400) {
        const location = exchange.headers.location;
        const target = Array.isArray(location) ? location[0] : location;
        if (!target)
          throw new ImageError(
            'download_failed',
            l10n.t('The image link answered {0} without a location.', exchange.status),
          );
        if (hop >= MAX_REDIRECTS) {
          throw new ImageError(
            'too_many_redirects',
            l10n.t('The image link redirected more than {0} times.', MAX_REDIRECTS),
          );
        }
        url = imageLink(target, url);
        exchange.finish();
        continue;
      }
      const type = exchange.contentType.split(';')[0].trim().toLowerCase();
      if (!type.startsWith('image/')) {
        throw new ImageError(
          'not_image',
          l10n.t('The image link served {0} instead of an image.', type || l10n.t('no content type')),
        );
      }
      const declared = Number(exchange.headers['content-length']);
      if (Number.isFinite(declared) && declared > ctx.maxImageBytes) throw tooLarge(ctx.maxImageBytes);
      const bytes = await exchange.readAll(ctx.maxImageBytes, () => tooLarge(ctx.maxImageBytes));
      exchange.finish();
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    } catch (e) {
      exchange.finish(e);
      throw e;
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The image the body reader decoded for a `"#<index>"` stand-in, if that is what `b64` is. */
function streamedImage(b64: string, streamed: readonly Uint8Array[]): Uint8Array | undefined {
  const index = /^#(\d+)$/.exec(b64);
  const bytes = index ? streamed[Number(index[1])] : undefined;
  if (bytes?.length === 0) throw new MalformedResponseError(l10n.t('The gateway sent an empty image.'));
  return bytes;
}

async function toImage(
  entry: unknown,
  ctx: ImageContext,
  streamed: readonly Uint8Array[],
): Promise<GeneratedImage> {
  if (!isObject(entry))
    throw new MalformedResponseError(l10n.t('The gateway sent an image entry that is not an object.'));
  const b64 = typeof entry.b64_json === 'string' && entry.b64_json ? entry.b64_json : undefined;
  const url = typeof entry.url === 'string' && entry.url ? entry.url : undefined;
  let bytes: Uint8Array;
  // Providers may send b64_json even when a url was asked for, or a data: URI in `url`.
  if (b64) bytes = streamedImage(b64, streamed) ?? decodeBase64Image(b64, ctx.maxImageBytes);
  else if (url && /^data:/i.test(url)) bytes = decodeBase64Image(url, ctx.maxImageBytes);
  else if (url) bytes = await downloadImage(url, ctx);
  else
    throw new MalformedResponseError(
      l10n.t('The gateway sent an image entry with neither b64_json nor url.'),
    );
  const format = detectImageFormat(bytes);
  if (!format)
    throw new ImageError(
      'unknown_format',
      l10n.t('The gateway sent an image that is not PNG, JPEG or WebP.'),
    );
  const image: GeneratedImage = { bytes, format };
  if (typeof entry.revised_prompt === 'string' && entry.revised_prompt)
    image.revisedPrompt = entry.revised_prompt;
  if (url && !/^data:/i.test(url) && !b64) image.sourceUrl = url;
  return image;
}

/** The parsed response, with its b64_json images already decoded (see imageBody.ts). */
interface ImageResponse {
  body: unknown;
  images: Uint8Array[];
}

function readerError(e: unknown, maxImageBytes: number): unknown {
  if (e instanceof ImageTooLargeError) return tooLarge(maxImageBytes);
  if (e instanceof ImageNotBase64Error) return brokenImage(e.message);
  return e;
}

/** Reads and parses the generation response, sized for `n` images of up to `maxImageBytes` each. */
export async function readImageResponse(
  exchange: Exchange,
  n: number,
  maxImageBytes: number,
): Promise<ImageResponse> {
  // Base64 inflates by 4/3; n images of up to the cap each, plus room for the JSON around them.
  const limit = n * Math.ceil((maxImageBytes * 4) / 3) + 1024 * 1024;
  const declared = Number(headerValue(exchange.headers, 'content-length'));
  const bodyBytes =
    Number.isSafeInteger(declared) && declared > 0 && declared <= limit ? declared : undefined;
  const reader = new ImageBodyReader(maxImageBytes, bodyBytes);
  let parts: ImageBodyParts;
  try {
    let size = 0;
    let yielded = performance.now();
    for (let chunk = await exchange.read(); chunk; chunk = await exchange.read()) {
      size += chunk.length;
      if (size > limit) throw tooLarge(maxImageBytes);
      reader.push(chunk);
      if (reader.hasUnjoined) await reader.joinImages();
      // A fast connection has the next read ready at every await, so this loop would run on in one
      // macrotask and starve timers and the rest of the extension host; it yields after each slice.
      if (performance.now() - yielded > READ_SLICE_MS) {
        await yieldToEventLoop();
        yielded = performance.now();
      }
    }
    parts = await reader.end();
    exchange.finish();
  } catch (e) {
    const error = readerError(e, maxImageBytes);
    exchange.finish(error);
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(parts.json) as unknown;
  } catch {
    throw new MalformedResponseError(
      l10n.t(
        'The gateway answered the image request with something that is not JSON. Check the base URL setting.',
      ),
    );
  }
  if (isObject(body) && body.error !== undefined && body.error !== null && !Array.isArray(body.data)) {
    const info = errorInfoFromJson(body);
    const what = l10n.t('The gateway reported an error instead of images.');
    throw new StreamError(info.message ? l10n.t('{0} Gateway said: {1}', what, info.message) : what, {
      code: info.code,
      type: info.type,
    });
  }
  return { body, images: parts.images };
}

/** Converts the parsed `/v1/images/generations` body into images with bytes and detected formats. */
export async function imagesFromResult(
  body: unknown,
  ctx: ImageContext,
  streamed: readonly Uint8Array[] = [],
): Promise<ImageGenerationResult> {
  if (!isObject(body) || !Array.isArray(body.data) || body.data.length === 0) {
    throw new MalformedResponseError(l10n.t('The gateway answered without any images. Try again.'));
  }
  // One failure stops the other downloads (Promise.all reports that first failure, not the aborts it
  // causes); the caller's abort stops them all.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal?.aborted) controller.abort();
  try {
    const shared = { ...ctx, signal: controller.signal };
    const images = await Promise.all(
      body.data.map((entry) =>
        toImage(entry, shared, streamed).catch((e: unknown) => {
          controller.abort();
          throw e;
        }),
      ),
    );
    const created = typeof body.created === 'number' ? body.created : Math.floor(Date.now() / 1000);
    return { created, images };
  } finally {
    ctx.signal?.removeEventListener('abort', onAbort);
  }
}
