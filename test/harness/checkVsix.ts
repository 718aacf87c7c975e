// Checks what the packaged VSIX holds: the bundles, undici's two HTTP parsers, codicons, media (icon and walkthrough
// included), the README and its screenshots, CHANGELOG, LICENSE, package.json and the l10n bundles only, within 1.5 MB.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { repoRoot } from './paths';

const ALLOWED = [
  /^dist\/(extension|agent|review|fileIndex)\.js$/,
  /^dist\/webview\.js$/,
  /^dist\/mcp\.js$/,
  /^dist\/fileIndexWorker\.js$/,
  /^dist\/llhttp(_simd)?\.wasm$/,
  /^dist\/codicons\/codicon\.(css|ttf)$/,
  /^media\//,
  /^docs\/images\/[\w-]+\.png$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
  /^package\.json$/,
  /^package\.nls(\.[\w-]+)?\.json$/,
  /^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/,
];
/** The Marketplace's budget for the whole package. */
const MAX_BYTES = 1.5 * 1024 * 1024;
const REQUIRED = [
  'dist/extension.js',
  'dist/agent.js',
  'dist/review.js',
  'dist/fileIndex.js',
  'dist/webview.js',
  'dist/mcp.js',
  'dist/fileIndexWorker.js',
  'dist/llhttp.wasm',
  'dist/llhttp_simd.wasm',
  'media/chat.css',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'package.json',
];

/**
 * Files the manifest points at (the icon, each walkthrough step's Markdown and the images that Markdown
 * shows), the README's images, and every l10n bundle in the repository: all must ship.
 */
function referencedFiles(): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    icon?: string;
    contributes?: { walkthroughs?: { steps: { media: Record<string, string> }[] }[] };
  };
  const files = manifest.icon ? [manifest.icon] : [];
  const imagesOf = (markdownFile: string): string[] => {
    const text = readFileSync(join(repoRoot, markdownFile), 'utf8');
    const dir = markdownFile.slice(0, markdownFile.lastIndexOf('/') + 1);
    return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
      .map((m) => m[1])
      .filter((src) => !/^[a-z]+:/i.test(src))
      .map((src) => posix.join(dir, src));
  };
  for (const walkthrough of manifest.contributes?.walkthroughs ?? [])
    for (const step of walkthrough.steps)
      for (const [kind, file] of Object.entries(step.media)) {
        if (kind === 'altText') continue;
        files.push(file);
        if (kind === 'markdown') files.push(...imagesOf(file));
      }
  files.push(...imagesOf('README.md'));
  const l10n = join(repoRoot, 'l10n');
  if (existsSync(l10n)) files.push(...readdirSync(l10n).map((name) => `l10n/${name}`));
  files.push(...readdirSync(repoRoot).filter((name) => /^package\.nls(\.[\w-]+)?\.json$/.test(name)));
  return files;
}

/** Lists the files vsce puts in the package and fails on anything outside the allowed set. */
export function checkVsix(vsixPath: string): void {
  const vsce = join(repoRoot, 'node_modules', '.bin', 'vsce');
  const listed = execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const unexpected = listed.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
  const missing = [...new Set([...REQUIRED, ...referencedFiles()])].filter((file) => !listed.includes(file));
  const bytes = statSync(vsixPath).size;
  console.log(`[vsix] ${vsixPath}: ${(bytes / 1024).toFixed(1)} KB, ${listed.length} files`);
  if (unexpected.length || missing.length) {
    throw new Error(
      `VSIX contents are wrong. Unexpected: ${unexpected.join(', ') || 'none'}; missing: ${missing.join(', ') || 'none'}`,
    );
  }
  if (bytes > MAX_BYTES)
    throw new Error(`the VSIX is ${(bytes / 1024).toFixed(1)} KB, over the ${MAX_BYTES / 1024} KB budget`);
}

if (require.main === module) {
  try {
    checkVsix(process.argv[2] ?? join(repoRoot, 'model-gateway.vsix'));
  } catch (error) {
    console.error(`[vsix] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
