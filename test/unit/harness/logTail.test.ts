// The fault matrices check the extension host's log between cases with LogTail.take(): every line must be
// seen by exactly one check, so an error logged late by one case is reported by the next check.
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorEntries, LogTail } from '../../reliability/host/faultProbes';

describe('LogTail.take (fault matrix evidence between cases)', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mg-logtail-'));
    file = join(dir, 'remoteexthost.log');
    writeFileSync(file, '2026-01-01 10:00:00.000 [info] before the suite\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reports an error written after one check at the next check, once', () => {
    const tail = new LogTail(file);
    appendFileSync(file, '2026-01-01 10:00:01.000 [info] case 1\n');
    assert.deepEqual(errorEntries(tail.take()), [], 'case 1 ends clean');
    // VS Code writes an unhandled rejection of case 1 about a second after case 1's own check.
    appendFileSync(file, '2026-01-01 10:00:02.000 [error] Error: late rejection\n    at case1 (x.js:1)\n');
    const atNextCase = errorEntries(tail.take());
    assert.equal(atNextCase.length, 1);
    assert.match(atNextCase[0], /late rejection[\s\S]*at case1/);
    assert.deepEqual(errorEntries(tail.take()), [], 'each line is seen by one check only');
  });

  it('keeps a line still being written for the next check', () => {
    const tail = new LogTail(file);
    appendFileSync(file, '2026-01-01 10:00:03.000 [err');
    assert.equal(tail.take(), '');
    appendFileSync(file, 'or] Error: split write\n');
    assert.deepEqual(
      errorEntries(tail.take()).map((e) => e.trim()),
      ['2026-01-01 10:00:03.000 [error] Error: split write'],
    );
  });
});
