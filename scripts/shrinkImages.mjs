// Renders small copies of UI-test screenshots (test-results/*.png, docs/images/*.png) for the walkthrough,
// and the 128×128 Marketplace icon from media/model-gateway.svg, with headless Chromium (playwright-core):
// the browser does the scaling, so no image code of our own. The outputs are committed; rerun after the
// e2e tests when the UI changes: `node scripts/shrinkImages.mjs`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const WIDTH = 480;

/** Walkthrough images: output name, source screenshot and the region [x, y, width, height] to keep. */
const walkthrough = [
  ['setKey', 'test-results/walkthrough-set-key.png', [320, 0, 640, 112]],
  ['baseUrl', 'test-results/e2e-first-open-settings.png', [776, 36, 504, 280]],
  ['testConnection', 'test-results/e2e-test-connection-ok.png', [810, 590, 470, 180]],
  ['chat', 'test-results/e2e-chat-answer-dark.png', [0, 36, 700, 480]],
  ['explain', 'docs/images/explain-selection.png', [0, 36, 900, 600]],
  ['generateCode', 'docs/images/generate-code-review.png', [352, 36, 928, 420]],
  ['image', 'test-results/e2e-generate-image.png', [0, 36, 1280, 600]],
];

/** Screenshots `html` at the given viewport into `out`. */
async function render(page, html, width, height, out, transparent = false) {
  await page.setViewportSize({ width, height });
  await page.setContent(html, { waitUntil: 'load' });
  await page.screenshot({ path: join(root, out), omitBackground: transparent });
  console.log(`[images] ${out} ${width}x${height}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const [name, source, [x, y, w, h]] of walkthrough) {
    const scale = WIDTH / w;
    const data = readFileSync(join(root, source)).toString('base64');
    const html = `<body style="margin:0;overflow:hidden"><img src="data:image/png;base64,${data}"
      style="position:absolute;left:${-x * scale}px;top:${-y * scale}px;transform-origin:0 0;
      transform:scale(${scale});image-rendering:auto"></body>`;
    await render(page, html, WIDTH, Math.round(h * scale), `media/walkthrough/${name}.png`);
  }
  // The Activity Bar glyph draws in currentColor: inlined, it takes white on the gallery banner's color.
  const svg = readFileSync(join(root, 'media/model-gateway.svg'), 'utf8').replace(
    'width="24" height="24"',
    'width="96" height="96"',
  );
  const icon = `<body style="margin:0;background:transparent"><div style="width:128px;height:128px;
    border-radius:24px;background:linear-gradient(135deg,#2b5797,#1b2a4a);color:#fff;display:grid;
    place-items:center"><div style="width:96px;height:96px">${svg}</div></div></body>`;
  await render(page, icon, 128, 128, 'media/icon.png', true);
} finally {
  await browser.close();
}
