import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDiskFile } from '../../../src/host/context/diskRead';

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
