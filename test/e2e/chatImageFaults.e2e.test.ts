import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { e2e } from '../harness/e2eFixture';
import { articles, emulator, openChat, send, until, openNewChat } from './chatHelpers';
import { isImageRequest } from '../support/emulatorRequests';

/** Every entry of the images folder, hidden `.…partial-…` files included (none when it does not exist). */
function everything(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
}

// Bad answers from the gateway, each from the emulator's image faults: the turn says what went wrong,
// and the images folder is exactly as it was (no image, no sidecar, no partial file).
const CASES = [
  {
    name: 'zero images',
    command: '/image A quiet harbor [[fault:image-none]] --format b64_json',
    message: 'The gateway answered without any images. Try again. Nothing was saved.',
  },
  {
    name: 'a non-image payload (b64_json)',
    command: '/image A quiet meadow [[fault:image-not-image]] --format b64_json --n 2',
    message: 'The gateway sent an image that is not PNG, JPEG or WebP. Nothing was saved.',
  },
  {
    name: 'a non-image payload (url)',
    command: '/image A quiet forest [[fault:image-url-html]] --format url',
    message: 'The image link served text/html instead of an image. Nothing was saved.',
  },
  {
    name: 'an expired URL',
    command: '/image A quiet desert [[fault:image-url-expired]] --format url --n 2',
    message:
      'The image link has expired or is not accessible (403). Generate the image again; the b64_json response format avoids expiring links. Nothing was saved.',
  },
] as const;

describe('Images in the chat: bad answers from the gateway (real editor)', function () {
  this.timeout(120_000);

  for (const { name, command, message } of CASES) {
    it(`${name}: a clear message in the turn, nothing written to the images folder`, async () => {
      const { page, folder } = e2e();
      const target = join(folder, 'assets', 'generated');
      const before = everything(target);
      const from = emulator().requests.length;
      const frame = await openNewChat(page);
      await send(frame, command);
      const turn = articles(frame, 'Image').last();
      const shown = turn.locator('.error-message');
      await shown.waitFor({ timeout: 30_000 });
      const text = (await shown.textContent()) ?? '';
      assert.equal(text, message);
      assert.ok(emulator().requests.slice(from).some(isImageRequest), 'the gateway was asked');
      assert.equal(await turn.locator('img').count(), 0);
      // Let any late write land before looking at the folder.
      await page.waitForTimeout(500);
      assert.deepEqual(everything(target), before);
    });
  }

  it('the turn after a failure still works: a good /image saves its file', async () => {
    const { page, folder } = e2e();
    const target = join(folder, 'assets', 'generated');
    const before = everything(target);
    const frame = await openChat(page);
    await send(frame, '/image A quiet harbor at noon --format b64_json --size 1024x1024');
    const turn = articles(frame, 'Image').last();
    await turn.getByRole('img', { name: 'A quiet harbor at noon', exact: true }).waitFor({ timeout: 30_000 });
    await until(() => everything(target).length > before.length, 10_000, 'the saved file');
    assert.ok(everything(target).every((n) => !n.includes('.partial-')));
  });
});
