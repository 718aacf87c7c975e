// Issue 25, finding 4: edits change exactly what the user selected and what the model returned. Each test edits
// a file of its own in the real editor, saves it, and compares the bytes on disk.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedCode } from '../gateway-emulator';
import { acceptInputBox, runCommand } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { eventually } from '../support/poll';
import { articles, lastChatRequest, openNewChat, send } from './chatHelpers';
import { codeLens, openFile } from './editorHelpers';

/** Writes `text` to src/`name` in the workspace and opens it alone; returns its path. */
async function openFresh(name: string, text: string): Promise<string> {
  const { page, folder } = e2e();
  const path = join(folder, 'src', name);
  writeFileSync(path, text);
  await runCommand(page, 'View: Close All Editors');
  await openFile(page, `src/${name}`);
  return path;
}

/** Saves the active editor and waits until the file on disk holds exactly `expected` (bounded). */
async function savedAs(path: string, expected: string): Promise<void> {
  await runCommand(e2e().page, 'File: Save');
  await eventually(() => assert.equal(readFileSync(path, 'utf8'), expected), 10_000);
}

/** Runs Generate Code at the end of the file and accepts the whole review; returns the model's code. */
async function generateAtEnd(): Promise<string> {
  const { page } = e2e();
  await page.keyboard.press('Control+End');
  await runCommand(page, 'Model Gateway: Generate Code');
  await acceptInputBox(page, 'a function that multiplies two numbers');
  const accept = codeLens(page, 'Accept All');
  await accept.waitFor({ timeout: 20_000 });
  await accept.click();
  await accept.waitFor({ state: 'detached', timeout: 10_000 });
  return expectedCode(lastChatRequest());
}

describe('Newlines of edits in the real editor', function () {
  this.timeout(120_000);

  for (const eol of ['\n', '\r\n']) {
    const name = eol === '\n' ? 'LF' : 'CRLF';
    it(`Generate Code at the end of a file keeps the blank line before it and the final newline (${name})`, async () => {
      const original = `export const one = 1;${eol}${eol}`;
      const path = await openFresh(`end-${name.toLowerCase()}.ts`, original);
      const code = await generateAtEnd();
      await savedAs(path, `${original}${code.replace(/\n/g, eol)}${eol}`);
    });
  }

  it('Generate Code at the end of a file without a final newline puts the code on a line of its own', async () => {
    const original = 'export const one = 1;';
    const path = await openFresh('end-bare.ts', original);
    const code = await generateAtEnd();
    await savedAs(path, `${original}\n${code}`);
  });

  it('Replace on a line-wise selection (Shift+Down ×4) keeps the blank line after it', async () => {
    const { page } = e2e();
    const rest = '\nconst e = 5;\n';
    const path = await openFresh(
      'linewise.ts',
      `const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n${rest}`,
    );
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowDown');
    const frame = await openNewChat(page);
    const block = 'const a = 10;\nconst b = 20;';
    // The echo marker makes the emulator answer with the message, so the answer holds this block.
    await send(frame, `[[echo]]Replace:\n\`\`\`ts\n${block}\n\`\`\``);
    const answer = articles(frame, /^Assistant /).last();
    const replace = answer.locator('.code-block [data-code-action="replace"]').first();
    await replace.waitFor({ state: 'visible', timeout: 30_000 });
    await frame.getByRole('button', { name: 'Regenerate' }).last().waitFor({ timeout: 30_000 });
    await replace.click();
    await savedAs(path, `${block}\n${rest}`);
  });
});
