// The l10n bundles: bundle.l10n.json is what `@vscode/l10n-dev export` makes of the sources today, and every
// translation (zh-cn at least) translates each of its strings, keeping the placeholders and codicons.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { repoRoot } from '../../harness/paths';
import { tsFilesBelow } from './literalScan';

type Bundle = Record<string, string>;
const l10nDir = join(repoRoot, 'l10n');
const read = (file: string): Bundle => JSON.parse(readFileSync(join(l10nDir, file), 'utf8')) as Bundle;
const english = read('bundle.l10n.json');
const translations = readdirSync(l10nDir).filter((f) => /^bundle\.l10n\.[a-z-]+\.json$/.test(f));

/** What must survive translation: `{0}` placeholders and `$(codicon)` names. */
const tokens = (text: string): string[] => (text.match(/\{\d+\}|\$\([\w~-]+\)/g) ?? []).sort();

describe('l10n: the runtime string bundles', function () {
  // web-tree-sitter parses every source file once.
  this.timeout(60_000);

  it('package.json points VS Code at the l10n folder', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { l10n?: string };
    assert.equal(manifest.l10n, './l10n');
    assert.ok(existsSync(join(l10nDir, 'bundle.l10n.json')));
  });

  it('bundle.l10n.json is what `l10n-dev export` extracts from src (run `npm run l10n:export` after a change)', async () => {
    const files = tsFilesBelow(join(repoRoot, 'src')).map((path) => ({
      extension: extname(path),
      contents: readFileSync(path, 'utf8'),
    }));
    const extracted = (await getL10nJson(files)) as Bundle;
    assert.deepEqual(Object.keys(english).sort(), Object.keys(extracted).sort());
    assert.ok(Object.keys(english).length > 200, 'the host and the webview strings are all there');
  });

  it('ships at least the Simplified Chinese translation', () => {
    assert.ok(translations.includes('bundle.l10n.zh-cn.json'), translations.join(', '));
  });

  for (const file of translations) {
    it(`${file} translates every string, keeps its placeholders and codicons, and has nothing else`, () => {
      const translated = read(file);
      assert.deepEqual(Object.keys(translated).sort(), Object.keys(english).sort());
      const problems: string[] = [];
      for (const key of Object.keys(english)) {
        const text = translated[key];
        if (typeof text !== 'string' || !text.trim()) problems.push(`${key}: empty`);
        else if (tokens(text).join() !== tokens(key).join())
          problems.push(`${key}: ${tokens(text)} ≠ ${tokens(key)}`);
      }
      assert.deepEqual(problems, []);
    });
  }

  it('the Chinese translation is Chinese: each string that has English words in it has Chinese ones too', () => {
    const translated = read('bundle.l10n.zh-cn.json');
    // Strings that are only names, codicons, units or placeholders may stay as they are.
    const words = (text: string): boolean =>
      /[A-Za-z]{3,}/.test(
        text.replace(/\$\([\w~-]+\)|Model Gateway|API|URL|https?|Markdown|Enter|Escape|Esc|Ctrl/g, ''),
      );
    const untranslated = Object.keys(english).filter(
      (key) => words(key) && !/[\u4e00-\u9fff]/.test(translated[key] ?? ''),
    );
    assert.deepEqual(untranslated, []);
  });
});
