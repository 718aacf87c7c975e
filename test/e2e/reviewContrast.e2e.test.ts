// The removed text of a review, measured on screenshots of the real editor in the dark, light and
// high-contrast themes: its glyphs reach a contrast of 4.5:1 against the background they are drawn on, it is
// set apart from the code by a background or a frame, and it is upright and not struck through.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { acceptInputBox, quickInput, runCommand, screenshot } from '../harness/browser';
import { e2e } from '../harness/e2eFixture';
import { decodePng, pixelAt, rowDifference, textContrast, type Pixels } from '../support/pngPixels';
import { codeLens, editorText, openFile } from './editorHelpers';

/** Each theme (its name in the picker) and the class the workbench carries once it shows it. */
const THEMES: ReadonlyArray<readonly [string, string]> = [
  ['Dark Modern', 'vs-dark'],
  ['Light Modern', 'vs'],
  ['Dark High Contrast', 'hc-black'],
  ['Light High Contrast', 'hc-light'],
];

/** One drawn removed text: its text's rectangle (after its margin), and where its line's own background shows. */
interface RemovedBox {
  x: number;
  y: number;
  width: number;
  height: number;
  lineX: number;
  fontStyle: string;
  decoration: string;
}

/** Picks a colour theme in Preferences: Color Theme, as a user would, and waits until the workbench shows it. */
async function chooseTheme(page: Page, theme: string, themeClass: string): Promise<void> {
  await runCommand(page, 'Preferences: Color Theme');
  await quickInput(page).fill(theme);
  const name = page
    .locator('.quick-input-widget .monaco-list-row .label-name')
    .getByText(theme, { exact: true });
  await name.first().click({ timeout: 10_000 });
  await page.locator(`.monaco-workbench.${themeClass}`).waitFor({ state: 'attached', timeout: 15_000 });
}

/** The removed texts drawn in the editor, cut to what is visible left of the minimap. */
async function removedTextBoxes(page: Page): Promise<RemovedBox[]> {
  return page.evaluate(() => {
    const editor = document.querySelector('.editor-instance .monaco-editor');
    const guard = editor?.querySelector('.overflow-guard')?.getBoundingClientRect();
    const minimap = editor?.querySelector('.minimap')?.getBoundingClientRect();
    if (!editor || !guard) return [];
    const right = minimap && minimap.width > 0 ? Math.min(minimap.left, guard.right) : guard.right;
    return Array.from(editor.querySelectorAll('.view-lines span[class*="ced-"]'))
      .map((el) => {
        const r = el.getBoundingClientRect();
        const after = getComputedStyle(el, '::after');
        // The span holds the text's margin too: the text starts after it.
        const margin = parseFloat(after.marginLeft) || 0;
        return {
          x: r.left + margin + 2,
          y: r.top,
          width: Math.min(r.right, right) - r.left - margin - 2,
          height: r.height,
          lineX: r.left + margin / 2,
          fontStyle: after.fontStyle,
          decoration: after.textDecorationLine,
        };
      })
      .filter((b) => b.width > 40 && b.y >= guard.top && b.y + b.height <= guard.bottom);
  });
}

/**
 * How much the removed text stands out from its line at its top and bottom edges, where no glyph is: the
 * largest share of a row there that differs from the line's background (its own background or its frame).
 */
function setApart(pixels: Pixels, box: RemovedBox): number {
  const line = pixelAt(pixels, box.lineX, box.y + box.height / 2);
  const rows = [-2, -1, 0, 1, box.height - 1, box.height, box.height + 1].map((dy) => box.y + dy);
  return Math.max(...rows.map((y) => rowDifference(pixels, box.x, box.width, y, line)));
}

describe('Removed text under review is readable (real editor, measured on screenshots)', function () {
  this.timeout(180_000);

  after(async () => {
    // The suite's other tests expect the light theme the editor starts in.
    await chooseTheme(e2e().page, 'Light Modern', 'vs');
  });

  for (const [theme, themeClass] of THEMES) {
    it(`reaches 4.5:1 and stands apart from the code in ${theme}`, async () => {
      const { page } = e2e();
      await chooseTheme(page, theme, themeClass);
      await runCommand(page, 'View: Close All Editors');
      await openFile(page, 'sample.ts');
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('ArrowDown');
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
      await runCommand(page, 'Model Gateway: Generate Code');
      await acceptInputBox(page, 'add a third operand and check the inputs [[answer:add-checked-ts]]');
      await codeLens(page, 'Accept All').waitFor({ timeout: 20_000 });
      await page
        .locator('.view-lines span[class*="ced-"]')
        .first()
        .waitFor({ state: 'attached', timeout: 10_000 });
      // The pointer away from the text, so no hover or highlight sits on what is measured.
      await page.mouse.move(0, 0);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const boxes = await removedTextBoxes(page);
      const file = await screenshot(page, `e2e-review-contrast-${themeClass}`);
      await codeLens(page, 'Reject All').click();
      await codeLens(page, 'Accept All').waitFor({ state: 'detached', timeout: 10_000 });
      assert.ok((await editorText(page)).includes('export function add(a: number, b: number): number {'));

      assert.ok(boxes.length > 0, 'no removed text was drawn');
      const pixels = decodePng(readFileSync(file));
      for (const box of boxes) {
        const measured = textContrast(pixels, box);
        const where = `${theme}, removed text at y=${Math.round(box.y)}`;
        assert.ok(measured.glyphPixels > 50, `${where}: too few glyph pixels: ${JSON.stringify(measured)}`);
        assert.ok(
          measured.ratio >= 4.5,
          `${where}: ${measured.ratio.toFixed(2)}:1 (text rgb(${measured.text.join(',')}) on rgb(${measured.background.join(',')}))`,
        );
        const apart = setApart(pixels, box);
        assert.ok(
          apart >= 0.4,
          `${where}: no background or frame sets it apart from the code (${apart.toFixed(2)})`,
        );
        assert.deepEqual(
          [box.fontStyle, box.decoration],
          ['normal', 'none'],
          `${where}: italic or struck through`,
        );
        console.log(`      ${where}: ${measured.ratio.toFixed(2)}:1, set apart ${apart.toFixed(2)}`);
      }
    });
  }
});
