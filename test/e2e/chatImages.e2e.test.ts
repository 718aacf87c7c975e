import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { readImageDimensions } from '../support/pngInfo';
import { articles, emulator, openChat, send, until, openNewChat } from './chatHelpers';
import { editorText, openFile } from './editorHelpers';
import { readFileSync } from 'node:fs';
import { isImageRequest, untilClosedSince } from '../support/emulatorRequests';

const PROMPT = 'A lighthouse at dusk <img src=x onerror="window.__xss=1"><b>bold</b>';

function imagesIn(folder: string): string[] {
  try {
    return readdirSync(folder).filter((n) => /\.(png|jpe?g|webp)$/.test(n));
  } catch {
    return [];
  }
}

/** The image request bodies the gateway received since `from`. */
function imageRequests(from = 0): Array<Record<string, unknown>> {
  return emulator()
    .requests.slice(from)
    .filter(isImageRequest)
    .map((r) => r.body as Record<string, unknown>);
}

/** Waits until every thumbnail of the last image turn has decoded, and returns how many there are. */
async function loadedThumbnails(frame: FrameLocator, count: number): Promise<void> {
  const images = articles(frame, 'Image').last().getByRole('img', { name: PROMPT, exact: true });
  await until(async () => (await images.count()) === count, 30_000, `${count} thumbnails`);
  for (let i = 0; i < count; i++) {
    // loading="lazy": a thumbnail loads when it comes near the viewport.
    await images.nth(i).scrollIntoViewIfNeeded();
    await until(
      () =>
        images
          .nth(i)
          .evaluate(
            (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
          ),
      20_000,
      `thumbnail ${i} decoded`,
    );
  }
}

describe('Images in the chat (real editor)', function () {
  this.timeout(180_000);
  let saved: string[] = [];

  it('/image with options: the request carries them, the files are saved, the thumbnails show, the revised prompt is text', async () => {
    const { page, folder } = e2e();
    const target = join(folder, 'assets', 'generated');
    const before = imagesIn(target);
    const from = emulator().requests.length;
    const frame = await openNewChat(page);
    await send(frame, `/image ${PROMPT} --size 1536x1024 --quality high --n 2 --format url`);
    await loadedThumbnails(frame, 2);
    const [body] = imageRequests(from);
    assert.equal(body.n, 2);
    assert.equal(body.size, '1536x1024');
    assert.equal(body.quality, 'high');
    assert.equal(body.response_format, 'url');
    assert.equal(body.prompt, PROMPT);
    saved = imagesIn(target).filter((n) => !before.includes(n));
    assert.equal(saved.length, 2);
    for (const name of saved) {
      const dims = readImageDimensions(new Uint8Array(readFileSync(join(target, name))));
      assert.deepEqual(dims, { format: 'png', width: 1536, height: 1024 });
    }
    const turn = articles(frame, 'Image').last();
    // The gateway's revised prompt echoes the hostile prompt: it is shown as text, never as markup.
    await turn.getByText(`Revised prompt: A detailed rendering of: ${PROMPT}`).first().waitFor();
    assert.equal(await turn.locator('figcaption b, figcaption img, .image-prompt img').count(), 0);
    assert.equal(await turn.locator('img').count(), 2);
    for (const name of ['Open Image', 'Reveal in Explorer', 'Copy Path', 'Insert Markdown Link']) {
      assert.equal(await turn.getByRole('button', { name, exact: true }).count(), 2, name);
    }
    await turn.getByRole('button', { name: 'Regenerate', exact: true }).waitFor();
    const src = await turn.locator('img').first().getAttribute('src');
    assert.ok(
      src && !src.startsWith('data:') && !src.startsWith('http://127.0.0.1'),
      `a webview resource URI: ${src}`,
    );
    await turn.scrollIntoViewIfNeeded();
    await screenshot(page, 'e2e-chat-image-thumbnails');
  });

  it('Insert Markdown Link writes the path relative to the active file at its cursor', async () => {
    const { page, folder } = e2e();
    mkdirSync(join(folder, 'docs'), { recursive: true });
    writeFileSync(join(folder, 'docs', 'image-notes.md'), '# Notes\n\n');
    await openFile(page, 'image-notes.md');
    await page.keyboard.press('Control+End');
    const frame = await openChat(page);
    const turn = articles(frame, 'Image').last();
    await turn.getByRole('button', { name: 'Insert Markdown Link', exact: true }).first().click();
    const first = saved.slice().sort()[0];
    // The editor wraps the long line: its rendered lines are joined back before looking for the link.
    await until(
      async () => (await editorText(page)).replace(/\n/g, '').includes(`](../assets/generated/${first})`),
      10_000,
      'the link',
    );
    // The link is left unsaved, as a user would find it; the later tests need a clean editor area.
    await runCommand(page, 'File: Revert File');
    await runCommand(page, 'View: Close All Editors');
    await page.locator('.tab').filter({ hasText: 'image-notes.md' }).first().waitFor({ state: 'detached' });
  });

  it('Stop during generation aborts the request and leaves no file', async () => {
    const { page, folder } = e2e();
    const target = join(folder, 'assets', 'generated');
    const before = imagesIn(target);
    const from = emulator().requests.length;
    const frame = await openChat(page);
    await send(frame, '/image A slow painting [[fault:image-delay:20000]] --size 4096x4096');
    const turn = articles(frame, 'Image').last();
    await turn.getByText(/this can take minutes/).waitFor({ timeout: 10_000 });
    await until(() => imageRequests(from).length > 0, 10_000, 'the image request');
    await turn.getByRole('button', { name: 'Stop', exact: true }).click();
    await untilClosedSince(emulator(), from, 'the gateway to see the cancel');
    await turn.getByText('Stopped; nothing was saved.').waitFor({ timeout: 10_000 });
    await page.waitForTimeout(500);
    assert.deepEqual(imagesIn(target).sort(), before.sort());
  });

  it('after a reload the thumbnails are back, and a deleted file shows a placeholder', async () => {
    const { folder } = e2e();
    const target = join(folder, 'assets', 'generated');
    const deleted = saved.slice().sort()[1];
    rmSync(join(target, deleted));
    const page = await e2e().reload();
    const frame = await openChat(page);
    const turn = articles(frame, 'Image').first();
    await turn.getByText(`assets/generated/${deleted} was deleted or moved.`).waitFor({ timeout: 20_000 });
    const images = turn.getByRole('img', { name: PROMPT, exact: true });
    await until(async () => (await images.count()) === 1, 20_000, 'the remaining thumbnail');
    await until(
      () => images.first().evaluate((img) => (img as HTMLImageElement).naturalWidth > 0),
      20_000,
      'the remaining thumbnail decoded',
    );
    await turn.scrollIntoViewIfNeeded();
    await screenshot(page, 'e2e-chat-image-after-reload');
  });
});
