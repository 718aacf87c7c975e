// §4 File safety, cancel during the download: the gateway's image link trickles bytes, the user presses
// Cancel on the progress notification mid-download; the download is closed and nothing is written.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { clickNotificationButton, runCommand, waitForNotification } from '../../harness/browser';
import { e2e } from '../../harness/e2eFixture';
import { until } from '../../e2e/chatHelpers';
import { answerImagePrompts } from '../../e2e/imagePrompts';
import { ensureFixtureGateway, onFixtureEmulator } from './xssFrame';

/** Every file below `dir`, relative, partial files included. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('File safety: Cancel during an image download (real editor)', function () {
  this.timeout(120_000);

  it('closes the download and leaves no file, partial or final', async () => {
    await ensureFixtureGateway();
    const { page, folder } = e2e();
    let downloading = false;
    let closed = false;
    const slow = createServer((req, res) => {
      if (req.url === '/v1/images/generations') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ created: 1, data: [{ url: `${origin}/slow.png` }] }));
        return;
      }
      downloading = true;
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.from('89504e470d0a1a0a', 'hex'));
      const timer = setInterval(() => res.write(Buffer.alloc(512)), 50);
      const stop = setTimeout(() => res.end(), 30_000);
      res.on('close', () => {
        closed = true;
        clearInterval(timer);
        clearTimeout(stop);
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    // A workspace settings file, created then deleted: the extension follows both events.
    const settingsFile = join(folder, '.vscode', 'settings.json');
    assert.equal(existsSync(settingsFile), false, 'the fixture has no workspace settings');
    const target = join(folder, 'assets', 'generated');
    const before = filesBelow(target);
    try {
      mkdirSync(dirname(settingsFile), { recursive: true });
      writeFileSync(
        settingsFile,
        JSON.stringify({ 'modelGateway.baseUrl': origin, 'modelGateway.images.responseFormat': 'url' }),
      );
      // The status bar drops "(emulator)" once the extension uses the new base URL.
      await until(async () => !(await onFixtureEmulator(page)), 15_000, 'the new base URL to apply');
      await runCommand(page, 'Model Gateway: Generate Image');
      await answerImagePrompts(page, 'A picture that never arrives');
      await until(() => downloading, 30_000, 'the download to start');
      const progress = await waitForNotification(page, /Generating 1 image/);
      await clickNotificationButton(progress, 'Cancel');
      await until(() => closed, 10_000, 'the download connection to close');
      await page.waitForTimeout(500);
      assert.deepEqual(filesBelow(target), before, 'a file was written');
    } finally {
      await page.keyboard.press('Escape');
      rmSync(dirname(settingsFile), { recursive: true, force: true });
      // A reload re-reads the settings for sure; the next tests find the fixture's emulator again.
      await e2e().reload();
      await until(() => onFixtureEmulator(page), 20_000, 'the emulator base URL to apply again');
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
