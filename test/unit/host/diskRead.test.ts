import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeptDiskRead, readDiskFile } from '../../../src/host/context/diskRead';

describe('readDiskFile (attachments read again at send)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-diskread-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the bytes of files small, empty and larger than one read', async () => {
    for (const size of [0, 1, 8191, 8192, 100_000]) {
      const bytes = Buffer.alloc(size, 0x61);
      if (size) bytes[size - 1] = 0x7a;
      const file = join(dir, `f${size}.txt`);
      writeFileSync(file, bytes);
      const read = await readDiskFile(file, 1_000_000);
      assert.equal(read.kind, 'bytes', `size ${size}`);
      if (read.kind === 'bytes') assert.deepEqual(Buffer.from(read.bytes), bytes, `size ${size}`);
    }
  });

  it('follows a link to the file it names (the workspace check is made on the real path before)', async () => {
    const file = join(dir, 'target.ts');
    writeFileSync(file, 'export const x = 1;\n');
    symlinkSync(file, join(dir, 'link.ts'));
    const read = await readDiskFile(join(dir, 'link.ts'), 1000);
    assert.equal(read.kind === 'bytes' && Buffer.from(read.bytes).toString(), 'export const x = 1;\n');
  });

  it('says a folder is a folder, and a file over the limit is too large, without reading it', async () => {
    mkdirSync(join(dir, 'sub'));
    assert.deepEqual(await readDiskFile(join(dir, 'sub'), 1000), { kind: 'folder' });
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(2000));
    assert.deepEqual(await readDiskFile(join(dir, 'big.bin'), 1999), { kind: 'tooLarge', size: 2000 });
    assert.equal((await readDiskFile(join(dir, 'big.bin'), 2000)).kind, 'bytes');
  });

  it('rejects a file that is gone', async () => {
    await assert.rejects(readDiskFile(join(dir, 'missing.ts'), 1000), /ENOENT/);
  });

  it('reads a special file that reports no size until its end', async function () {
    if (process.platform !== 'linux') this.skip();
    const read = await readDiskFile('/proc/self/status', 1_000_000);
    assert.equal(read.kind, 'bytes');
    if (read.kind === 'bytes') assert.match(Buffer.from(read.bytes).toString(), /^Name:/);
  });

  it('refuses a FIFO at once instead of waiting for a writer', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(readDiskFile(fifo, 1000), /not a regular file/);
  });
});

describe('KeptDiskRead (the chip read answers the read at Enter while the file is unchanged)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-keptread-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  /** A clock as if the chip had been added a minute after the file was written. */
  const aMinuteLater = (): number => Date.now() + 60_000;
  const text = (bytes: Uint8Array | undefined): string | undefined => bytes && Buffer.from(bytes).toString();

  it('gives the earlier bytes for a file unchanged since a read made after it settled', async () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'export const a = 1;\n');
    const kept = new KeptDiskRead(aMinuteLater);
    assert.equal((await kept.read(file, 1000)).kind, 'bytes');
    assert.equal(text(await kept.unchanged(file)), 'export const a = 1;\n');
  });

  it('derive makes a value once for the same bytes and inputs, and again for new bytes or any changed input', async () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'export const a = 1;\n');
    const kept = new KeptDiskRead(aMinuteLater);
    const read = await kept.read(file, 1000);
    assert.ok(read.kind === 'bytes');
    let makes = 0;
    const make = (): number => ++makes;
    assert.equal(kept.derive(read.bytes, ['a.ts', 8000, 'key'], make), 1);
    const unchanged = await kept.unchanged(file);
    assert.equal(unchanged, read.bytes, 'the unchanged read is the same bytes object');
    assert.equal(kept.derive(unchanged!, ['a.ts', 8000, 'key'], make), 1, 'made once');
    assert.equal(kept.derive(unchanged!, ['a.ts', 4000, 'key'], make), 2, 'a setting changed');
    assert.equal(kept.derive(unchanged!, ['a.ts', 4000, 'other key'], make), 3, 'the key changed');
    assert.equal(kept.derive(unchanged!, ['a.ts', 4000, 'other key', undefined], make), 4, 'another input');
    writeFileSync(file, 'export const a = 22;\n');
    const again = await kept.read(file, 1000);
    assert.ok(again.kind === 'bytes');
    assert.equal(kept.derive(again.bytes, ['a.ts', 4000, 'other key', undefined], make), 5, 'new bytes');
  });

  it('reads again a file edited to another size, replaced by a rename, or deleted', async () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'export const a = 1;\n');
    const kept = new KeptDiskRead(aMinuteLater);
    await kept.read(file, 1000);
    writeFileSync(file, 'export const a = 12;\n');
    assert.equal(await kept.unchanged(file), undefined);
    await kept.read(file, 1000);
    // An editor's atomic save: the same size, a new inode.
    writeFileSync(join(dir, 'a.tmp'), 'export const a = 34;\n');
    renameSync(join(dir, 'a.tmp'), file);
    assert.equal(await kept.unchanged(file), undefined);
    await kept.read(file, 1000);
    rmSync(file);
    assert.equal(await kept.unchanged(file), undefined);
  });

  it('reads again a file rewritten with the same size just after the read (a file written just before it is never trusted)', async () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'export const a = 1;\n');
    const kept = new KeptDiskRead();
    await kept.read(file, 1000);
    writeFileSync(file, 'export const b = 2;\n');
    assert.equal(await kept.unchanged(file), undefined);
  });

  it('keeps nothing from a read that found no bytes', async () => {
    const kept = new KeptDiskRead(aMinuteLater);
    mkdirSync(join(dir, 'sub'));
    assert.deepEqual(await kept.read(join(dir, 'sub'), 1000), { kind: 'folder' });
    assert.equal(await kept.unchanged(join(dir, 'sub')), undefined);
  });
});
