import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedCode } from '../gateway-emulator';
import { readImageDimensions } from '../support/pngInfo';
import {
  acceptInputBox,
  clickNotificationButton,
  hideNotifications,
  runCommand,
  screenshot,
  waitForNotification,
  webviewWith,
} from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { articles, emulator, lastChatRequest, modeSelect, openAgentChat, until } from './chatHelpers';
import { codeLens, editorText, openFile } from './editorHelpers';
import { answerImagePrompts } from './imagePrompts';
import { isImageRequest, untilClosedSince, untilRequestSince } from '../support/emulatorRequests';

function imagesIn(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

describe('Editor commands in the real editor', function () {
  this.timeout(120_000);

  // Issue 25, finding 10: the turn says what the user asked, the code is a chip; the model still gets it all.
  it('Explain Selection shows "Explain `add` in sample.ts:2-4" with the code as a chip; the request carries the code and its surroundings', async () => {
    const { page } = e2e();
    await openFile(page, 'sample.ts');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
    await runCommand(page, 'Model Gateway: Explain Selection');
    // The command itself reveals the chat view.
    const frame = await webviewWith(page, 'textarea[aria-label="Message"]', 30_000);
    const you = articles(frame, 'You').last();
    await you.waitFor();
    await until(
      async () => (await you.locator('.user-text').innerText()).trim() === 'Explain add in sample.ts:2-4',
      15_000,
      'the question as the user asked it',
    );
    assert.equal(await you.locator('.user-text code').innerText(), 'add');
    const chip = you.getByRole('button', { name: 'Open sample.ts', exact: true });
    assert.equal((await chip.locator('.chip-lines').innerText()).trim(), ':2-4');
    const shown = await you.innerText();
    assert.ok(!shown.includes('Surrounding lines'), `no internal prompt in the turn: ${shown}`);
    assert.ok(!shown.includes('return a + b'), `the code is in the chip, not the turn: ${shown}`);

    const answer = articles(frame, /^Assistant /).last();
    // The emulator names each attachment that reached it: the code travelled as the selection, lines 2-4.
    await until(
      async () =>
        (await answer.innerText()).includes('Attachments received: selection src/sample.ts lines 2-4.'),
      20_000,
      'the explanation',
    );
    // The demo's explanation is about the selected function, not the lines after it (issue 25, finding 9).
    await until(
      async () => (await answer.innerText()).includes('This typescript code defines add in 3 lines.'),
      20_000,
      'the explanation of add',
    );
    const wire = String(lastChatRequest().messages.at(-1)?.content ?? '');
    assert.match(
      wire,
      /<attachment kind="selection" path="src\/sample\.ts" lines="2-4" language="typescript">/,
    );
    assert.ok(wire.includes('export function add(a: number, b: number): number {\n  return a + b;\n}'), wire);
    assert.ok(wire.includes('Surrounding lines, for context only'), wire);
    assert.ok(wire.includes('/** Greets someone by name. */'), `the lines after the code: ${wire}`);
    assert.ok(!wire.includes('Explain `add` in'), `the model gets the instruction, not the title: ${wire}`);

    // Issue 25, finding 12: the header names the model as the picker does, and Copy says it copied.
    const author = answer.locator('.turn-author');
    assert.equal(await author.getAttribute('title'), lastChatRequest().model);
    assert.ok(!(await author.innerText()).includes(lastChatRequest().model), 'not the raw id');
    const copy = answer.getByRole('button', { name: 'Copy message', exact: true });
    await copy.click();
    await until(async () => (await copy.innerText()).trim() === 'Copied', 5000, 'Copied on the button');
    await screenshot(page, 'e2e-explain-selection');
  });

  it('Explain Selection from a chat in Agent mode answers as a question: the chat switches to Ask, no tools offered', async () => {
    const { page } = e2e();
    const frame = await openAgentChat(page);
    await openFile(page, 'sample.ts');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
    const since = emulator().requests.length;
    await runCommand(page, 'Model Gateway: Explain Selection');
    const answer = articles(frame, /^Assistant /).last();
    await until(
      async () => (await answer.innerText()).includes('This typescript code defines add in 3 lines.'),
      30_000,
      'the explanation of add',
    );
    assert.equal(await modeSelect(frame).inputValue(), 'ask', 'the Mode select shows Ask');
    const requests = emulator()
      .requests.slice(since)
      .filter((r) => r.path.startsWith('/v1/chat/completions'));
    assert.equal(requests.length, 1, 'one plain chat request, no agent steps');
    assert.equal((requests[0].body as { tools?: unknown }).tools, undefined, 'no tools offered');
  });

  it('Generate Code streams code into the editor, then Accept through the review', async () => {
    const { page, folder } = e2e();
    const file = join(folder, 'src', 'sample.ts');
    const original = readFileSync(file, 'utf8');
    await runCommand(page, 'View: Close All Editors');
    await openFile(page, 'sample.ts');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await runCommand(page, 'Model Gateway: Generate Code');
    await acceptInputBox(page, 'a function that multiplies two numbers');
    const accept = codeLens(page, 'Accept All');
    await accept.waitFor({ timeout: 20_000 });
    await screenshot(page, 'e2e-generate-code-review');
    const text = await editorText(page);
    const code = expectedCode(lastChatRequest());
    assert.match(code, /export function multiplyTwoNumbers\(a: number, b: number\): number/);
    for (const line of code.split('\n').filter((l) => l.trim())) {
      assert.ok(text.includes(line.trim()), `generated line "${line}" is in the editor`);
    }
    assert.ok(!text.includes('```'));
    await accept.click();
    await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
    // Accepted code is the user's: auto-save (on in code-server, paused during the review) writes it at once.
    // Putting the file back on disk is then what gives later tests the fixture's sample.ts.
    await until(
      () => readFileSync(file, 'utf8').includes('multiplyTwoNumbers'),
      10_000,
      'the accepted code saved',
    );
    writeFileSync(file, original);
    await until(
      async () => !(await editorText(page)).includes('multiplyTwoNumbers'),
      10_000,
      'the editor to show the file as it is on disk',
    );
  });

  it('Generate Image: Enter accepts every default, the image is saved and opened', async () => {
    const { page, folder } = e2e();
    const target = join(folder, 'assets', 'generated');
    const before = imagesIn(target);
    await runCommand(page, 'Model Gateway: Generate Image');
    await answerImagePrompts(page, 'A red fox in the snow');
    const saved = await waitForNotification(page, /Saved assets\/generated\/a-red-fox-in-the-snow-/, 30_000);
    const added = imagesIn(target).filter((name) => !before.includes(name));
    assert.equal(added.length, 1);
    assert.match(added[0], /^a-red-fox-in-the-snow-\d{8}-\d{6}\.png$/);
    const dims = readImageDimensions(new Uint8Array(readFileSync(join(target, added[0]))));
    assert.deepEqual(dims, { format: 'png', width: 1024, height: 1024 });
    // The request used the setting's format: no wizard step asked for one.
    const sent = emulator().requests.filter(isImageRequest).at(-1)?.body as { response_format?: string };
    assert.equal(sent.response_format, 'b64_json');
    // Opened in the active group, not in a new group beside it.
    await page.locator('.tab').filter({ hasText: added[0] }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.editor-group-container').count(), 1, 'editor groups');
    await screenshot(page, 'e2e-generate-image');
    // The notification offers Open and Reveal; Reveal selects the file in the Explorer.
    await saved.getByRole('button', { name: 'Open', exact: true }).waitFor({ timeout: 5_000 });
    await clickNotificationButton(saved, 'Reveal');
    await page
      .locator('.explorer-folders-view .monaco-list-row.selected')
      .filter({ hasText: added[0] })
      .waitFor({ timeout: 10_000 });
    await hideNotifications(page);
  });

  it('Cancel on the image progress notification closes the request and leaves no file', async () => {
    const { page, folder } = e2e();
    const target = join(folder, 'assets', 'generated');
    const before = imagesIn(target);
    const requests = emulator().requests.length;
    await runCommand(page, 'Model Gateway: Generate Image');
    await answerImagePrompts(page, 'A slow painting [[fault:image-delay:20000]]');
    await untilRequestSince(emulator(), requests, isImageRequest, 10_000, 'the image request');
    const progress = await waitForNotification(page, /Generating 1 image/);
    await clickNotificationButton(progress, 'Cancel');
    await untilClosedSince(emulator(), requests, 'the gateway to see the cancel');
    await page.waitForTimeout(500);
    assert.deepEqual(imagesIn(target), before);
    await hideNotifications(page);
  });
});
