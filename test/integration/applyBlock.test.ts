import * as assert from 'node:assert/strict';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Emulator } from '../gateway-emulator';
import { emulatedMerge } from '../gateway-emulator/mergeAnswer';
import {
  closeAllEditors,
  eventually,
  openFile,
  withSettings,
  workspaceRoot,
  useEditingSuite,
} from './helpers';
import { chatRequestsOf, isChatRequest } from '../support/emulatorRequests';
import { useSettingsRestored } from '../support/settings';

type ApplyResult = { status: string; mode?: string; file?: string; hunks?: number; message?: string };

/** A 40-line TypeScript file: twenty small functions `f1`…`f20`. */
const FILE = Array.from(
  { length: 20 },
  (_, i) => `export function f${i + 1}() {\n  return ${i + 1};\n}\n`,
).join('');

const apply = (request: Record<string, unknown>): Thenable<ApplyResult> =>
  vscode.commands.executeCommand<ApplyResult>('modelGateway.applyCodeBlock', request);

function chatRequests(emulator: Emulator): Array<{ model: string }> {
  return chatRequestsOf(emulator).map((r) => r.body as { model: string });
}

async function disk(name: string): Promise<string> {
  return readFile(vscode.Uri.joinPath(workspaceRoot(), name).fsPath, 'utf8');
}

function documentOf(name: string): vscode.TextDocument {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.path.endsWith(`/${name}`));
  assert.ok(doc, `${name} is open`);
  return doc;
}

describe('Apply a chat code block (real editor)', () => {
  useSettingsRestored(['edit.applyModel']);
  let emulator: Emulator;
  useEditingSuite((started) => (emulator = started));

  it('applies a whole new file to the file the block names, diffed directly, without a request', async () => {
    await openFile('apply-direct.ts', FILE, 'typescript');
    await openFile('apply-other.ts', 'let other = 1;\n', 'typescript');
    const block = FILE.replace('return 3;', 'return 33;').replace('return 17;', 'return 17 + 0;');
    const result = await apply({ code: block, language: 'ts', target: 'apply-direct.ts' });
    assert.deepEqual(
      { status: result.status, mode: result.mode, file: result.file, hunks: result.hunks },
      { status: 'review', mode: 'direct', file: 'apply-direct.ts', hunks: 2 },
    );
    assert.equal(chatRequests(emulator).length, 0, 'no model was asked');
    const doc = documentOf('apply-direct.ts');
    assert.equal(doc.getText(), block);
    assert.equal(vscode.window.activeTextEditor?.document, doc, 'the target is shown');
    await vscode.commands.executeCommand('modelGateway.acceptEdit');
    await eventually(async () => assert.ok(await doc.save()));
    assert.equal(await disk('apply-direct.ts'), block);
    assert.equal(
      await readFile(vscode.Uri.joinPath(workspaceRoot(), 'apply-other.ts').fsPath, 'utf8'),
      'let other = 1;\n',
    );
  });

  it('merges a fragment through the apply model, answered by the emulator, then reviews it', async () => {
    await openFile('apply-merge.ts', FILE, 'typescript');
    const block = 'export function f7() {\n  const seven = 7;\n  return seven;\n}';
    const result = await apply({ code: `// apply-merge.ts\n${block}`, language: 'ts' });
    assert.equal(result.status, 'review', result.message);
    assert.equal(result.mode, 'merge');
    const requests = chatRequests(emulator);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].model, 'alpha-haiku-4-5-20251001', 'the default modelGateway.edit.applyModel');
    const merged = emulatedMerge(FILE, block);
    assert.notEqual(merged, FILE);
    const doc = documentOf('apply-merge.ts');
    assert.equal(doc.getText(), merged, 'the naming comment is not merged in');
    assert.equal(result.hunks, 1);
    await vscode.commands.executeCommand('modelGateway.acceptEdit');
    await eventually(async () => assert.ok(await doc.save()));
    assert.equal(await disk('apply-merge.ts'), merged);
  });

  it('a cancelled merge leaves the file untouched, and the request used the configured model', async () => {
    await withSettings({ 'edit.applyModel': 'alpha-sonnet-4-5-20250929' }, async () => {
      await openFile('apply-cancel.ts', FILE, 'typescript');
      const block = 'export function f2() {\n  // [[fault:stall-mid-stream]]\n  return 22;\n}';
      const running = apply({ code: block, language: 'ts', target: 'apply-cancel.ts' });
      await emulator.waitFor((r) => r.some(isChatRequest), 10_000);
      // Wait for the streamed part to reach the document, so the cancellation has something to undo.
      const doc = documentOf('apply-cancel.ts');
      await eventually(() => assert.notEqual(doc.getText(), FILE));
      await vscode.commands.executeCommand('modelGateway.rejectEdit');
      const result = await running;
      assert.equal(result.status, 'cancelled');
      assert.equal(chatRequests(emulator)[0].model, 'alpha-sonnet-4-5-20250929');
      assert.equal(doc.getText(), FILE);
      await eventually(() => assert.equal(doc.isDirty, false));
      assert.equal(await disk('apply-cancel.ts'), FILE);
    });
  });

  it('a failed merge, or a merge that drops most of the file, leaves it untouched', async () => {
    await openFile('apply-fail.ts', FILE, 'typescript');
    const failing = 'export function f2() {\n  // [[fault:status:500]]\n  return 22;\n}';
    assert.equal((await apply({ code: failing, target: 'apply-fail.ts' })).status, 'failed');
    assert.equal(documentOf('apply-fail.ts').getText(), FILE);
    // The emulator answers `[[answer:long]]` with a long Markdown text whose first code block is short.
    const dropping = 'export function f2() {\n  // [[answer:long]]\n  return 22;\n}';
    const refused = await apply({ code: dropping, target: 'apply-fail.ts' });
    assert.equal(refused.status, 'refused');
    assert.match(refused.message ?? '', /was not applied: it (removes lines|keeps only)/);
    const doc = documentOf('apply-fail.ts');
    assert.equal(doc.getText(), FILE);
    await eventually(() => assert.equal(doc.isDirty, false));
    assert.equal(await disk('apply-fail.ts'), FILE);
  });

  it('says so and changes nothing without a target, or with a read-only one', async () => {
    await closeAllEditors();
    const none = await apply({ code: 'let a = 1;\n', target: 'no/such/file.ts' });
    assert.equal(none.status, 'unavailable');
    assert.match(none.message ?? '', /Apply needs a file/);
    await writeFile(vscode.Uri.joinPath(workspaceRoot(), 'apply-readonly.ts').fsPath, FILE);
    const path = vscode.Uri.joinPath(workspaceRoot(), 'apply-readonly.ts').fsPath;
    await chmod(path, 0o444);
    try {
      const readOnly = await apply({
        code: FILE.replace('return 1;', 'return 0;'),
        target: 'apply-readonly.ts',
      });
      assert.equal(readOnly.status, 'unavailable');
      assert.match(readOnly.message ?? '', /apply-readonly\.ts is read-only/);
      assert.equal(await readFile(path, 'utf8'), FILE);
      assert.equal(chatRequests(emulator).length, 0);
    } finally {
      await chmod(path, 0o644);
    }
  });

  it('computes the review against the file as it is on disk now', async () => {
    const editor = await openFile('apply-disk.ts', FILE, 'typescript');
    // Changed behind the editor's back, the block written against the new text.
    const changed = FILE.replace('return 1;', 'return 100;');
    await writeFile(editor.document.uri.fsPath, changed);
    const block = changed.replace('return 20;', 'return 200;');
    const result = await apply({ code: block, target: 'apply-disk.ts' });
    assert.equal(result.status, 'review');
    assert.equal(result.hunks, 1, 'only the block’s own change is a hunk');
    assert.equal(editor.document.getText(), block);
  });

  it('applies a block answering a quoted selection of the file directly, in place of the selection', async () => {
    await openFile('apply-quote.ts', FILE, 'typescript');
    const quote = {
      code: 'export function f5() {\n  return 5;\n}\n',
      language: 'typescript',
      fileName: 'apply-quote.ts',
      startLine: 13,
    };
    const block = 'export function f5(): number {\n  return 5;\n}';
    const result = await apply({ code: block, target: 'apply-quote.ts', quote });
    assert.equal(result.status, 'review');
    assert.equal(result.mode, 'direct');
    assert.equal(chatRequests(emulator).length, 0);
    assert.equal(documentOf('apply-quote.ts').getText(), FILE.replace('f5() {', 'f5(): number {'));
  });
});
