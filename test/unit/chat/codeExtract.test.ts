import * as assert from 'node:assert/strict';
import { extractCode } from '../../../src/chat/codeExtract';

const CODE = 'function add(a, b) {\n  return a + b;\n}';

/** Feeds `text` in every prefix, checking that streamed output is always a prefix of the final code. */
function streamAll(text: string): { final: string; partials: string[] } {
  const partials: string[] = [];
  for (let i = 0; i <= text.length; i++) partials.push(extractCode(text.slice(0, i), false));
  return { final: extractCode(text, true), partials };
}

describe('extractCode', () => {
  const cases: Array<[string, string]> = [
    ['bare code', `${CODE}\n`],
    ['a fence', '```js\n' + CODE + '\n```\n'],
    [
      'prose then fence then prose',
      'Here is the function:\n\n```javascript\n' + CODE + '\n```\nHope this helps!',
    ],
    ['tilde fence', '~~~\n' + CODE + '\n~~~'],
    ['longer fence holding backticks', '````md\n```\ninner\n```\n````'],
    ['a lead-in line without a fence', 'Sure, here you go:\n' + CODE],
  ];
  const expected: Record<string, string> = {
    'longer fence holding backticks': '```\ninner\n```',
  };

  for (const [name, text] of cases) {
    it(`extracts ${name}, and every streamed prefix is a prefix of the result`, () => {
      const { final, partials } = streamAll(text);
      const want = expected[name] ?? CODE;
      assert.equal(final, want);
      for (const partial of partials) {
        assert.ok(
          want.startsWith(partial),
          `streamed ${JSON.stringify(partial)} is not a prefix of the code`,
        );
      }
    });
  }

  it('never lets a fence marker into the editor while streaming', () => {
    const text = 'Here:\n```ts\nconst x = 1;\n```';
    for (let i = 0; i <= text.length; i++) assert.ok(!extractCode(text.slice(0, i), false).includes('`'));
  });

  it('keeps an unclosed fence body when the answer ends early', () => {
    assert.equal(extractCode('```py\nprint(1)\nprint(2)', true), 'print(1)\nprint(2)');
  });

  it('returns nothing for prose alone', () => {
    assert.equal(extractCode('Sure, here you go:', true), '');
  });
});
