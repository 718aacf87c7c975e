import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerHeadline, expectedCode } from '../gateway-emulator';
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
import { articles, emulator, lastChatRequest, until } from './chatHelpers';
import { codeLens, editorText, openFile } from './editorHelpers';
import { answerImagePrompts } from './imagePrompts';
import { isImageRequest, untilClosedSince, untilRequestSince } from '../support/emulatorRequests';

function imagesIn(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).sort() : [];
}

describe('Editor commands in the real editor', function () {
  this.timeout(120_000);

  it('Explain Selection streams the explanation into the chat with the quoted code', async () => {
    const { page } = e2e();
    await openFile(page, 'sample.ts');
    await page.keyboard.press('Control+A');
    await runCommand(page, 'Model Gateway: Explain Selection');
    // The command itself reveals the chat view.
    const frame = await webviewWith(page, 'textarea[aria-label="Message"]', 30_000);
    const you = articles(frame, 'You').last();
    await you.waitFor();
    await until(
      async () => (await you.innerText()).includes('export function add'),
      15_000,
      'the quoted code',
    );
    const answer = articles(frame, /^Assistant /).last();
    await until(
      async () =>
        (await answer.innerText()).includes(
          answerHeadline(lastChatRequest().messages.at(-1)?.content ?? 'no request yet'),
        ),
      20_000,
      'the explanation',
    );
    await screenshot(page, 'e2e-explain-selection');
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
