// Packs the test language pack (test/fixtures/language-pack-zh-cn) into a VSIX. Microsoft's language packs
// come from the Marketplace, which these machines cannot reach; installing this one makes zh-cn an installed
// display language of code-server, so `--locale zh-cn` is honoured and VS Code loads the extension's
// package.nls.zh-cn.json and l10n/bundle.l10n.zh-cn.json. VS Code's own UI stays English (it translates nothing).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, resultsDir } from './paths';
import { run } from './proc';

/** The locales a test language pack exists for. */
export const TEST_LOCALES = ['zh-cn'] as const;
export type TestLocale = (typeof TEST_LOCALES)[number];

/** A `--locale=` value: undefined for none, else one of TEST_LOCALES. */
export function parseTestLocale(value: string | undefined): TestLocale | undefined {
  if (value === undefined) return undefined;
  const known = TEST_LOCALES.find((locale) => locale === value);
  if (!known)
    throw new Error(`--locale=${value}: a test language pack exists only for ${TEST_LOCALES.join(', ')}`);
  return known;
}

/** Builds the language pack's VSIX under test-results/language-packs and returns its path. */
export async function packLanguagePack(locale: TestLocale): Promise<string> {
  const dir = join(resultsDir('language-packs'), locale);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(repoRoot, 'test', 'fixtures', `language-pack-${locale}`), dir, { recursive: true });
  const vsix = join(dir, `language-pack-${locale}.vsix`);
  const vsce = join(repoRoot, 'node_modules', '.bin', 'vsce');
  const result = await run(
    vsce,
    ['package', '--allow-missing-repository', '--skip-license', '--no-dependencies', '-o', vsix],
    { cwd: dir, timeoutMs: 120_000 },
  );
  if (result.code !== 0) throw new Error(`packing the ${locale} language pack failed:\n${result.output}`);
  return vsix;
}

interface LocalizationContribution {
  languageId: string;
  languageName?: string;
  localizedLanguageName?: string;
  translations: Array<{ id: string; path: string }>;
}

/**
 * Registers the installed language packs of `extensionsDir` in `<userDataDir>/languagepacks.json`, the file
 * from which the server resolves `--locale`. The server writes it itself when it installs a language pack,
 * but `code-server --install-extension` (a separate CLI process) does not, so the harness writes the same
 * entries (VS Code's LanguagePacksCache format: hash, extensions, translations, label) before the start.
 */
export function registerLanguagePacks(userDataDir: string, extensionsDir: string): void {
  const packs: Record<string, unknown> = {};
  for (const name of readdirSync(extensionsDir)) {
    const manifestPath = join(extensionsDir, name, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string;
      publisher: string;
      version: string;
      contributes?: { localizations?: LocalizationContribution[] };
    };
    const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
    for (const localization of manifest.contributes?.localizations ?? []) {
      packs[localization.languageId] = {
        hash: createHash('md5').update(id).update(manifest.version).digest('hex'),
        extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
        translations: Object.fromEntries(
          localization.translations.map((t) => [t.id, join(extensionsDir, name, t.path)]),
        ),
        label: localization.localizedLanguageName ?? localization.languageName,
      };
    }
  }
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs, null, 2));
}
