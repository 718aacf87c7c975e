import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { SHOWN_CHARS, failedSummary, pendingSummary, shownText } from '../../../src/agent/toolRowText';

describe('agent tool rows: text', () => {
  it('shows text up to SHOWN_CHARS whole, and cuts longer text with an ellipsis', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: SHOWN_CHARS * 2 }), (text) => {
        const shown = shownText(text);
        if (text.length <= SHOWN_CHARS) assert.equal(shown, text);
        else assert.equal(shown, `${text.slice(0, SHOWN_CHARS)}\n…`);
      }),
    );
  });

  it('summarises a pending call by its first telling argument', () => {
    const call = (name: string, input: Record<string, unknown>) => ({ id: 'c1', name, input });
    assert.equal(
      pendingSummary(call('run_command', { command: 'npm test', cwd: 'pkg' })),
      'run_command npm test',
    );
    assert.equal(pendingSummary(call('read_file', { path: 'src/a.ts', startLine: 3 })), 'read_file src/a.ts');
    assert.equal(pendingSummary(call('find_files', { glob: '**/*.md' })), 'find_files **/*.md');
    assert.equal(pendingSummary(call('srv.tool', { count: 3 })), 'srv.tool');
  });

  it('gives a failed call the first clause of its error, cut to 60 characters', () => {
    assert.equal(failedSummary('edit_file a.ts', { content: 'done' }), 'edit_file a.ts');
    assert.equal(
      failedSummary('edit_file a.ts', {
        isError: true,
        content: 'Error: The edit: oldText occurs 2 times. Add lines around it.',
      }),
      'edit_file a.ts: oldText occurs 2 times.',
    );
    const long = failedSummary('read_file b', { isError: true, content: 'x'.repeat(200) });
    assert.equal(long, `read_file b: ${'x'.repeat(59)}…`);
  });
});
