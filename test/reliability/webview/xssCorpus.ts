// The hostile-output corpus of the reliability suite: the webview suite's baseline vectors plus vectors by
// category. Every vector calls window.__xss() if it ever runs, or loads from the canary server (a real
// 127.0.0.1 listener that counts hits) or evil.invalid if it is ever rendered as live HTML.
import { XSS_VECTORS, type XssVector } from '../../webview/xssCorpus';

export type VectorCategory =
  | 'baseline'
  | 'script'
  | 'event-handler'
  | 'javascript-url'
  | 'data-url'
  | 'svg-mathml'
  | 'iframe-object'
  | 'css'
  | 'markdown-trick'
  | 'bidi-zero-width'
  | 'other-scheme';

/** One hostile model output. */
export interface HostileVector extends XssVector {
  category: VectorCategory;
}

const ZWSP = '\u200B';
const ZWJ = '\u200D';
const RLO = '\u202E';
const LRI = '\u2066';
const PDI = '\u2069';
const BOM = '\uFEFF';

/** Every vector, with `C` standing for the canary origin (`http://127.0.0.1:PORT`). */
function byCategory(C: string): Record<Exclude<VectorCategory, 'baseline'>, string[]> {
  return {
    script: [
      '<script>window.__xss()</script>',
      '<script src="C/s.js"></script>'.replace('C', C),
      `<script type="module">import '${C}/m.js'; __xss()</script>`,
      '<ScRiPt>__xss()</sCrIpT>',
      '<script\n>__xss()</script\n>',
      '<script/x>__xss()</script>',
      '<<script>__xss();//<</script>',
      '<script>/*</script><img src=x onerror=__xss()>*/</script>',
      '</title><script>__xss()</script>',
      '</textarea><script>__xss()</script>',
      '"><script>__xss()</script>',
      "'--><script>__xss()</script>",
      '<scr<script>ipt>__xss()</scr</script>ipt>',
      '\\u003cscript\\u003e__xss()\\u003c/script\\u003e',
      '%3Cscript%3E__xss()%3C/script%3E',
      '<script>eval("__x"+"ss()")</script>',
      '<script>setTimeout("__xss()")</script>',
      `<script>fetch('${C}/fetch?__xss')</script>`,
      '<script nonce="harnessNonce0123456789">__xss()</script>',
      `<script>new Image().src='${C}/img?__xss'</script>`,
    ],
    'event-handler': [
      '<img src=x onerror=__xss()//>',
      "<img src=x:x onerror=\"window['__x'+'ss']()\">",
      '<body onpageshow=__xss()>',
      '<div onmouseover="__xss()">hover me</div>',
      '<span onclick=__xss()>click me</span>',
      '<a onfocus=__xss() autofocus href=#>focus</a>',
      '<button onclick=__xss()>button</button>',
      '<input onblur=__xss() autofocus><input autofocus>',
      '<select onfocus=__xss() autofocus>',
      '<textarea onfocus=__xss() autofocus>',
      '<keygen onfocus=__xss() autofocus>',
      '<video src=x onerror=__xss()>',
      '<audio autoplay onplay=__xss()><source src=x>',
      '<object onerror=__xss()>',
      '<details ontoggle=__xss() open>x</details>',
      '<iframe onload=__xss()></iframe>',
      '<img src=x onerror=&#x5F;&#x5F;xss()>',
      '<img src=x onerror=\\u005F\\u005Fxss()>',
      '<img/src=x/onerror=__xss()>',
      '<img src=`x`onerror=__xss()>',
      '<img """><script>__xss()</script>">',
      '<div onpointerenter=__xss()>pointer</div>',
      '<p onanimationstart=__xss() style="animation:x">anim</p>',
      '<form><button formaction=javascript:__xss()>go</button></form>',
      '<x contenteditable onfocus=__xss() autofocus>edit</x>',
    ],
    'javascript-url': [
      '[a](javascript:__xss%28%29)',
      '[a](javascript://%0a__xss())',
      '[a](javascript:/**/__xss())',
      '[a](JAVASCRIPT:__xss())',
      '[a](\tjavascript:__xss())',
      '[a](javascript\t:__xss())',
      '[a](jav&#x09;ascript:__xss())',
      '[a](&#0000106&#0000097vascript:__xss())',
      '[a](javascript&#58;__xss())',
      '[a](javascript&#x3a;__xss())',
      '[a](%6A%61%76%61%73%63%72%69%70%74:__xss())',
      '[a](java\\script:__xss())',
      '[a](javascript:void(__xss()))',
      '<a href="jAvAsCrIpT:__xss()">x</a>',
      '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;__xss()">x</a>',
      '[ref link][r]\n\n[r]: <javascript:__xss()>',
      '[ref link][r2]\n\n[r2]: javascript:__xss() "title"',
      '![img ref][i]\n\n[i]: javascript:__xss()',
      '<javascript&colon;__xss()>',
      '[a]( javascript:__xss() "t")',
      "[a](javascript:__xss() 't')",
      '[a](javascript:%5F%5Fxss())',
      '[**bold**](javascript:__xss())',
      '[`code`](javascript:__xss())',
      '[a](javascript:fetch(`C/js?__xss`))'.replace('C', C),
    ],
    'data-url': [
      '[a](data:text/html,<script>__xss()</script>)',
      '[a](data:text/html;charset=utf-8,%3Cscript%3E__xss()%3C%2Fscript%3E)',
      '[a](DATA:text/html;base64,PHNjcmlwdD5fX3hzcygpPC9zY3JpcHQ+)',
      '[a](data:application/javascript,__xss())',
      '[a](data:image/svg+xml,<svg onload=__xss()>)',
      '![a](data:image/png;base64,iVBORw0KGgo=__xss)',
      '![a](data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" onload="__xss()"/>)',
      '<img src="data:image/svg+xml,<svg onload=__xss()>">',
      '<iframe src="data:text/html,<script>__xss()</script>"></iframe>',
      '<object data="data:text/html,<script>__xss()</script>"></object>',
      '<embed src="data:text/html,<script>__xss()</script>">',
      '<a href="data:text/html,<script>__xss()</script>">x</a>',
      '<data:text/html,__xss>',
      '[a](  data:text/html,__xss )',
      '[a](d&#x61;ta:text/html,<script>__xss()</script>)',
    ],
    'svg-mathml': [
      '<svg><animate onbegin=__xss() attributeName=x dur=1s>',
      '<svg><set attributeName=onmouseover to=__xss()>',
      '<svg><foreignObject><img src=x onerror=__xss()></foreignObject></svg>',
      '<svg><use href="data:image/svg+xml,<svg id=x onload=__xss()>#x"/></svg>',
      `<svg><image href="${C}/svgimg?__xss"/></svg>`,
      '<svg><style>@import url(C/svgcss?__xss);</style></svg>'.replace('C', C),
      '<svg><a href="javascript:__xss()"><circle r=40/></a></svg>',
      '<svg/onload=__xss()>',
      '<svg><script href="data:,__xss()"/></svg>',
      '<svg><desc><![CDATA[</desc><script>__xss()</script>]]></svg>',
      '<math><maction actiontype="statusline" xlink:href="javascript:__xss()">x</maction></math>',
      '<math><mi xlink:href="javascript:__xss()">x</mi></math>',
      '<math><style><img src=x onerror=__xss()></style></math>',
      '<math><mtext><form><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=__xss() src=1>">',
      '<svg></p><style><a id="</style><img src=1 onerror=__xss()>">',
    ],
    'iframe-object': [
      `<iframe src="${C}/frame?__xss"></iframe>`,
      '<iframe srcdoc="&lt;img src=x onerror=parent.__xss()&gt;"></iframe>',
      '<iframe src="about:blank" onload="__xss()"></iframe>',
      '<iframe sandbox="allow-scripts" srcdoc="<script>parent.__xss()</script>"></iframe>',
      '<frameset onload=__xss()>',
      `<frame src="${C}/frame2?__xss">`,
      `<object type="text/html" data="${C}/obj?__xss"></object>`,
      `<embed type="image/svg+xml" src="${C}/embed?__xss">`,
      `<applet code="${C}/applet?__xss"></applet>`,
      `<portal src="${C}/portal?__xss"></portal>`,
      `<link rel="prefetch" href="${C}/prefetch?__xss">`,
      `<meta http-equiv="refresh" content="0;url=${C}/refresh?__xss">`,
    ],
    css: [
      `<style>*{background:url(${C}/css-bg?__xss)}</style>`,
      `<style>@font-face{font-family:x;src:url(${C}/font?__xss)}</style>`,
      `<style>input[value^=a]{background:url(${C}/leak?__xss)}</style>`,
      `<div style="background:url('${C}/inline?__xss')">bg</div>`,
      `<p style="list-style-image:url(${C}/list?__xss)">list</p>`,
      '<div style="behavior:url(x.htc)">__xss behavior</div>',
      '<div style="-moz-binding:url(x.xml#xss)">__xss binding</div>',
      '<style>.composer{display:none}</style>__xss hide the composer',
      '<div style="position:fixed;inset:0;z-index:9999;background:red">__xss overlay</div>',
      '<div class="composer message-actions">__xss borrowed classes</div>',
      `<link rel="stylesheet" href="${C}/sheet.css?__xss">`,
      `<style>@import url("${C}/import.css?__xss");</style>`,
      `<img src=x style="content:url(${C}/content?__xss)">`,
      '<svg><style>svg{background:url(C/svgstyle?__xss)}</style></svg>'.replace('C', C),
      `<table background="${C}/tbl?__xss"><tr><td>t</td></tr></table>`,
    ],
    'markdown-trick': [
      `![beacon](${C}/beacon.png?__xss)`,
      `![beacon][b]\n\n[b]: ${C}/ref-beacon.png?__xss`,
      `[![nested](${C}/nested.png?__xss)](${C}/nested-link?__xss)`,
      `[link](${C}/ok "title\\" onmouseover=\\"__xss()")`,
      `[link](<${C}/a b> "__xss")`,
      '[a](#__xss)',
      '[a](?__xss)',
      '[a](//evil.invalid/__xss)',
      '[a](\\\\evil.invalid\\__xss)',
      `<${C}/autolink?__xss>`,
      `${C}/bare?__xss`,
      '[a](https://ok.example) <img src=x onerror=__xss()>',
      '> <img src=x onerror=__xss()>\n> quoted',
      '- <script>__xss()</script>\n- item',
      '1. [a](javascript:__xss())\n2. b',
      '# <img src=x onerror=__xss()>',
      '**<img src=x onerror=__xss()>**',
      '~~<script>__xss()</script>~~',
      '    <script>__xss()</script> indented code',
      '~~~\n<script>__xss()</script>\n~~~',
      '``` onerror=__xss()\nx\n```',
      '```js"><script>__xss()</script>\nx\n```',
      '| a |\n|---|\n| [x](javascript:__xss()) |',
      '[x](https://example.com/__xss)[y](javascript:__xss())',
      '\\<script\\>__xss()\\</script\\>',
    ],
    'bidi-zero-width': [
      `[https://paypal.example](https://evil.invalid/${ZWSP}__xss)`,
      `[safe.example](https://evil.invalid/${RLO}gnp.exe__xss)`,
      `[a](java${ZWJ}script:__xss())`,
      `[a](${BOM}javascript:__xss())`,
      `[a](${LRI}javascript:__xss()${PDI})`,
      `[a](javascript${ZWSP}:__xss())`,
      `<java${ZWSP}script:__xss()>`,
      `https://ok${ZWSP}.example/__xss`,
      `https://evil.invalid/${RLO}txt.exe__xss`,
      `[${RLO}exe.txt __xss](https://ok.example/a)`,
      `[ok.example __xss](https://ok.example${RLO}.evil.invalid/)`,
      `<img src=x one${ZWSP}rror=__xss()>`,
      `<scr${ZWSP}ipt>__xss()</scr${ZWSP}ipt>`,
      `\u2067[a](javascript:__xss())\u2069`,
      `[a](https://ok.example/\u0000__xss)`,
    ],
    'other-scheme': [
      '[a](command:workbench.action.terminal.new?__xss)',
      '[a](vscode://vscode.git/clone?url=__xss)',
      '[a](vscode-webview://x/__xss)',
      '[a](file:///etc/passwd#__xss)',
      '[a](ftp://evil.invalid/__xss)',
      '[a](blob:https://ok.example/__xss)',
      '[a](ws://evil.invalid/__xss)',
      '[a](about:blank#__xss)',
      '[a](chrome://settings/__xss)',
      '[a](intent://__xss#Intent;end)',
      '<command:modelGateway.setApiKey?__xss>',
      '[a](mailto:x@evil.invalid?body=__xss)',
    ],
  };
}

/**
 * Vectors whose `__xss` lands only in a legitimate http(s) href, title or fence info, so it is not
 * visible; the visible part is given instead (null: nothing specific must show).
 */
const SHOWS: Record<string, string | null> = {
  '[link](C/ok "title\\" onmouseover=\\"__xss()")': 'link',
  '[link](<C/a b> "__xss")': 'link',
  '``` onerror=__xss()\nx\n```': null,
  '```js"><script>__xss()</script>\nx\n```': null,
  '[x](https://example.com/__xss)[y](javascript:__xss())': 'javascript:__xss()',
  [`[https://paypal.example](https://evil.invalid/${ZWSP}__xss)`]: 'https://paypal.example',
  [`[safe.example](https://evil.invalid/${RLO}gnp.exe__xss)`]: 'safe.example',
  [`[ok.example __xss](https://ok.example${RLO}.evil.invalid/)`]: 'ok.example __xss',
  '[a](mailto:x@evil.invalid?body=__xss)': 'a',
  '<script src="C/s.js"></script>': '<script src="',
  '<script>eval("__x"+"ss()")</script>': '<script>eval(',
  "<img src=x:x onerror=\"window['__x'+'ss']()\">": 'onerror="window[',
  '<img src=x onerror=&#x5F;&#x5F;xss()>': '<img src=x onerror=',
  '<img src=x onerror=\\u005F\\u005Fxss()>': '\\u005F\\u005Fxss()',
  '[a](javascript:%5F%5Fxss())': 'javascript:%5F%5Fxss()',
  '[a](DATA:text/html;base64,PHNjcmlwdD5fX3hzcygpPC9zY3JpcHQ+)': 'DATA:text/html;base64',
  [`[a](https://ok.example/\u0000__xss)`]: null,
  [`![beacon](C/beacon.png?__xss)`]: '[image: beacon]',
  [`![beacon][b]\n\n[b]: C/ref-beacon.png?__xss`]: '[image: beacon]',
  [`[![nested](C/nested.png?__xss)](C/nested-link?__xss)`]: '[image: nested]',
};

/** The whole corpus for a canary origin: the baseline vectors, then every category. */
export function hostileCorpus(canaryOrigin: string): HostileVector[] {
  const categorised = Object.entries(byCategory(canaryOrigin)).flatMap(([category, list]) =>
    list.map((markdown): HostileVector => {
      const template = markdown.split(canaryOrigin).join('C');
      const shows = template in SHOWS ? SHOWS[template] : undefined;
      return { category: category as VectorCategory, markdown, ...(shows !== undefined ? { shows } : {}) };
    }),
  );
  return [...XSS_VECTORS.map((v): HostileVector => ({ ...v, category: 'baseline' })), ...categorised];
}
