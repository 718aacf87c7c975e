import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmInstall } from '../../harness/install';
import { step } from '../../harness/progress';

/** Runs `fn` with console.log captured; returns the lines it logged. */
async function captured(fn: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.join(' '));
  try {
    await fn();
  } finally {
    console.log = original;
  }
  return lines;
}

describe('editor set-up output', () => {
  it('shows a step as what it does and how long it takes, then done', async () => {
    const lines = await captured(() => step('[x]', 'installing a thing', 'about 3 s', async () => 1, false));
    assert.deepEqual(lines, ['[x] installing a thing (about 3 s)…', '[x]   done in 0 s']);
  });

  it('says when a step failed', async () => {
    const lines = await captured(() =>
      assert.rejects(
        step('[x]', 'installing', 'about 3 s', () => Promise.reject(new Error('no')), false),
        /no/,
      ),
    );
    assert.equal(lines[1], '[x]   failed after 0 s');
  });

  it('keeps npm output in a log file and names it, with the last lines, when the install fails', async function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'mg-install-'));
    const prefix = join(dir, 'prefix');
    mkdirSync(prefix);
    try {
      const lines = await captured(async () => {
        const error = await npmInstall(
          prefix,
          `file:${join(dir, 'missing-package')}`,
          process.env,
          50_000,
        ).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        assert.ok(error, 'the install of a missing package must fail');
        assert.match(error.message, new RegExp(`Full log: ${prefix}-install\\.log`));
        assert.match(error.message, /Last lines:\n/);
      });
      assert.deepEqual(lines, [], 'nothing of npm reaches the terminal');
      assert.ok(existsSync(`${prefix}-install.log`));
      assert.match(readFileSync(`${prefix}-install.log`, 'utf8'), /^\$ npm install --prefix /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
