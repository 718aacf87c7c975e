/**
 * Extension-host entry of case 5 (loaded as extensionTestsPath in the real editor): the extension's own
 * Generate Image command on noise PNGs, against the JSON.parse + base64 + write baseline, under the same
 * probes as in plain Node. Writes its measurements to MODEL_GATEWAY_BENCH_RESULTS.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ImageSize } from '../../src/gateway/types';
import { EMULATOR_TEST_KEY } from '../gateway-emulator/keys';
import { type ImageMeasurement, measureImages } from './imageWork';
import { startProbe } from './probes';

/** What the bench asks the extension host to run. */
export interface ExtHostJob {
  url: string;
  size: ImageSize;
  counts: number[];
  rounds: number;
}

/** Result file: measurements per image count. */
export interface ExtHostResults {
  node: string;
  byCount: Array<{ n: number; ours: ImageMeasurement[]; baseline: ImageMeasurement[] }>;
  error?: string;
}

interface CommandResult {
  status: string;
  files: vscode.Uri[];
  error?: string;
}

/** Runs the extension's Generate Image command; resolves with the saved files. */
async function generate(size: ImageSize, n: number): Promise<vscode.Uri[]> {
  const result = await vscode.commands.executeCommand<CommandResult>('modelGateway.generateImage', {
    prompt: 'A field of static [[fault:image-noise]]',
    size,
    n,
    responseFormat: 'b64_json',
  });
  if (result?.status !== 'saved')
    throw new Error(`Generate Image ended ${result?.status}: ${result?.error ?? ''}`);
  return result.files;
}

/** Removes the saved images and closes their editors; resolves with their total size. */
async function removeImages(files: vscode.Uri[]): Promise<number> {
  let decodedBytes = 0;
  for (const file of files) {
    decodedBytes += statSync(file.fsPath).size;
    rmSync(file.fsPath, { force: true });
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  return decodedBytes;
}

/** Runs the command under the probes; the files are checked and removed after the probes stop. */
async function viaCommand(job: ExtHostJob, n: number): Promise<ImageMeasurement> {
  const probe = await startProbe();
  const started = performance.now();
  const files = await generate(job.size, n).catch(async (error: unknown) => {
    await probe.stop();
    throw error;
  });
  const totalMs = performance.now() - started;
  const probed = await probe.stop();
  return { kind: 'ours', totalMs, decodedBytes: await removeImages(files), ...probed };
}

/** The test entry VS Code calls. */
export async function run(): Promise<void> {
  const out = process.env.MODEL_GATEWAY_BENCH_RESULTS ?? '';
  const job = JSON.parse(process.env.MODEL_GATEWAY_BENCH_JOB ?? '{}') as ExtHostJob;
  const results: ExtHostResults = { node: process.version, byCount: [] };
  try {
    const ok = await vscode.commands.executeCommand<boolean>('modelGateway.setApiKey', {
      key: EMULATOR_TEST_KEY,
    });
    if (ok !== true) throw new Error('could not set the API key');
    // Unmeasured warm-up, as the baseline does in measureImages: both are measured warm.
    await removeImages(await generate('1024x1024', 1));
    for (const n of job.counts) {
      const entry = { n, ours: [] as ImageMeasurement[], baseline: [] as ImageMeasurement[] };
      for (let round = 0; round < job.rounds; round++) {
        const order = round % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const);
        for (const kind of order) {
          if (kind === 'ours') entry.ours.push(await viaCommand(job, n));
          else entry.baseline.push(await measureImages('baseline', { url: job.url, n, size: job.size }));
        }
      }
      results.byCount.push(entry);
    }
  } catch (error) {
    results.error = error instanceof Error ? error.message : String(error);
  }
  writeFileSync(out, JSON.stringify(results));
}
