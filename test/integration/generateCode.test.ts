import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatRequestIn, expectedCode, type Emulator } from '../gateway-emulator';
import { closeAllEditors, eventually, openFile, setSetting, withGateway, useEditingSuite } from './helpers';
import { chatRequestsOf } from '../support/emulatorRequests';
import { sleep } from '../support/poll';
import { useSettingsRestored } from '../support/settings';

type GenerateCodeResult = { status: string; code?: string };

const ORIGINAL = 'function add(a, b) {\n  return a + b;\n}\n\n// end\n';

describe('Generate Code and inline edits (real editor)', () => {
  useSettingsRestored(['chat.model']);
  let emulator: Emulator;
  useEditingSuite((started) => (emulator = started));

  it('inserts only code at the cursor, with no fences or prose', async () => {
    const editor = await openFile('gen-cursor.js', ORIGINAL, 'javascript');
    editor.selection = new vscode.Selection(3, 0, 3, 0);
    const result = await vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
      instruction: 'a multiply function',
    });
    assert.equal(result.status, 'review');
    const code = expectedCode(chatRequestIn(emulator.requests));
    assert.match(
      code,
      /^\/\*\* Multiply\. \*\/\nfunction multiply\(a, b\)/,
      'a new function named from the instruction',
    );
    assert.equal(result.code, code);
    const text = editor.document.getText();
    const cursor = ORIGINAL.indexOf('\n\n') + 1;
    assert.equal(text, ORIGINAL.slice(0, cursor) + code + ORIGINAL.slice(cursor));
    assert.ok(!text.includes('```'));
    const sent = chatRequestsOf(emulator).at(0)!.body as {
      messages: { content: string }[];
    };
    assert.match(sent.messages[0].content, /CODE ONLY/);
    assert.match(sent.messages[0].content, /LANGUAGE: javascript/);
  });

  it('Accept leaves the whole generation as one undo step', async () => {
    const editor = await openFile('gen-accept.js', ORIGINAL, 'javascript');
    editor.selection = new vscode.Selection(0, 0, 2, 1);
    await vscode.commands.executeCommand('modelGateway.generateCode', { instruction: 'rewrite it' });
    assert.notEqual(editor.document.getText(), ORIGINAL);
    assert.equal(await vscode.commands.executeCommand('modelGateway.acceptEdit'), true);
    const accepted = editor.document.getText();
    const code = expectedCode(chatRequestIn(emulator.requests));
    assert.ok(code.startsWith('/** Rewrite it. */\n'), 'the selection with a visible change');
    assert.ok(accepted.includes(code));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), ORIGINAL);
    await vscode.commands.executeCommand('redo');
    assert.equal(editor.document.getText(), accepted);
  });

  it('Reject restores the original text byte for byte', async () => {
    const original = 'const s = "ünïcödé — ✓";\r\nconst t = 1;\r\n';
    const editor = await openFile('gen-reject.js', original, 'javascript');
    editor.selection = new vscode.Selection(0, 0, 1, 12);
    await vscode.commands.executeCommand('modelGateway.generateCode', { instruction: 'rewrite' });
    assert.notEqual(editor.document.getText(), original);
    assert.equal(await vscode.commands.executeCommand('modelGateway.rejectEdit'), true);
    assert.equal(editor.document.getText(), original);
  });

  it('typing elsewhere during the stream corrupts nothing', async () => {
    await setSetting('chat.model', 'alpha-haiku-4-5-20251001');
    await withGateway({ chunkDelayMs: 40, chunkSize: 2 }, async (slow) => {
      const editor = await openFile('gen-typing.js', ORIGINAL, 'javascript');
      editor.selection = new vscode.Selection(4, 0, 4, 0);
      const running = vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
        instruction: 'x',
      });
      await eventually(() => assert.ok(editor.document.getText().length > ORIGINAL.length), 10_000);
      // The user keeps typing at the top of the file until the generation ends, as fast as key repeat
      // (a key every 30 ms), so keystrokes race the extension's own edits, the last one included.
      let settled = false;
      void Promise.resolve(running).finally(() => (settled = true));
      editor.selection = new vscode.Selection(0, 0, 0, 0);
      let typed = '';
      for (let keystroke = 0; keystroke < 2000 && !settled; keystroke++) {
        const key = keystroke % 10 === 9 ? '\n' : 'x';
        // The `type` command is what a key press runs: the editor inserts at the cursor, in the window.
        await vscode.commands.executeCommand('type', { text: key });
        typed += key;
        await sleep(30);
      }
      assert.ok(typed.length >= 5, `typed ${typed.length} characters during the stream`);
      const result = await running;
      assert.equal(result.status, 'review');
      const text = editor.document.getText();
      const code = expectedCode(chatRequestIn(slow.requests));
      assert.equal(text, typed + ORIGINAL.replace('// end\n', `${code}\n// end\n`));
    });
  });

  it('switching to another tab during the stream: the generation goes on and lands whole, then Reject restores', async () => {
    await setSetting('chat.model', 'alpha-haiku-4-5-20251001');
    await withGateway({ chunkDelayMs: 40, chunkSize: 2 }, async (slow) => {
      const editor = await openFile('gen-away.js', ORIGINAL, 'javascript');
      editor.selection = new vscode.Selection(4, 0, 4, 0);
      const document = editor.document;
      const running = vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
        instruction: 'x',
      });
      await eventually(() => assert.ok(document.getText().length > ORIGINAL.length), 10_000);
      // Another file in the same editor group: the TextEditor the generation began in is closed.
      await openFile('gen-away-other.js', '// elsewhere\n', 'javascript');
      assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document === document), 'the file is hidden');
      const result = await running;
      assert.equal(result.status, 'review');
      const code = expectedCode(chatRequestIn(slow.requests));
      assert.equal(document.getText(), ORIGINAL.replace('// end\n', `${code}\n// end\n`));
      assert.equal(await vscode.commands.executeCommand('modelGateway.rejectEdit'), true);
      assert.equal(document.getText(), ORIGINAL);
    });
  });

  it('Reject while the user keeps typing elsewhere restores the original and keeps the typing', async () => {
    const editor = await openFile('gen-reject-typing.js', ORIGINAL, 'javascript');
    editor.selection = new vscode.Selection(4, 0, 4, 0);
    const result = await vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
      instruction: 'x',
    });
    assert.equal(result.status, 'review');
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const rejecting = Promise.resolve(vscode.commands.executeCommand<boolean>('modelGateway.rejectEdit'));
    let settled = false;
    void rejecting.finally(() => (settled = true));
    let typed = '';
    for (let keystroke = 0; keystroke < 200 && !settled; keystroke++) {
      await vscode.commands.executeCommand('type', { text: 'y' });
      typed += 'y';
      await sleep(30);
    }
    assert.equal(await rejecting, true);
    assert.ok(typed.length > 0, 'a keystroke raced the restore');
    assert.equal(editor.document.getText(), typed + ORIGINAL);
  });

  it('cancel closes the connection and leaves the document as it was', async () => {
    await withGateway({ chunkDelayMs: 50, chunkSize: 2 }, async (slow) => {
      const editor = await openFile('gen-cancel.js', ORIGINAL, 'javascript');
      editor.selection = new vscode.Selection(4, 0, 4, 0);
      const running = vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
        instruction: 'x',
      });
      await eventually(() => assert.ok(editor.document.getText().length > ORIGINAL.length), 10_000);
      await vscode.commands.executeCommand('modelGateway.rejectEdit');
      const result = await running;
      assert.equal(result.status, 'cancelled');
      await slow.waitFor((requests) => requests.some((r) => r.clientClosed), 5000);
      assert.equal(editor.document.getText(), ORIGINAL);
    });
  });

  it('a gateway error after partial output restores the original text', async () => {
    const editor = await openFile('gen-error.js', ORIGINAL, 'javascript');
    editor.selection = new vscode.Selection(4, 0, 4, 0);
    const result = await vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
      instruction: 'x [[fault:reset-mid-stream]]',
    });
    assert.equal(result.status, 'failed');
    assert.equal(editor.document.getText(), ORIGINAL);
  });

  it('refuses when no editor is open', async () => {
    await closeAllEditors();
    const result = await vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
      instruction: 'x',
    });
    assert.equal(result.status, 'unavailable');
    assert.equal(emulator.requests.length, 0);
  });

  it('refuses a read-only document and sends nothing', async () => {
    const registration = vscode.workspace.registerFileSystemProvider(
      'mg-readonly',
      new ReadOnlyFs(ORIGINAL),
      {
        isReadonly: true,
      },
    );
    try {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('mg-readonly:/locked.js'));
      await vscode.window.showTextDocument(doc);
      const result = await vscode.commands.executeCommand<GenerateCodeResult>('modelGateway.generateCode', {
        instruction: 'x',
      });
      assert.equal(result.status, 'unavailable');
      assert.equal(doc.getText(), ORIGINAL);
      assert.equal(emulator.requests.length, 0);
    } finally {
      await closeAllEditors();
      registration.dispose();
    }
  });
});

/** A real read-only file system with one file, to open a document VS Code treats as read-only. */
class ReadOnlyFs implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  constructor(private readonly text: string) {}
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(): vscode.FileStat {
    return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: this.text.length };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
  readFile(): Uint8Array {
    return new TextEncoder().encode(this.text);
  }
  writeFile(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions();
  }
}
