/** Case 4 (sizes): the minified extension and webview bundles and the VSIX, from a production build. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { PUBLISHED_SIZES } from './published';
import { type Row, fmtBytes, verdict } from './report';
import { packageVsix, productionStage } from './stage';

const CASE = '4. Start-up and size';

function sizeRow(figure: string, bytes: number, limit: number, limitText: string, note?: string): Row {
  return {
    case: CASE,
    figure,
    ours: fmtBytes(bytes),
    baseline: '–',
    ratio: `${Math.round((bytes / limit) * 100)}% of budget`,
    budget: `≤ ${limitText}`,
    status: verdict(bytes <= limit),
    data: { bytes, limit },
    ...(note ? { note } : {}),
  };
}

/** Builds the production bundles and the VSIX and checks their sizes; adds the published comparison figures. */
export async function sizeRows(): Promise<Row[]> {
  const stage = await productionStage();
  const vsix = await packageVsix(stage);
  const rows: Row[] = [
    sizeRow(
      'minified extension bundle (dist/extension.js)',
      statSync(stage.extensionJs).size,
      400_000,
      '400 KB',
    ),
    {
      case: CASE,
      figure: "agent's run-time bundle (dist/agent.js), loaded on the first agent run, not at activation",
      ours: fmtBytes(statSync(join(stage.dir, 'dist', 'agent.js')).size),
      baseline: '–',
      ratio: '–',
      budget: '–',
      status: 'info',
    },
    {
      case: CASE,
      figure:
        "edit review's run-time bundle (dist/review.js), loaded on the first Generate Code, Apply or agent file review, not at activation",
      ours: fmtBytes(statSync(join(stage.dir, 'dist', 'review.js')).size),
      baseline: '–',
      ratio: '–',
      budget: '–',
      status: 'info',
    },
    {
      case: CASE,
      figure:
        "# picker's file index bundle (dist/fileIndex.js: listing, watcher, ranking), loaded on the first file search, not at activation",
      ours: fmtBytes(statSync(join(stage.dir, 'dist', 'fileIndex.js')).size),
      baseline: '–',
      ratio: '–',
      budget: '–',
      status: 'info',
    },
    sizeRow('webview bundle (dist/webview.js)', statSync(stage.webviewJs).size, 600_000, '600 KB'),
    sizeRow('VSIX', statSync(vsix).size, 1_500_000, '1.5 MB'),
  ];
  for (const published of PUBLISHED_SIZES) {
    rows.push({
      case: CASE,
      figure: `published VSIX size, ${published.extension} (not measured here)`,
      ours: '–',
      baseline: published.size,
      ratio: '–',
      budget: '–',
      status: 'info',
      note: `published figure, not measured here: ${published.source}`,
    });
  }
  return rows;
}
