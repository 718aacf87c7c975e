// Checks what the packaged VSIX holds: the bundles, undici's fallback parser, codicons, media, the README and its screenshots, LICENSE and package.json only.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

const ALLOWED = [
  /^dist\/extension\.js$/,
  /^dist\/webview\.js$/,
  /^dist\/llhttp\.wasm$/,
  /^dist\/codicons\/codicon\.(css|ttf)$/,
  /^media\//,
  /^docs\/images\/[\w-]+\.png$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^package\.json$/,
];
const REQUIRED = [
  'dist/extension.js',
  'dist/webview.js',
  'dist/llhttp.wasm',
  'media/chat.css',
  'README.md',
  'LICENSE',
  'package.json',
];

/** Lists the files vsce puts in the package and fails on anything outside the allowed set. */
export function checkVsix(vsixPath: string): void {
  const vsce = join(repoRoot, 'node_modules', '.bin', 'vsce');
  const listed = execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const unexpected = listed.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
  const missing = REQUIRED.filter((file) => !listed.includes(file));
  const kb = (statSync(vsixPath).size / 1024).toFixed(1);
  console.log(`[vsix] ${vsixPath}: ${kb} KB, ${listed.length} files`);
  if (unexpected.length || missing.length) {
    throw new Error(
      `VSIX contents are wrong. Unexpected: ${unexpected.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'}`,
    );
  }
}

if (require.main === module) {
  try {
    checkVsix(process.argv[2] ?? join(repoRoot, 'model-gateway.vsix'));
  } catch (error) {
    console.error(`[vsix] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
