import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { COMMAND_DECLINED, commandFailed, commandResultText } from '../../../src/agent/commandResult';
import { truncateToolResult } from '../../../src/agent/truncate';
import { estimateTokens } from '../../../src/chat/tokens';

describe('agent/commandResult: what run_command tells the model', () => {
  it('gives the output, then the exit code', () => {
    assert.equal(
      commandResultText({ output: '42', end: { kind: 'exited', exitCode: 0 } }),
      '42\n[exit code 0]',
    );
    assert.equal(
      commandResultText({ output: '', end: { kind: 'exited', exitCode: 0 } }),
      '[no output]\n[exit code 0]',
    );
  });

  it('says when the output was not captured, never an empty output', () => {
    const text = commandResultText({ output: undefined, end: { kind: 'exited', exitCode: 0 } });
    assert.match(text, /output not captured/);
    assert.match(text, /\[exit code 0\]$/);
  });

  it('says a timeout or a stop, and whether the terminal had to be killed', () => {
    const timedOut = commandResultText({
      output: 'tick',
      end: { kind: 'timedOut', seconds: 2, killed: false },
    });
    assert.match(
      timedOut,
      /^tick\n\[timed out after 2 s: It was interrupted with Ctrl-C\. The output so far is above\.\]$/,
    );
    const killed = commandResultText({ output: 'tick', end: { kind: 'stopped', killed: true } });
    assert.match(killed, /stopped by the user: It did not end on Ctrl-C, so its terminal was killed/);
    assert.equal(commandFailed({ kind: 'exited', exitCode: 0 }), false);
    assert.equal(commandFailed({ kind: 'exited', exitCode: 3 }), true);
    assert.equal(commandFailed({ kind: 'timedOut', seconds: 1, killed: false }), true);
    assert.match(COMMAND_DECLINED, /^The user declined to run this command/);
  });

  it('says when the shell never reported the command, with nothing claimed about its output or exit code', () => {
    const end = { kind: 'unreported', seconds: 15 } as const;
    const text = commandResultText({ output: undefined, end });
    assert.match(text, /^\[the shell did not report the command starting within 15 s: /);
    assert.match(text, /It may have run, or may still be running, in the terminal left open for the user/);
    assert.doesNotMatch(text, /exit code \d|no output|output not captured/);
    assert.equal(commandFailed(end), true);
  });

  it('a long output is cut at its start: the end and the exit code survive, with a marker (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 2000 }),
        fc.integer({ min: 0, max: 255 }),
        (lines, exitCode) => {
          const output = Array.from({ length: lines }, (_, i) => `line ${i + 1} of the output`).join('\n');
          const text = commandResultText({ output, end: { kind: 'exited', exitCode } });
          const cut = truncateToolResult(text, { maxTokens: 500, keep: 'tail', estimateTokens });
          assert.ok(cut.cut);
          assert.ok(estimateTokens(cut.text) <= 500);
          assert.match(cut.text, /^\[Cut: the result was over 500 tokens; lines \d+–\d+ of \d+ shown\./);
          assert.ok(cut.text.endsWith(`line ${lines} of the output\n[exit code ${exitCode}]`));
          assert.ok(!cut.text.includes('\nline 1 of the output\n'));
        },
      ),
    );
  });
});
