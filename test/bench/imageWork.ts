/**
 * Case 5's two contenders on the same kind of response (n noise PNGs as b64_json): our client's
 * generateImages, and a baseline that reads the body, JSON.parses it, base64-decodes and writes the files.
 * Both write every image to disk, so they do the same work end to end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createGatewayClient } from '../../src/gateway';
import type { ImageSize } from '../../src/gateway/types';
import { EMULATOR_TEST_KEY } from '../gateway-emulator/keys';
import { startProbe, type ProbeResult } from './probes';

/** One image request as both contenders make it. */
export interface ImageJob {
  url: string;
  n: number;
  size: ImageSize;
}

/** What one measured run produced. */
export interface ImageMeasurement extends ProbeResult {
  kind: 'ours' | 'baseline';
  totalMs: number;
  decodedBytes: number;
}

const KEY = EMULATOR_TEST_KEY;
/** The smallest size the API takes, for the unmeasured warm-up run. */
const WARM_UP_SIZE: ImageSize = '1024x1024';
/** The emulator's `image-noise` fault: PNGs of random pixels, which do not compress. */
const PROMPT = 'A field of static [[fault:image-noise]]';

function body(job: ImageJob): string {
  return JSON.stringify({ prompt: PROMPT, n: job.n, size: job.size, response_format: 'b64_json' });
}

async function ours(job: ImageJob, dir: string): Promise<number> {
  const client = createGatewayClient({ baseUrl: job.url, apiKey: KEY, retry: { maxRetries: 0 } });
  try {
    const result = await client.generateImages({
      prompt: PROMPT,
      n: job.n,
      size: job.size,
      response_format: 'b64_json',
    });
    let decoded = 0;
    for (const [i, image] of result.images.entries()) {
      await writeFile(join(dir, `ours-${i}.png`), image.bytes);
      decoded += image.bytes.length;
    }
    return decoded;
  } finally {
    await client.close();
  }
}

interface ImagesBody {
  data: Array<{ b64_json: string }>;
}

async function baseline(job: ImageJob, dir: string): Promise<number> {
  const response = await request(`${job.url}/v1/images/generations`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: body(job),
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const parts: Buffer[] = [];
  for await (const chunk of response.body as AsyncIterable<Buffer>) parts.push(chunk);
  const parsed = JSON.parse(Buffer.concat(parts).toString('utf8')) as ImagesBody;
  let decoded = 0;
  for (const [i, entry] of parsed.data.entries()) {
    const bytes = Buffer.from(entry.b64_json, 'base64');
    await writeFile(join(dir, `baseline-${i}.png`), bytes);
    decoded += bytes.length;
  }
  return decoded;
}

/**
 * Runs one contender under the probes; files go to a temp folder removed afterwards. Each contender first
 * runs once on a small image, unmeasured, so both are measured warm (undici's HTTP parser compiled, code
 * optimised) as in an editor that has already made a request: the figures are about the large image.
 */
export async function measureImages(kind: 'ours' | 'baseline', job: ImageJob): Promise<ImageMeasurement> {
  const dir = mkdtempSync(join(tmpdir(), 'mg-bench-img-'));
  const contender = kind === 'ours' ? ours : baseline;
  try {
    await contender({ ...job, n: 1, size: WARM_UP_SIZE }, dir);
    const probe = await startProbe();
    const started = performance.now();
    const decodedBytes = await contender(job, dir);
    const totalMs = performance.now() - started;
    const probed = await probe.stop();
    return { kind, totalMs, decodedBytes, ...probed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
