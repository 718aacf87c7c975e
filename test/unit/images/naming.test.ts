import * as assert from 'node:assert/strict';
import {
  extensionFor,
  imageFileName,
  isWindowsReservedName,
  MAX_SLUG_LENGTH,
  slugify,
  uniqueName,
} from '../../../src/images/naming';
import { seededRandom } from '../../support/seededRandom';

const NASTY = [
  '/',
  '\\',
  '..',
  '../',
  '..\\',
  '.',
  ' ',
  '\0',
  '\n',
  '\t',
  ':',
  '*',
  '?',
  '"',
  '<',
  '>',
  '|',
  'con',
  'CON',
  'prn',
  'aux',
  'nul',
  'NUL.txt',
  'com1',
  'lpt9',
  'COM¹',
  'conin$',
  '~',
  '${HOME}',
  '%APPDATA%',
  'C:\\Windows',
  '\\\\server\\share',
  '/etc/passwd',
  '😀',
  '🏳️‍🌈',
  'é',
  'ß',
  'İ',
  'ﬁ',
  '漢字',
  'Ωμέγα',
  'Привет',
  '\u202e',
  '\u200b',
  '\ud800',
  '-',
  '---',
  '.png',
];

function randomPrompt(rand: () => number): string {
  const parts: string[] = [];
  const count = Math.floor(rand() * 8);
  for (let i = 0; i < count; i++) {
    const kind = rand();
    if (kind < 0.35) parts.push(NASTY[Math.floor(rand() * NASTY.length)]);
    else if (kind < 0.6)
      parts.push(String.fromCodePoint(Math.floor(rand() * 0x30000)).replace(/[\ud800-\udfff]/, ''));
    else if (kind < 0.9)
      parts.push(
        rand()
          .toString(36)
          .slice(2, 2 + Math.floor(rand() * 10)),
      );
    else parts.push('long '.repeat(Math.floor(rand() * 200)));
  }
  return parts.join(rand() < 0.5 ? ' ' : '');
}

function assertSafeName(name: string, ext: string, context: string): void {
  assert.ok(name.length <= 100, `${context}: too long (${name.length}): ${name}`);
  assert.match(name, /^[a-z0-9][a-z0-9-]*\.[a-z0-9]+$/, context);
  assert.ok(name.endsWith(`.${ext}`), `${context}: wrong extension: ${name}`);
  assert.ok(!name.includes('/') && !name.includes('\\') && !name.includes('..'), context);
  assert.ok(!isWindowsReservedName(name), `${context}: reserved: ${name}`);
  assert.ok(!/[. ]$/.test(name), context);
}

describe('images/naming', () => {
  it('slugifies to lowercase ASCII with accents folded', () => {
    assert.equal(slugify('Sunset over the Sea!'), 'sunset-over-the-sea');
    assert.equal(slugify('Crème brûlée à la carte'), 'creme-brulee-a-la-carte');
    assert.equal(slugify('Straße in Łódź, Ærøskøbing'), 'strasse-in-lodz-aeroskobing');
    assert.equal(slugify('İstanbul ﬁre ①'), 'istanbul-fire-1');
    assert.equal(slugify('../../etc/passwd'), 'etc-passwd');
    assert.equal(slugify('C:\\Windows\\System32'), 'c-windows-system32');
    assert.equal(slugify('  --a   b--  '), 'a-b');
  });

  it('never returns an empty or reserved slug', () => {
    for (const empty of ['', '   ', '漢字', '😀😀', '...', '/\\', '\0'])
      assert.equal(slugify(empty), 'image');
    for (const reserved of ['con', 'CON', 'Prn', 'aux', 'NUL', 'com1', 'LPT9', 'COM¹']) {
      const slug = slugify(reserved);
      assert.ok(!isWindowsReservedName(slug), slug);
      assert.ok(slug.endsWith('-image'), slug);
    }
  });

  it('cuts long slugs at a word boundary within the limit', () => {
    const slug = slugify('a majestic mountain landscape at golden hour with mist rolling over the valley');
    assert.ok(slug.length <= MAX_SLUG_LENGTH);
    assert.equal(slug, 'a-majestic-mountain-landscape-at-golden-hour');
    assert.equal(slugify('x'.repeat(500)).length, MAX_SLUG_LENGTH);
  });

  it('recognises Windows device names with or without extension', () => {
    for (const name of ['con', 'CON.txt', 'nul.tar.gz', 'com9', 'lpt1.png', 'aux ', 'prn.', 'CONOUT$']) {
      assert.equal(isWindowsReservedName(name), true, name);
    }
    for (const name of ['console', 'icon', 'com10', 'lpt', 'nul-image.png', 'con-1.png']) {
      assert.equal(isWindowsReservedName(name), false, name);
    }
  });

  it('builds timestamped names with a batch suffix only for batches', () => {
    const timestamp = new Date(2026, 10, 22, 7, 34, 55);
    const base = { prompt: 'Sunset over the sea', timestamp };
    assert.equal(
      imageFileName({ ...base, index: 0, count: 2, ext: 'png' }),
      'sunset-over-the-sea-20261122-073455-1.png',
    );
    assert.equal(
      imageFileName({ ...base, index: 1, count: 2, ext: 'png' }),
      'sunset-over-the-sea-20261122-073455-2.png',
    );
    assert.equal(
      imageFileName({ ...base, index: 0, count: 1, ext: 'webp' }),
      'sunset-over-the-sea-20261122-073455.webp',
    );
    assert.equal(
      imageFileName({ ...base, index: 0, count: 1, ext: '.JPG' }),
      'sunset-over-the-sea-20261122-073455.jpg',
    );
    assert.equal(
      imageFileName({ ...base, index: 0, count: 1, ext: '../' }),
      'sunset-over-the-sea-20261122-073455.bin',
    );
    assert.equal(extensionFor('jpeg'), 'jpg');
    assert.equal(extensionFor('png'), 'png');
    assert.equal(extensionFor('webp'), 'webp');
  });

  it('uniqueName appends -2, -3… and never returns a taken name', async () => {
    const taken = new Set(['a.png', 'a-2.png', 'a-3.png', 'noext', 'noext-2']);
    const exists = async (name: string): Promise<boolean> => taken.has(name);
    assert.equal(await uniqueName('b.png', exists), 'b.png');
    assert.equal(await uniqueName('a.png', exists), 'a-4.png');
    assert.equal(await uniqueName('noext', exists), 'noext-3');
    assert.equal(await uniqueName('.hidden', async (n) => n === '.hidden'), '.hidden-2');
    await assert.rejects(
      uniqueName('x.png', async () => true),
      /free file name/,
    );
  });

  it('1,000 random prompts give single safe segments, unique under uniqueName', async function () {
    this.timeout(30_000);
    const seed = Number(process.env.NAMING_SEED ?? Date.now() % 1_000_000);
    const rand = seededRandom(seed);
    const timestamp = new Date(2026, 0, 2, 3, 4, 5);
    const taken = new Set<string>();
    const exists = async (name: string): Promise<boolean> => taken.has(name);
    for (let i = 0; i < 1000; i++) {
      const prompt = randomPrompt(rand);
      const ext = ['png', 'jpg', 'webp'][i % 3];
      const count = 1 + Math.floor(rand() * 4);
      const index = Math.floor(rand() * count);
      const context = `seed ${seed}, prompt #${i} ${JSON.stringify(prompt)}`;
      const name = imageFileName({ prompt, timestamp, index, count, ext });
      assertSafeName(name, ext, context);
      const unique = await uniqueName(name, exists);
      assertSafeName(unique, ext, context);
      assert.ok(!taken.has(unique), `${context}: duplicate ${unique}`);
      taken.add(unique);
    }
    assert.equal(taken.size, 1000);
  });
});
