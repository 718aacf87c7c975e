// Highlighted code built straight from highlight.js's HTML (src/webview/highlightDom.ts) must be node for
// node what DOMPurify makes of the same HTML, for every bundled language, and must refuse (so the caller
// sanitises) any markup highlight.js would not write.
import * as assert from 'node:assert/strict';
import { useRenderPage } from './pageHooks';

/** A sample per bundled language (and alias), with the characters HTML escapes and nested grammars. */
const SAMPLES: Record<string, string> = {
  bash: 'for f in *.ts; do echo "$f" && grep -c \'<T>\' "$f" > /dev/null; done # done & gone',
  shell: '$ npm test 2>&1 | tee log.txt',
  c: '#include <stdio.h>\nint main(void) { printf("a < b && c > d\\n"); return 0; }',
  cpp: 'template <typename T> std::vector<T> v{}; auto s = R"(raw "quoted")";',
  csharp: 'var list = new List<string> { "a" }; /// <summary>doc</summary>',
  css: '.a > .b::before { content: "<"; color: #fff; } @media (max-width: 10px) { a { b: c } }',
  diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old <b>\n+new & improved',
  go: 'func main() { ch := make(chan int); go func() { ch <- 1 }(); fmt.Println(<-ch) }',
  java: '@Override public <T> List<T> f(Map<String, T> m) { return m.values().stream().toList(); }',
  javascript: 'const re = /<\\/script>/g; const t = `a ${b + "c"} d`; if (a < b && c > d) {}',
  json: '{ "a": "<b>&amp;", "n": [1, 2.5e3, true, null] }',
  jsonc: '{ /* comment */ "x": 1 // trailing\n}',
  markdown: '# Title\n\n```js\nlet a = "<b>";\n```\n\n- [link](https://e.com) **bold** <div>',
  python: 'def f(a: "str" = \'<x>\') -> None:\n    """doc & more"""\n    return f"{a!r}" if a < 1 else None',
  rust: 'fn main() { let v: Vec<&str> = vec!["<a>"]; println!("{:?}", v); } // \'lifetime',
  sql: "SELECT * FROM t WHERE a < 1 AND b = 'x''y' -- comment",
  typescript: 'type A<T extends object> = { [K in keyof T]?: T[K] }; const x = <const>["a"];',
  xml: '<?xml version="1.0"?>\n<a href="x&amp;y"><![CDATA[ <raw> ]]><!-- c --></a>',
  html: '<div onclick="alert(1)"><script>if (a < b) alert("</div>")</script><style>a{color:red}</style></div>',
  vue: '<template><p>{{ a < b }}</p></template><script>export default {}</script>',
  yaml: 'key: "value <b>"\nlist:\n  - &anchor a\n  - *anchor\n# comment',
  plain: 'no language: <script>alert(1)</script> & "quotes" \'single\'',
};

/** Markup highlight.js never writes: each must be refused, or built exactly as DOMPurify keeps it. */
const HOSTILE: Record<string, string> = {
  img: '<img src=x onerror=alert(1)>',
  eventAttribute: '<span class="hljs-string" onclick="alert(1)">x</span>',
  singleQuotes: "<span class='hljs-string'>x</span>",
  unquoted: '<span class=hljs-string>x</span>',
  extraSpace: '<span class="hljs-string" >x</span>',
  upperCase: '<SPAN class="hljs-string">x</SPAN>',
  scriptInside: '<span class="hljs-string"><script>alert(1)</script></span>',
  styleInside: '<span class="hljs-string"><style>*{display:none}</style></span>',
  closeFirst: '</span>x',
  unclosed: '<span class="hljs-string">x',
  numericEntity: '&#60;script&#62;alert(1)&#60;/script&#62;',
  namedEntity: '&nbsp;&copy;',
  bareAmpersand: 'a & b',
  rawGreaterThan: 'a > b',
  carriageReturn: 'a\rb\r\nc',
  nul: 'a\u0000b',
  classInjection: '<span class="hljs-string" class="code-block">x</span>',
  foreignClasses: '<span class="code-toolbar hljs-keyword btn">x</span>',
  noAllowedClass: '<span class="codicon">x</span>',
  emptyClass: '<span class="">x</span>',
  attributeBreakout: '<span class="a"onmouseover="alert(1)">x</span>',
  comment: '<!-- <script>alert(1)</script> -->',
  svg: '<svg><span class="hljs-x" onload=alert(1)></span></svg>',
};

describe('Highlighted code built without a sanitiser (Chromium)', function () {
  const hp = useRenderPage();

  for (const [language, code] of Object.entries(SAMPLES)) {
    it(`${language}: builds highlight.js's output exactly as DOMPurify keeps it`, async () => {
      const result = await hp.page.evaluate(
        ([code, language]) => window.__md.highlighted(code, language === 'plain' ? '' : language),
        [code, language] as const,
      );
      assert.notEqual(result.built, null, `refused: ${result.html.slice(0, 200)}`);
      assert.equal(result.built, result.sanitised);
      if (language !== 'plain') assert.match(result.html, /<span class="hljs-/, 'the sample was highlighted');
    });
  }

  it('builds every prefix of every sample as DOMPurify does (the live block re-highlights prefixes)', async () => {
    const differ = await hp.page.evaluate((samples) => {
      const found: string[] = [];
      for (const [language, code] of Object.entries(samples)) {
        for (let i = 0; i <= code.length; i++) {
          const result = window.__md.highlighted(code.slice(0, i), language === 'plain' ? '' : language);
          if (result.built !== result.sanitised) found.push(`${language}@${i}`);
        }
      }
      return found;
    }, SAMPLES);
    assert.deepEqual(differ, []);
  });

  for (const [name, html] of Object.entries(HOSTILE)) {
    it(`"${name}": refused, or built exactly as DOMPurify keeps it`, async () => {
      const result = await hp.page.evaluate((html) => {
        const { built, sanitised } = window.__md.markup(html);
        const box = document.createElement('template'); // inert
        box.innerHTML = built ?? '';
        const elements = Array.from(box.content.querySelectorAll('*'));
        return {
          built,
          sanitised,
          tags: elements.map((e) => e.tagName),
          attributes: elements.flatMap((e) => e.getAttributeNames().map((a) => `${a}=${e.getAttribute(a)}`)),
        };
      }, html);
      if (result.built === null) return;
      assert.equal(result.built, result.sanitised);
      for (const tag of result.tags) assert.equal(tag, 'SPAN');
      for (const attribute of result.attributes) assert.match(attribute, /^class=hljs-[\w-]+$/);
    });
  }

  it('refuses exactly the markup highlight.js does not write', async () => {
    const refused = await hp.page.evaluate((hostile) => {
      return Object.entries(hostile)
        .filter(([, html]) => window.__md.markup(html).built === null)
        .map(([name]) => name);
    }, HOSTILE);
    assert.deepEqual(
      refused.sort(),
      [
        'attributeBreakout',
        'bareAmpersand',
        'carriageReturn',
        'closeFirst',
        'comment',
        'eventAttribute',
        'extraSpace',
        'img',
        'nul',
        'numericEntity',
        'namedEntity',
        'scriptInside',
        'singleQuotes',
        'styleInside',
        'svg',
        'unclosed',
        'unquoted',
        'upperCase',
        'classInjection',
      ].sort(),
    );
  });
});
