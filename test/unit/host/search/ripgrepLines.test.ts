// The streamed ripgrep run the file index lists folders with, driven by small Node programs in ripgrep's place:
// every line arrives whole, the end says how the program ended, and leaving early or aborting kills the program.
import * as assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { type RipgrepEnd, ripgrepLines } from '../../../../src/host/search/ripgrepLines';
import { waitFor } from '../../../support/poll';
import { alive } from '../../../support/processAlive';

/** Runs `script` with this Node in ripgrep's place; collects every line and the end. */
async function collect(
  script: string,
  signal = new AbortController().signal,
): Promise<{ lines: string[]; end: RipgrepEnd }> {
  const run = ripgrepLines(process.execPath, ['-e', script], tmpdir(), signal);
  const lines: string[] = [];
  for (;;) {
    const step = await run.next();
    if (step.done) return { lines, end: step.value };
    lines.push(...step.value);
  }
}

describe('host/search/ripgrepLines', function () {
  this.timeout(30_000);

  it('yields every line whole, over many pipe chunks, and the last one without its newline', async () => {
    const { lines, end } = await collect(
      "let s='';for(let i=0;i<100000;i++)s+='dir'+(i%97)+'/file-'+i+'.ts\\n';process.stdout.write(s+'tail-without-newline')",
    );
    assert.equal(lines.length, 100_001);
    assert.equal(lines[0], 'dir0/file-0.ts');
    assert.equal(lines[99_999], `dir${99_999 % 97}/file-99999.ts`);
    assert.equal(lines[100_000], 'tail-without-newline');
    assert.deepEqual(end, { code: 0, stopped: false, stderr: '' });
  });

  it("reports an error exit with ripgrep's message", async () => {
    const { lines, end } = await collect("console.error('rg: ./x: Permission denied');process.exit(2)");
    assert.deepEqual(lines, []);
    assert.deepEqual(end, { code: 2, stopped: false, stderr: 'rg: ./x: Permission denied\n' });
  });

  it('kills the program when the caller leaves the loop early', async () => {
    // The program outlives a closed pipe (it ignores EPIPE), as ripgrep walking a large tree would for a while.
    const script =
      "process.stdout.on('error',()=>{});console.log(process.pid);setInterval(()=>process.stdout.write('more\\n'.repeat(1000)),1)";
    const run = ripgrepLines(process.execPath, ['-e', script], tmpdir(), new AbortController().signal);
    let pid = 0;
    for await (const lines of run) {
      pid = Number(lines[0]);
      break;
    }
    assert.ok(pid > 0);
    await waitFor(() => (alive(pid) ? undefined : true), 'the program to end', 10_000);
  });

  it('kills the program when the signal aborts, and says it was stopped', async () => {
    const abort = new AbortController();
    const script = "console.log(process.pid);setInterval(()=>process.stdout.write('more\\n'),5)";
    const run = ripgrepLines(process.execPath, ['-e', script], tmpdir(), abort.signal);
    const first = await run.next();
    assert.equal(first.done, false);
    const pid = Number((first.value as string[])[0]);
    abort.abort();
    let step = await run.next();
    for (let i = 0; !step.done && i < 10_000; i++) step = await run.next();
    assert.deepEqual(step.value, { code: null, stopped: true, stderr: '' });
    await waitFor(() => (alive(pid) ? undefined : true), 'the program to end', 10_000);
  });

  it('throws when the program cannot start (the caller falls back)', async () => {
    const run = ripgrepLines('/nonexistent/rg', ['--files'], tmpdir(), new AbortController().signal);
    await assert.rejects(run.next(), /ENOENT/);
  });
});
