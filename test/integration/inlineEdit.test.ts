import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { InlineEdit } from '../../src/host/editor/inlineEdit';
import { closeAllEditors, openFile } from './helpers';

describe('InlineEdit: streamed updates (real editor)', () => {
  afterEach(closeAllEditors);

  it('drops a streamed update that a later one overtook in the queue; the last one always lands', async () => {
    const editor = await openFile('inline-edit-queue.js', 'a\nb\nc\n', 'javascript');
    const edit = new InlineEdit(editor, new vscode.Range(1, 0, 1, 1), 'b', () => undefined);
    const written: string[] = [];
    const subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === editor.document) written.push(...e.contentChanges.map((c) => c.text));
    });
    try {
      // As a fast stream queues them: each update carries all the text so far.
      const results = await Promise.all([
        edit.setCode('one'),
        edit.setCode('one two'),
        edit.setCode('one two three', true),
      ]);
      assert.deepEqual(results, [false, false, true]);
      assert.equal(editor.document.getText(), 'a\none two three\nc\n');
      assert.deepEqual(written, ['one two three'], 'one edit, not three');
      // An update with nothing queued behind it is written, and only the part that differs.
      assert.equal(await edit.setCode('one two three four'), true);
      assert.equal(editor.document.getText(), 'a\none two three four\nc\n');
      assert.deepEqual(written, ['one two three', ' four']);
    } finally {
      subscription.dispose();
      edit.dispose();
    }
  });
});
