// §4 File safety: 1,000+ seeded random hostile prompts and image-folder settings through the real safe-path,
// naming and partial-file code on a real temporary filesystem, with symlinks out of the workspace, existing
// files and write failures. Nothing lands outside the workspace, nothing is overwritten, no partial file stays.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { isPartialName } from '../../../src/images/atomicWrite';
import { imageFileName, isWindowsReservedName } from '../../../src/images/naming';
import { isInside } from '../../../src/images/safePath';
import { listing, NodeImageFs, partialFiles, resolveTarget, saveAll, snapshot } from './fileSafetyFs';
import { seededRandom } from '../../support/seededRandom';

const PROMPTS_PER_RUN = 1200;

const PROMPT_PARTS = [
  '../',
  '..\\..\\',
  '/etc/passwd',
  'C:\\Windows\\System32\\',
  '\\\\server\\share\\',
  'CON',
  'nul',
  'COM1',
  'lpt9.png',
  'aux.',
  'PRN ',
  'conin$',
  'com¹',
  '.',
  '..',
  '~',
  '${workspaceFolder}',
  '\0',
  '\n\r\t',
  '\u202Egnp.exe',
  '\u200B',
  '\uFEFF',
  'İstanbul',
  'straße',
  'Ærøskøbing',
  '東京の夜景',
  'سلام دنیا',
  'שלום',
  'नमस्ते',
  '🦊🔥👩‍👩‍👧',
  'e\u0301',
  '<>:"|?*',
  ' ',
  '-',
  'a sunset over the sea',
  'x'.repeat(300),
  '%2e%2e%2f',
  'file:///tmp/x',
  '$(rm -rf /)',
  '`touch /tmp/pwned`',
];
const FOLDER_PARTS = [
  'assets',
  'generated',
  '..',
  '.',
  '',
  'link-out',
  'link-in',
  'CON',
  'nul.txt',
  'a:b',
  'trail.',
  'trail ',
  '~',
  '東京',
  'x'.repeat(260),
  '\u0007',
];

/** A random hostile prompt: 1–8 parts, sometimes stretched to thousands of characters. */
function randomPrompt(random: () => number): string {
  const parts = Array.from(
    { length: 1 + Math.floor(random() * 8) },
    () => PROMPT_PARTS[Math.floor(random() * PROMPT_PARTS.length)],
  );
  const prompt = parts.join(random() < 0.5 ? ' ' : '');
  return random() < 0.05 ? prompt.repeat(1 + Math.floor(random() * 200)) : prompt;
}

/** A random folder setting: relative, absolute (inside or outside), with backslashes or links. */
function randomFolder(random: () => number, root: string, outside: string): string {
  const segments = Array.from(
    { length: 1 + Math.floor(random() * 4) },
    () => FOLDER_PARTS[Math.floor(random() * FOLDER_PARTS.length)],
  );
  const joined = segments.join(random() < 0.2 ? '\\' : '/');
  const r = random();
  if (r < 0.1) return `${root}/${joined}`;
  if (r < 0.15) return `${outside}/${joined}`;
  if (r < 0.2) return `\${workspaceFolder}/${joined}`;
  return joined;
}

describe('File safety: random hostile prompts and folders on a real filesystem', function () {
  this.timeout(120_000);
  const seed = Number(process.env.RELIABILITY_SEED) || (Date.now() % 0x7fffffff) + 1;
  let base: string;
  let root: string;
  let outside: string;

  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'mg-filesafety-')));
    root = join(base, 'workspace');
    outside = join(base, 'outside');
    mkdirSync(join(root, 'assets'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'outside the workspace');
    symlinkSync(outside, join(root, 'link-out'));
    symlinkSync(join(root, 'assets'), join(root, 'link-in'));
    symlinkSync(outside, join(root, 'assets', 'link-out'));
    console.log(`      seed ${seed} (replay with RELIABILITY_SEED=${seed})`);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it(`${PROMPTS_PER_RUN} prompts × random folders: inside, unique, portable, never overwriting, never partial`, async () => {
    const random = seededRandom(seed);
    const outsideBefore = snapshot(outside);
    const rootBefore = snapshot(root);
    const stats = { saved: 0, files: 0, refused: 0, faults: 0, collisions: 0 };
    const png = new Uint8Array(2048).map((_, i) => i % 251);
    // One timestamp for the whole run: every prompt with the same slug collides with earlier files.
    const now = new Date(2026, 10, 23, 20, 30, 0);
    for (let i = 0; i < PROMPTS_PER_RUN; i++) {
      const prompt = randomPrompt(random);
      const setting = random() < 0.3 ? 'assets/generated' : randomFolder(random, root, outside);
      const target = await resolveTarget(root, setting);
      if (!target.ok) {
        stats.refused++;
        continue;
      }
      const where = `#${i} prompt ${JSON.stringify(prompt.slice(0, 80))} folder ${JSON.stringify(setting.slice(0, 80))}`;
      assert.ok(isInside(realpathSync(root), realpathSync(target.folder)), `outside: ${where}`);
      const count = 1 + Math.floor(random() * 4);
      const images = Array.from({ length: count }, (_, k) => png.map((b) => (b + i + k) % 256));
      const before = listing(target.folder);
      const expected = imageFileName({ prompt, timestamp: now, index: 0, count, ext: 'png' });
      if (before.has(expected)) stats.collisions++;
      const fault = random() < 0.1 ? { index: Math.floor(random() * count), afterBytes: 700 } : undefined;
      let files: string[] = [];
      const fs = new NodeImageFs(fault);
      try {
        files = await saveAll(target.folder, prompt, images, now, fs);
        assert.equal(fault, undefined, 'an injected fault must fail the save');
      } catch (error) {
        assert.ok(fault && String(error).includes('injected'), `${where}: ${String(error)}`);
        assert.ok(fs.struck && fs.struck.bytesOnDisk > 0, `the fault struck mid-write: ${where}`);
        stats.faults++;
      }
      // The whole folder, not only this prompt's names: partial files are named after "image", not the prompt.
      assert.deepEqual(partialFiles(target.folder), [], `partial files left: ${where}`);
      const after = listing(target.folder);
      for (const [name, id] of before) assert.equal(after.get(name), id, `changed ${name}: ${where}`);
      const added = [...after.keys()].filter((name) => !before.has(name));
      assert.equal(added.length, files.length, `unexpected files ${added.join(', ')}: ${where}`);
      for (const file of files) {
        const name = file.slice(file.lastIndexOf(sep) + 1);
        assert.ok(isInside(realpathSync(root), realpathSync(file)), `outside: ${file}`);
        assert.match(name, /^[a-z0-9]+(?:-[a-z0-9]+)*\.png$/, where);
        assert.ok(Buffer.byteLength(name) <= 100, `${name} is too long`);
        assert.equal(isWindowsReservedName(name), false, `${name} is a device name`);
        assert.equal(isPartialName(name), false);
      }
      stats.saved += files.length ? 1 : 0;
      stats.files += files.length;
    }
    const rootAfter = snapshot(root);
    const partials = [...rootAfter.keys()].filter((p) => isPartialName(p.split(sep).pop() ?? ''));
    assert.deepEqual(partials, [], 'partial files left behind');
    for (const [path, hash] of rootBefore) assert.equal(rootAfter.get(path), hash, `changed ${path}`);
    assert.equal(rootAfter.size - rootBefore.size, stats.files, 'files appeared that no save reported');
    assert.deepEqual(snapshot(outside), outsideBefore, 'the folder outside the workspace changed');
    console.log(
      `      ${PROMPTS_PER_RUN} prompts: ${stats.saved} saves (${stats.files} files, ${stats.collisions} name collisions), ` +
        `${stats.refused} folders refused, ${stats.faults} injected write failures cleaned up`,
    );
    assert.ok(
      stats.files >= PROMPTS_PER_RUN / 2 && stats.refused > 0 && stats.faults > 0 && stats.collisions > 0,
    );
  });

  it('the second of three images fails during its write: no image and no partial file remain', async () => {
    const folder = join(root, 'assets', 'second-fails');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'existing.png'), 'kept');
    const before = listing(folder);
    const images = [1, 2, 3].map((k) => new Uint8Array(4096).fill(k));
    const fs = new NodeImageFs({ index: 1, afterBytes: 1000 });
    await assert.rejects(saveAll(folder, 'three foxes', images, new Date(), fs), /injected write failure/);
    // The first image was completely written before the fault; the second was half on disk.
    assert.equal(fs.struck?.bytesOnDisk, 1000);
    assert.deepEqual(partialFiles(folder), []);
    assert.deepEqual(listing(folder), before);
    // The same seam without a fault saves all three, so the failure above came from the fault alone.
    const saved = await saveAll(folder, 'three foxes', images, new Date(), new NodeImageFs());
    assert.equal(saved.length, 3);
    assert.deepEqual(partialFiles(folder), []);
  });

  for (const setting of [
    '..',
    '../outside',
    'assets/../../outside',
    'assets\\..\\..\\outside',
    '/etc',
    '//server/share',
    'C:\\Windows',
    'c:relative',
    '~/images',
    'link-out',
    'link-out/deeper',
    'assets/link-out',
    'link-in/link-out',
    'CON',
    'assets/nul.png',
    'COM1/x',
    'a:stream',
    'folder.',
    'x\0y',
    `${'x'.repeat(256)}`,
  ]) {
    it(`refuses the folder ${JSON.stringify(setting.slice(0, 40))} and writes nothing`, async () => {
      const before = snapshot(base);
      const target = await resolveTarget(root, setting);
      assert.equal(target.ok, false, JSON.stringify(target));
      assert.deepEqual(snapshot(base), before);
    });
  }

  it('accepts links and absolute paths that stay inside', async () => {
    for (const setting of ['link-in/sub', `${root}/assets/abs`, '${workspaceFolder}/assets/wf', 'a/../b']) {
      const target = await resolveTarget(root, setting);
      assert.ok(target.ok, `${setting}: ${JSON.stringify(target)}`);
      assert.ok(isInside(realpathSync(root), realpathSync(target.folder)));
    }
  });
});
