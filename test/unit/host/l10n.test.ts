// Every user-facing string of package.json goes through package.nls.json, and every translation is complete.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths';

const read = (file: string): unknown => JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));
const nls = read('package.nls.json') as Record<string, string>;
const translations = readdirSync(repoRoot).filter((f) => /^package\.nls\.[a-z-]+\.json$/.test(f));

/** The fields VS Code shows to a person, wherever they appear in `contributes`. */
const SHOWN = new Set([
  'title',
  'category',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'contextualTitle',
  'displayName',
  'fullName',
  'altText',
]);

function shownStrings(value: unknown, path: string, found: Array<[string, string]>): void {
  if (Array.isArray(value)) value.forEach((v, i) => shownStrings(v, `${path}[${i}]`, found));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (SHOWN.has(key) && typeof child === 'string') found.push([`${path}.${key}`, child]);
      else if (SHOWN.has(key) && Array.isArray(child))
        child.forEach((c, i) => typeof c === 'string' && found.push([`${path}.${key}[${i}]`, c]));
      else shownStrings(child, `${path}.${key}`, found);
    }
  }
}

describe('l10n: package.json strings and their translations', () => {
  const manifest = read('package.json') as { displayName: string; description: string; contributes: unknown };
  const found: Array<[string, string]> = [
    ['displayName', manifest.displayName],
    ['description', manifest.description],
  ];
  shownStrings(manifest.contributes, 'contributes', found);

  it('every shown string of package.json is a %key% of package.nls.json', () => {
    const literal = found.filter(([, text]) => !/^%[^%]+%$/.test(text));
    assert.deepEqual(literal, [], 'strings written in package.json itself');
    const missing = found.map(([, text]) => text.slice(1, -1)).filter((key) => !(key in nls));
    assert.deepEqual(missing, [], 'keys without an English string');
  });

  it('ships at least the Simplified Chinese translation', () => {
    assert.ok(translations.includes('package.nls.zh-cn.json'), translations.join(', '));
  });

  for (const file of translations) {
    it(`${file} translates every key, keeps every placeholder and setting link, and nothing else`, () => {
      const translated = read(file) as Record<string, string>;
      assert.deepEqual(Object.keys(translated).sort(), Object.keys(nls).sort());
      for (const [key, english] of Object.entries(nls)) {
        const text = translated[key];
        assert.ok(typeof text === 'string' && text.trim() !== '', `${key} is empty`);
        // Setting links (#modelGateway.x#), code spans and {0}-style placeholders must survive translation.
        for (const token of english.match(/#modelGateway\.[\w.]+#|\{\d+\}/g) ?? []) {
          assert.ok(text.includes(token), `${key} lost ${token}`);
        }
      }
    });
  }
});
