// package.json's settings must say what the code's tables say: defaults, ranges, enums and the model list.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEXT_MODELS } from '../../../src/gateway/models';
import { DEFAULT_MAX_TOKENS, SETTINGS, THINKING_MAX_TOKENS } from '../../../src/host/settings';
import { repoRoot } from '../../harness/paths';

interface DeclaredSetting {
  type: string | string[];
  default: unknown;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  examples?: string[];
  markdownDescription: string;
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, DeclaredSetting> }[] };
};
// Descriptions are `%key%` references into package.nls.json (the English strings); read them resolved.
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
const resolved = (text: string): string => text.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? text);
const declared = new Map(
  manifest.contributes.configuration.flatMap((section) =>
    Object.entries(section.properties).map(
      ([key, value]) =>
        [
          key.replace(/^modelGateway\./, ''),
          { ...value, markdownDescription: resolved(value.markdownDescription) },
        ] as const,
    ),
  ),
);

describe('host/settings: package.json matches the settings table', () => {
  it('declares exactly the settings of the table', () => {
    assert.deepEqual([...declared.keys()].sort(), Object.keys(SETTINGS).sort());
  });

  for (const [key, entry] of Object.entries(SETTINGS)) {
    it(`modelGateway.${key}: default, range and values`, () => {
      const setting = declared.get(key)!;
      const expected: Record<string, unknown> = entry;
      assert.deepEqual(setting.default, expected.default, 'default');
      assert.deepEqual(setting.enum, expected.enum && [...(expected.enum as string[])], 'enum');
      assert.equal(setting.minimum, expected.minimum, 'minimum');
      assert.equal(setting.maximum, expected.maximum, 'maximum');
      assert.equal(setting.maxItems, expected.maxItems, 'maxItems');
      const types = [setting.type].flat();
      if (typeof expected.minimum === 'number') {
        assert.ok(types.includes(expected.integer ? 'integer' : 'number'), `type ${types.join('|')}`);
      }
    });
  }

  it('lists the catalogue models as chat.model examples and in its description', () => {
    const model = declared.get('chat.model')!;
    const ids = TEXT_MODELS.map((m) => m.id);
    assert.deepEqual(model.examples, ids);
    for (const id of ids) assert.ok(model.markdownDescription.includes(`\`${id}\``), id);
  });

  it('describes the max_tokens used when chat.maxTokens is null', () => {
    const text = declared.get('chat.maxTokens')!.markdownDescription;
    assert.ok(text.includes(String(DEFAULT_MAX_TOKENS)) && text.includes(String(THINKING_MAX_TOKENS)), text);
  });
});
