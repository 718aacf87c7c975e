/** Case 4 (activation) and case 5 in the extension host: both need the real editor. */
import type { ImageSize } from '../../src/gateway/types';
import { spawnEmulator } from './children';
import { editorUnavailable, measureActivation, runInExtensionHost } from './editor';
import { imageRows } from './images';
import { type Row, fmtMs, skippedRow, verdict } from './report';
import type { BenchSettings } from './settings';
import { median } from './stats';
import { packageVsix, productionStage } from './stage';

/** Activation time as logged by the extension, median over several window loads of the installed VSIX. */
export async function activationRows(settings: BenchSettings): Promise<Row[]> {
  const figure = `activation time in the real editor (median of ${settings.startup.starts} window loads)`;
  const unavailable = editorUnavailable();
  if (unavailable) return [skippedRow('4. Start-up and size', figure, '≤ 30 ms', unavailable)];
  const stage = await productionStage();
  const vsix = await packageVsix(stage);
  const emulator = await spawnEmulator();
  try {
    const times = await measureActivation(vsix, settings.startup.starts, emulator.info.url);
    const ms = median(times);
    return [
      {
        case: '4. Start-up and size',
        figure,
        ours: fmtMs(ms),
        baseline: '–',
        ratio: '–',
        budget: '≤ 30 ms',
        status: verdict(ms <= 30),
        note: `as logged ("Model Gateway <version> activated in N ms."): ${times.map((t) => `${t} ms`).join(', ')}`,
        data: { times },
      },
    ];
  } finally {
    await emulator.stop();
  }
}

/** Case 5 inside the real extension host: the extension's Generate Image command against the baseline. */
export async function imageExtHostRows(settings: BenchSettings): Promise<Row[]> {
  const unavailable = editorUnavailable();
  if (unavailable) {
    return [
      skippedRow(
        '5. Large images',
        'in the extension host (all figures)',
        '≤ 2.5× / ≤ 100 ms / ≤ 1.5×',
        unavailable,
      ),
    ];
  }
  const stage = await productionStage();
  const emulator = await spawnEmulator();
  try {
    const job = {
      url: emulator.info.url,
      size: settings.images.size as ImageSize,
      counts: settings.images.counts,
      rounds: settings.images.rounds,
    };
    const results = await runInExtensionHost(stage.dir, job, 900_000);
    return results.byCount.flatMap((entry) =>
      imageRows(
        `extension host (Node ${results.node}), Generate Image`,
        settings.images.size,
        entry.n,
        entry.ours,
        entry.baseline,
      ),
    );
  } finally {
    await emulator.stop();
  }
}
