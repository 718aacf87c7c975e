import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { GREET_JS } from '../gateway-emulator/fixedAnswers';
import { eventually, openFile, useEditingSuite } from './helpers';

type Snapshot = { added: number[]; removed: Array<{ line: number; text: string }>; hunks: number };

// The instruction asks the emulator for its fixed `greet-js` answer; this body differs from it in two separate
// lines, so a review of it has two hunks: the return line and the export line.
const BODY = "function greet(name) {\n  return 'Hi ' + name;\n}\n\nmodule.exports = {};\n";
const PROPOSED = `${GREET_JS}\n`;
const INSTRUCTION = 'say hello [[answer:greet-js]]';
const HEADER = '// header\n';
const FOOTER = '// footer\n';

async function snapshot(): Promise<Snapshot> {
  const extension = vscode.extensions.getExtension<{ reviewSnapshot(): Snapshot }>(
    'modelgateway.model-gateway',
  );
  return (await extension!.activate()).reviewSnapshot();
}

/** Opens header + BODY + footer (with `eol` line endings), selects BODY and runs Generate Code on it. */
async function generateOverBody(name: string, eol = '\n'): Promise<vscode.TextEditor> {
  const text = (HEADER + BODY + FOOTER).replace(/\n/g, eol);
  const editor = await openFile(name, text, 'javascript');
  editor.selection = new vscode.Selection(1, 0, 6, 0);
  const result = await vscode.commands.executeCommand<{ status: string }>('modelGateway.generateCode', {
    instruction: INSTRUCTION,
  });
  assert.equal(result.status, 'review');
  return editor;
}

describe('Edit review: hunks in place (real editor)', () => {
  useEditingSuite();

  it('shows the proposed text with its added lines, and the removed lines beside them', async () => {
    const editor = await generateOverBody('review-show.js');
    assert.equal(editor.document.getText(), HEADER + PROPOSED + FOOTER);
    const shown = await snapshot();
    assert.equal(shown.hunks, 2);
    assert.deepEqual(shown.added, [2, 5]);
    assert.deepEqual(
      shown.removed.map((r) => r.line),
      [2, 5],
    );
    assert.match(shown.removed[0].text, /return\u00a0'Hi\u00a0'\u00a0\+\u00a0name;/);
    assert.match(shown.removed[1].text, /module\.exports\u00a0=\u00a0\{\};/);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      editor.document.uri,
    );
    const titles = lenses.map((l) => `${l.range.start.line}:${l.command?.title}`);
    // Each hunk's lenses carry a codicon before the word (finding 17: VS Code draws lenses small and grey).
    for (const want of ['2:$(check) Accept', '2:$(close) Reject', '5:$(check) Accept', '5:$(close) Reject'])
      assert.ok(titles.includes(want), titles.join());
  });

  it('accepting one hunk and rejecting the other saves exactly that to disk, CRLF kept', async () => {
    const editor = await generateOverBody('review-mixed.js', '\r\n');
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    assert.equal(await vscode.commands.executeCommand('modelGateway.acceptHunk'), true);
    assert.equal((await snapshot()).hunks, 1);
    assert.equal(await vscode.commands.executeCommand('modelGateway.rejectHunk'), true);
    assert.equal((await snapshot()).hunks, 0, 'the review ends when every hunk is decided');
    const want = (
      HEADER +
      BODY.replace("return 'Hi ' + name;", 'return `Hello, ${name}!`;') +
      FOOTER
    ).replace(/\n/g, '\r\n');
    assert.equal(editor.document.getText(), want);
    // On a loaded machine the watcher's late event for the file's creation can make a first save fail.
    await eventually(async () => assert.ok(await editor.document.save()), 10_000);
    assert.equal(await readFile(editor.document.uri.fsPath, 'utf8'), want);
  });

  it('Reject all gives the original back byte for byte, without a final newline', async () => {
    const original = HEADER + BODY.trimEnd();
    const editor = await openFile('review-reject.js', original, 'javascript');
    editor.selection = new vscode.Selection(1, 0, 5, 20);
    await vscode.commands.executeCommand('modelGateway.generateCode', { instruction: INSTRUCTION });
    assert.notEqual(editor.document.getText(), original);
    assert.equal(await vscode.commands.executeCommand('modelGateway.rejectEdit'), true);
    assert.equal(editor.document.getText(), original);
    assert.equal((await snapshot()).hunks, 0);
  });

  it('after Accept all, one Undo gives the original back', async () => {
    const editor = await generateOverBody('review-undo.js');
    assert.equal(await vscode.commands.executeCommand('modelGateway.acceptEdit'), true);
    assert.equal(editor.document.getText(), HEADER + PROPOSED + FOOTER);
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), HEADER + BODY + FOOTER);
  });

  it('follows typing elsewhere; typing inside a hunk makes it the user’s own text', async () => {
    const editor = await generateOverBody('review-typing.js');
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    for (const key of ['l', 'e', 't', ' ', 'z', ';', '\n'])
      await vscode.commands.executeCommand('type', { text: key });
    // The export line is line 6 now; typing into it settles that hunk as the user wrote it.
    editor.selection = new vscode.Selection(6, 0, 6, 0);
    await vscode.commands.executeCommand('type', { text: 'const y = 1; ' });
    await eventually(async () => assert.equal((await snapshot()).hunks, 1));
    assert.equal(await vscode.commands.executeCommand('modelGateway.rejectEdit'), true);
    const exportLine = 'const y = 1; module.exports = { greet };\n';
    assert.equal(
      editor.document.getText(),
      `let z;\n${HEADER}${BODY.replace('module.exports = {};\n', exportLine)}${FOOTER}`,
    );
  });

  it('survives switching editors, and moves between hunks', async () => {
    const editor = await generateOverBody('review-switch.js');
    await openFile('review-other.js', 'other\n', 'javascript');
    await vscode.commands.executeCommand('type', { text: 'typed in another file ' });
    const back = await vscode.window.showTextDocument(editor.document);
    assert.equal((await snapshot()).hunks, 2);
    back.selection = new vscode.Selection(0, 0, 0, 0);
    assert.equal(await vscode.commands.executeCommand('modelGateway.nextHunk'), true);
    assert.equal(vscode.window.activeTextEditor!.selection.active.line, 2);
    assert.equal(await vscode.commands.executeCommand('modelGateway.nextHunk'), true);
    assert.equal(vscode.window.activeTextEditor!.selection.active.line, 5);
    assert.equal(await vscode.commands.executeCommand('modelGateway.previousHunk'), true);
    assert.equal(vscode.window.activeTextEditor!.selection.active.line, 2);
    assert.equal(await vscode.commands.executeCommand('modelGateway.rejectEdit'), true);
    assert.equal(editor.document.getText(), HEADER + BODY + FOOTER);
  });
});
