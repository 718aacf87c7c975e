import * as assert from 'node:assert/strict';
import {
  cleanOutput,
  formatTerminalRun,
  OUTPUT_NOT_CAPTURED,
  OutputBuffer,
  RunHistory,
  type TerminalRun,
} from '../../../../src/chat/context/terminalOutput';

const EXECUTED = '\x1b]633;C\x07';

function run(commandLine: string, output: string | undefined, exitCode: number | undefined): TerminalRun {
  return { commandLine, output, exitCode, droppedLines: 0 };
}

describe('terminal output: buffer, history, block', () => {
  describe('OutputBuffer', () => {
    it('a command whose data arrived keeps its plain output, without the shell-integration marks', () => {
      const buffer = new OutputBuffer(1000);
      buffer.append(`${EXECUTED}ctx-term-\x1b[1;32m42\x1b[0m-m4rk\r\n`);
      assert.deepEqual(
        buffer.finish('echo ctx-term-$((6*7))-m4rk', 0),
        run('echo ctx-term-$((6*7))-m4rk', 'ctx-term-42-m4rk', 0),
      );
    });

    it('a command forwarded with no output is captured as empty, not as missing', () => {
      const buffer = new OutputBuffer(1000);
      buffer.append(EXECUTED);
      assert.equal(buffer.received, true);
      assert.equal(buffer.finish('true', 0).output, '');
    });

    it('a command none of whose data arrived has unknown output', () => {
      const buffer = new OutputBuffer(1000);
      assert.equal(buffer.received, false);
      assert.equal(buffer.finish('echo hi', 0).output, undefined);
    });

    it('keeps the end of a long output and counts what it cut', () => {
      const buffer = new OutputBuffer(100);
      const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`);
      for (const line of lines) buffer.append(`${line}\r\n`);
      const done = buffer.finish('make', 2);
      assert.ok(done.output !== undefined && done.output.length <= 100, `kept ${done.output?.length}`);
      assert.ok(done.output.endsWith('line 199'));
      assert.ok(
        done.output.split('\n').every((l) => /^line \d+$/.test(l)),
        'cut at a line start',
      );
      assert.equal(done.droppedLines + done.output.split('\n').length, 200, 'what was cut is counted');
    });

    it('never holds more than twice the limit of raw data while a command runs', () => {
      const buffer = new OutputBuffer(50);
      for (let i = 0; i < 1000; i++) buffer.append(`${'x'.repeat(9)}\n`);
      const done = buffer.finish('yes', undefined);
      assert.equal(done.output, Array(5).fill('x'.repeat(9)).join('\n'));
      assert.equal(done.droppedLines, 995);
    });
  });

  describe('RunHistory', () => {
    it('keeps the last commands of each terminal, newest last', () => {
      const history = new RunHistory<string>({ maxRuns: 3, maxOutputChars: 100, maxTerminalChars: 1000 });
      for (let i = 1; i <= 5; i++) history.add('a', run(`cmd ${i}`, `out ${i}`, 0));
      history.add('b', run('other', 'x', 0));
      assert.deepEqual(
        history.list('a').map((r) => r.commandLine),
        ['cmd 3', 'cmd 4', 'cmd 5'],
      );
      assert.equal(history.last('a')?.commandLine, 'cmd 5');
      assert.equal(history.last('b')?.commandLine, 'other');
    });

    it('drops the oldest commands beyond the characters kept per terminal, but always keeps the newest', () => {
      const history = new RunHistory<string>({ maxRuns: 10, maxOutputChars: 100, maxTerminalChars: 250 });
      for (let i = 1; i <= 4; i++) history.add('a', run(`cmd ${i}`, 'y'.repeat(100), 0));
      assert.deepEqual(
        history.list('a').map((r) => r.commandLine),
        ['cmd 3', 'cmd 4'],
      );
      const tight = new RunHistory<string>({ maxRuns: 10, maxOutputChars: 100, maxTerminalChars: 10 });
      tight.add('a', run('big', 'z'.repeat(100), 1));
      assert.equal(tight.last('a')?.commandLine, 'big');
    });

    it('forgets a closed terminal', () => {
      const history = new RunHistory<string>({ maxRuns: 3, maxOutputChars: 100, maxTerminalChars: 1000 });
      history.add('a', run('ls', 'f', 0));
      history.delete('a');
      assert.equal(history.last('a'), undefined);
      assert.deepEqual(history.list('a'), []);
    });
  });

  describe('cleanOutput', () => {
    it('strips colours and OSC marks, resolves carriage-return overwrites and normalises line ends', () => {
      assert.equal(
        cleanOutput('\x1b]633;C\x07\x1b[31mred\x1b[0m\r\n 10%\r 50%\r100%\r\ndone\r\n\r\n'),
        'red\n100%\ndone',
      );
    });
  });

  describe('formatTerminalRun', () => {
    it('the command line, the output and the exit code', () => {
      assert.equal(
        formatTerminalRun(run('echo ctx-term-$((6*7))-m4rk', 'ctx-term-42-m4rk', 0)),
        '$ echo ctx-term-$((6*7))-m4rk\nctx-term-42-m4rk\n[exit code 0]',
      );
    });

    it('output that never arrived is said to be unknown, never sent as an empty output', () => {
      const text = formatTerminalRun(run('echo ctx-term-$((6*7))-m4rk', undefined, 0));
      assert.equal(text, `$ echo ctx-term-$((6*7))-m4rk\n${OUTPUT_NOT_CAPTURED}\n[exit code 0]`);
      assert.match(OUTPUT_NOT_CAPTURED, /not captured/);
    });

    it('an empty output and an unknown exit code leave only the command line', () => {
      assert.equal(formatTerminalRun(run('true', '', undefined)), '$ true');
    });

    it('says how much of a long output was cut', () => {
      const text = formatTerminalRun({
        commandLine: 'make',
        output: 'tail',
        exitCode: 2,
        droppedLines: 1234,
      });
      assert.equal(text, '$ make\n[1234 earlier lines of output not kept]\ntail\n[exit code 2]');
    });
  });
});
