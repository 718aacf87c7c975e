// The DOM built straight from tokens (src/webview/tokenDom.ts) must be exactly what the sanitised HTML path
// gives, for every prefix of every test document (streaming renders prefixes), and must only ever hold
// the elements it is allowed to create.
import * as assert from 'node:assert/strict';
import { DOCUMENTS } from './documents';
import { useRenderPage } from './pageHooks';

/** Markdown the builder must take (not hand to the HTML path), hostile text included. */
const BUILT: Record<string, string> = {
  paragraphs: 'One **bold** and *em* and ~~gone~~ and `code()`.\nSoft break.\n\nSecond.',
  hardBreaks: 'Two spaces  \nand a backslash\\\nend',
  headings: '# H1 `x`\n\n## H2 **b**\n\nSetext\n---\n\n###### six',
  tightList: '- one\n- two **b**\n  - nested\n    1. deep\n- three',
  looseList: '1. first\n\n2. second\n\n   more in second\n\n3. third',
  orderedStart: '7. seven\n8. eight',
  emptyItems: '-\n- \n- x\n\n1.\n2. y',
  listThenQuote: '- item\n  > quoted in item\n- next',
  quotes: '> quote **b**\n> > nested\n>\n> - list in quote\n\n---\n\n***',
  table: '| Setting | Default | Effect |\n|:--|--:|:-:|\n| `a.b` | 10 | **x** *y* |\n| c | | d |',
  tableNoAlign: '| a | b |\n|---|---|\n| 1 | 2 |',
  entities: 'AT&amp;T &copy; &#x3C;b&#x3E; \\*literal\\* a & b < c > d "q" \'s\'',
  hostileText:
    '<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n# <svg onload=alert(1)>\n\n' +
    '- `<iframe src="javascript:alert(1)">`\n\n| <b onmouseover=alert(1)> |\n|---|\n| <style>*{}</style> |',
  controlCharacters: 'nul \u0000 here, bidi \u202e evil \u200b and tab\there',
  fence: '```ts\nconst a: string = "<b>" + \'&amp;\'; // <script>\n```',
  indentedCode: '    code block <img src=x onerror=alert(1)>',
  fenceHostileInfo: '```js onclick=alert(1) "x\nlet a = 1;\n```\n\n```"><script>alert(1)</script>\nx\n```',
  fenceUnknownLanguage: "```klingon\nQapla' <b>\n```\n\n```\n\n```",
  fenceSubLanguages:
    '```html\n<div class="a">&amp;<script>let x = "</" + "b>";</script><style>a { color: red }</style></div>\n```',
  fenceInList:
    '1. Step:\n\n   ```bash\n   echo "$HOME" && ls | grep \'x\'\n   ```\n2. tight\n   ```py\n   x = 1\n   ```',
  fenceInQuote: '> ```diff\n> - old\n> + new\n> ```\n> after',
  fenceNulAndCr: '```js\nconst nul = "\u0000";\r\nconst cr = 1;\r\n```',
};

/** Tokens the builder must refuse, so they take the sanitised path. */
const REFUSED: Record<string, string> = {
  link: 'see [docs](https://example.com)',
  autolink: 'at <https://example.com>',
  linkify: 'at https://example.com now',
  image: '![alt](https://example.com/a.png)',
  linkInTable: '| [x](https://x.io) |\n|---|\n| y |',
};

const ALLOWED_ELEMENTS = new Set(
  'P H1 H2 H3 H4 H5 H6 UL OL LI BLOCKQUOTE HR TABLE THEAD TBODY TR TH TD STRONG EM S CODE BR PRE SPAN'.split(
    ' ',
  ),
);
/** The class names the sanitiser keeps (src/webview/safeClasses.ts), as a whole attribute. */
const CODE_CLASS = '(?:hljs(?:-[\\w-]+)?|[a-z]+_+|language-[\\w+#.-]+)';
const ALLOWED_ATTRIBUTE = new RegExp(
  `^(?:start=\\d+|class=align-(?:left|right|center)|class=${CODE_CLASS}(?: ${CODE_CLASS})*)$`,
);

describe('DOM built from tokens (Chromium)', function () {
  const hp = useRenderPage();

  for (const [name, doc] of Object.entries(DOCUMENTS)) {
    it(`"${name}": every prefix it builds equals the sanitised HTML path`, async () => {
      const result = await hp.page.evaluate((text) => {
        const { builtHtml, sanitisedHtml } = window.__md;
        const differ: number[] = [];
        let built = 0;
        for (let i = 0; i <= text.length; i++) {
          const html = builtHtml(text.slice(0, i));
          if (html === null) continue;
          built++;
          if (html !== sanitisedHtml(text.slice(0, i))) differ.push(i);
        }
        return { differ, built };
      }, doc);
      assert.deepEqual(result.differ, [], `prefixes that differ: ${result.differ.join(', ')}`);
      assert.ok(result.built > 0, 'the builder took none of its prefixes');
    });
  }

  for (const [name, text] of Object.entries(BUILT)) {
    it(`builds "${name}" with only its own elements, as the sanitised path renders it`, async () => {
      const result = await hp.page.evaluate((text) => {
        const { builtHtml, sanitisedHtml } = window.__md;
        const html = builtHtml(text);
        const bare = builtHtml(text, true);
        const box = document.createElement('template'); // inert: nothing in it runs or loads
        if (bare !== null) box.innerHTML = bare;
        return {
          html,
          expected: sanitisedHtml(text),
          elements: Array.from(box.content.querySelectorAll('*'), (e) => e.tagName),
          attributes: Array.from(box.content.querySelectorAll('*')).flatMap((e) =>
            e.getAttributeNames().map((a) => `${a}=${e.getAttribute(a)}`),
          ),
        };
      }, text);
      assert.notEqual(result.html, null, 'the builder refused it');
      assert.equal(result.html, result.expected);
      assert.ok(result.elements.length > 0);
      for (const tag of result.elements) assert.ok(ALLOWED_ELEMENTS.has(tag), `unexpected <${tag}>`);
      for (const attribute of result.attributes) assert.match(attribute, ALLOWED_ATTRIBUTE);
    });
  }

  it('keeps the number a list starts at, on both paths', async () => {
    const text = '7. seven\n8. [link](https://example.com)';
    const html = await hp.page.evaluate((t) => window.__md.sanitisedHtml(t), text);
    assert.match(html, /^<ol start="7">/);
    const built = await hp.page.evaluate((t) => window.__md.builtHtml(t), '7. seven');
    assert.match(built ?? '', /^<ol start="7">/);
  });

  for (const [name, text] of Object.entries(REFUSED)) {
    it(`leaves "${name}" to the sanitised path`, async () => {
      const html = await hp.page.evaluate((text) => window.__md.builtHtml(text), text);
      assert.equal(html, null);
    });
  }
});
