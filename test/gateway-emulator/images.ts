// POST /v1/images/generations and the url-form links it hands out (GET /files/<id>.png).
import { createHash, randomBytes } from 'node:crypto';
import { requestIdHeader, sendEmulatorError } from './errorBodies';
import type { Exchange } from './exchange';
import { collectFaults, type FaultSet } from './faults';
import { faultProblem, preflight, resetAfterHeaders, type EmulatorContext } from './preflight';
import { noisePng, quadrantPng, type Rgb } from './png';
import { solidJpeg, solidWebp } from './tinyImages';

/** Sizes the image endpoint accepts. */
export const IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', '2048x2048', '4096x4096'];

/** Links keep their metadata after expiry (to answer 403), but their bytes go past this total. */
const MAX_STORED_BYTES = 512 * 1024 * 1024;
/** Base64 is written in slices of this many input bytes (a multiple of 3, so slices join cleanly). */
const B64_SLICE = 3 * 1024 * 1024;

interface ImageRequest {
  prompt: string;
  n: number;
  width: number;
  height: number;
  format: 'url' | 'b64_json';
}

/** Validates an image body; returns the request, or a message for a 400. */
export function parseImageBody(body: unknown): ImageRequest | string {
  if (typeof body !== 'object' || body === null) return 'body must be a JSON object';
  const {
    prompt,
    n = 1,
    size = '1024x1024',
    response_format: format = 'url',
  } = body as Record<string, unknown>;
  if (typeof prompt !== 'string' || prompt === '') return '`prompt` must be a non-empty string';
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 4)
    return '`n` must be an integer from 1 to 4';
  if (typeof size !== 'string' || !IMAGE_SIZES.includes(size))
    return `\`size\` must be one of ${IMAGE_SIZES.join(', ')}`;
  if (format !== 'url' && format !== 'b64_json') return '`response_format` must be url or b64_json';
  const [width, height] = size.split('x').map(Number);
  return { prompt, n, width, height, format };
}

/** Colours derived from the prompt (and the image index), so different prompts give different images. */
export function promptColours(prompt: string, index: number): [Rgb, Rgb, Rgb, Rgb] {
  const h = createHash('sha256').update(`${index}\u0000${prompt}`).digest();
  return [0, 3, 6, 9].map((at) => [h[at], h[at + 1], h[at + 2]] as const) as [Rgb, Rgb, Rgb, Rgb];
}

const pngCache = new Map<string, Buffer>();

/** The image bytes and content type for one generated image. */
function imageBytes(
  req: ImageRequest,
  index: number,
  faults: FaultSet,
): { bytes: Buffer; contentType: string } {
  const colours = promptColours(req.prompt, index);
  if (faults.has('image-not-image')) {
    // A gateway that answers an error page where the image should be: valid base64, not an image.
    const page = '<!DOCTYPE html><html><body><h1>Service unavailable</h1></body></html>';
    return { bytes: Buffer.from(page, 'utf8'), contentType: 'text/html' };
  }
  if (faults.has('image-jpeg')) return { bytes: solidJpeg(colours[0][0]), contentType: 'image/jpeg' };
  if (faults.has('image-webp')) return { bytes: solidWebp(16, 16, colours[0]), contentType: 'image/webp' };
  if (faults.has('image-noise')) return { bytes: noisePng(req.width, req.height), contentType: 'image/png' };
  const key = `${req.width}x${req.height}\u0000${index}\u0000${req.prompt}`;
  let bytes = pngCache.get(key);
  if (!bytes) {
    bytes = quadrantPng(req.width, req.height, colours);
    if (pngCache.size >= 16) pngCache.delete(pngCache.keys().next().value as string);
    pngCache.set(key, bytes);
  }
  return { bytes, contentType: 'image/png' };
}

/** Drops the bytes of expired links, and of the oldest ones when the store grows too large. */
function sweepFiles(ctx: EmulatorContext): void {
  const now = Date.now();
  let total = 0;
  const live = [...ctx.files.values()].filter((f) => f.bytes);
  for (const file of live) {
    if (file.expiresAt <= now) file.bytes = undefined;
    else total += file.bytes?.length ?? 0;
  }
  for (const file of live) {
    if (total <= MAX_STORED_BYTES) break;
    total -= file.bytes?.length ?? 0;
    file.bytes = undefined;
  }
}

/** Stores an image for url-form answers and returns its link. */
function storeFile(ctx: EmulatorContext, bytes: Buffer, contentType: string, faults: FaultSet): string {
  sweepFiles(ctx);
  const id = randomBytes(12).toString('hex');
  ctx.files.set(id, { bytes, contentType, expiresAt: Date.now() + ctx.options.imageUrlTtlMs, faults });
  const host = faults.has('image-url-cross-origin') ? 'localhost' : '127.0.0.1';
  return `http://${host}:${ctx.port}/files/${id}.png`;
}

/** Writes the JSON answer piecewise, so base64 of tens of MB never becomes one giant string. */
async function writeImageAnswer(
  ex: Exchange,
  entries: Array<{ bytes?: Buffer; prefix: string; rest: Record<string, unknown> }>,
  faults: FaultSet,
): Promise<void> {
  ex.head(200, { 'Content-Type': 'application/json', ...requestIdHeader(faults) });
  if (!(await ex.write(`{"created":${Math.floor(Date.now() / 1000)},"data":[`))) return;
  for (let i = 0; i < entries.length; i++) {
    const { bytes, prefix, rest } = entries[i];
    let head = i > 0 ? ',{' : '{';
    const fields = JSON.stringify(rest).slice(1, -1);
    if (bytes) {
      head += `"b64_json":"${prefix}`;
      if (!(await ex.write(head))) return;
      for (let at = 0; at < bytes.length; at += B64_SLICE) {
        if (!(await ex.write(bytes.subarray(at, at + B64_SLICE).toString('base64')))) return;
      }
      if (!(await ex.write(`"${fields ? ',' : ''}${fields}}`))) return;
    } else if (!(await ex.write(`${head}${fields}}`))) return;
  }
  if (await ex.write(']}')) ex.end();
}

/** Handles POST /v1/images/generations after authentication. */
export async function handleImages(ex: Exchange, body: unknown, ctx: EmulatorContext): Promise<void> {
  const req = parseImageBody(body);
  if (typeof req === 'string') return sendEmulatorError(ex, 400, req);
  const faults = collectFaults(ex.req.headers['x-emulator-fault'], [req.prompt]);
  const problem = faultProblem(faults);
  if (problem) return sendEmulatorError(ex, 400, problem);
  if (!(await preflight(ex, faults, ctx))) return;
  if (faults.has('reset-before-first-token'))
    return resetAfterHeaders(ex, { 'Content-Type': 'application/json' }, faults);
  const delay = faults.num('image-delay');
  if (delay !== undefined && !(await ex.sleep(delay))) return;

  const asUrl = req.format === 'url' && !faults.has('image-b64-for-url');
  const prefix = faults.has('image-data-uri') ? 'data:image/png;base64,' : '';
  const entries = [];
  // image-none: a 200 answer whose `data` is empty (a filtered prompt on some gateways).
  const count = faults.has('image-none') ? 0 : req.n;
  for (let i = 0; i < count; i++) {
    const { bytes, contentType } = imageBytes(req, i, faults);
    const rest: Record<string, unknown> = {};
    if (asUrl) rest.url = storeFile(ctx, bytes, contentType, faults);
    if (!faults.has('image-no-revised')) rest.revised_prompt = `A detailed rendering of: ${req.prompt}`;
    entries.push({ bytes: asUrl ? undefined : bytes, prefix, rest });
  }
  await writeImageAnswer(ex, entries, faults);
}

/** Serves GET /files/<id>.png, with the link faults chosen when the image was generated. */
export async function serveFile(ex: Exchange, id: string, ctx: EmulatorContext): Promise<void> {
  const file = ctx.files.get(id);
  if (!file) return ex.send(404, { 'Content-Type': 'text/plain' }, 'Not found');
  const url = new URL(ex.req.url ?? '/', 'http://x');
  const hop = Number(url.searchParams.get('hop') ?? '0');
  const hops = file.faults.num('image-url-redirect') ?? 0;
  if (hop < hops) {
    const host = ex.req.headers.host ?? `127.0.0.1:${ctx.port}`;
    return ex.send(
      302,
      { Location: `http://${host}/files/${id}.png?hop=${hop + 1}`, 'Content-Type': 'text/plain' },
      'Found',
    );
  }
  if (file.faults.has('image-url-expired') || file.expiresAt <= Date.now() || !file.bytes) {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
    return ex.send(403, { 'Content-Type': 'application/xml' }, xml);
  }
  if (file.faults.has('image-url-html')) {
    return ex.send(
      200,
      { 'Content-Type': 'text/html; charset=utf-8' },
      '<!DOCTYPE html><html><body><h1>Image viewer</h1></body></html>',
    );
  }
  ex.head(200, {
    'Content-Type': file.contentType,
    'Content-Length': String(file.bytes.length),
    'Cache-Control': 'private, max-age=3600',
  });
  if (await ex.write(file.bytes)) ex.end();
}
