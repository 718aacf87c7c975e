// Markdown documents for the incremental-vs-whole render comparison; each stresses a block boundary.

const FENCE = '```';

export const DOCUMENTS: Record<string, string> = {
  headings:
    '# Title\n\nIntro paragraph with *emphasis*.\n\n## Section\nText right under.\n\nSetext\n======\n\nAnother\n---\n\n### Last',
  lists:
    '- one\n- two\n  - nested a\n  - nested b\n    1. deep\n    2. deeper\n- three\n\n1. first\n2. second\n\n' +
    '3. loose continues\n\n10) other style\n\n* star\n+ plus\n\n- a\n\n  indented paragraph in item\n\nafter list',
  table:
    'Before\n\n| Name | Value | Note |\n|:-----|------:|:----:|\n| `a` | 1 | **x** |\n| b | 22 | [l](https://example.com) |\n\nAfter table\n\n' +
    '| h |\n|---|\n| row |\n# heading interrupts\n',
  code:
    `Some code:\n\n${FENCE}ts\nconst a: number = 1;\n\nfunction f() {\n  return a;\n}\n${FENCE}\n\nThen text.\n\n` +
    `~~~python\ndef g():\n    return "~~~"\n~~~\n\n  ${FENCE}js\n  indented();\n  ${FENCE}\n\n    indented code block\n\n` +
    `${FENCE}\nno language\n${FENCE}${FENCE}\nstill inside\n${FENCE}${FENCE}\n\nend`,
  unterminatedFence: `Answer:\n\n${FENCE}diff\n- old\n+ new\n\nmore\n${FENCE}`,
  neverClosed: `Start\n\n${FENCE}rust\nfn main() {\n    println!("hi");\n}\n`,
  inline:
    'Use `npm install` and ``code with ` tick`` here. Also `unterminated code span and **bold** and _em_ and ~~strike~~.\n\n' +
    'Escapes \\*not em\\* and &amp; &copy; entities, <div>not html</div>.',
  links:
    'See [the docs](https://example.com/path?query=1&x=y#frag "Title") and https://auto.example.org/a_b.\n\n' +
    'Mail foo@example.com or <https://angle.example.com>, [rel](./relative.md), README.md, www.example.com.\n\n' +
    '![diagram](https://example.com/d.png) and [![badge](https://x.io/b.svg)](https://x.io)',
  quotes: '> quoted line\nlazy continuation\n> > nested\n\n> second quote\n\n---\n\n***\n\nend',
  references:
    'Use [the guide][g] and [this].\n\n[g]: https://example.com/guide\n[this]: https://example.com/this "T"\n\nDone.',
  crlf: 'Line one\r\nLine two\r\n\r\n- item\r\n- item two\r\n\r\n```\r\ncode\r\n```\r\n',
  mixed:
    '1. Step one:\n\n   ```bash\n   npm test\n   ```\n\n2. Step two\n\n   > note inside\n\n3. Step three\n\nParagraph\n' +
    '- list interrupting\n\nText\n    not code (lazy)\n\nTabs:\n\n\tcode with tab\n\n' +
    '| a |\n|---|\n\nTrailing spaces for hard break  \nnext line\\\nanother',
  // Plain text appended to an open paragraph is the fast path (paragraphAppend.ts); each line is a case
  // where a later character changes how earlier text renders.
  prose:
    'Plain prose goes on and on, with commas, dots. And more words here\n\n' +
    'Bold **closes** later and __under__x stays literal, *dot.*x too, `code`x and ~~gone~~x.\n\n' +
    'AT&T and &amp then ; and &copy; sign; entities.\n\n' +
    'A lone \\ slash, escaped \\, comma, and \\*stars\\* here.\n\n' +
    'Brackets [ref] (not a link) and [a](https://e.com)x, then [b]x(y).\n\n' +
    'Links grow: https://example.com/path.html more, www.example.com/x, mail foo@bar.com now.\n\n' +
    'Trailing spaces   \nthen\ttabs and non\u00a0breaking\u00a0spaces\u00a0\n\n' +
    'Unicode na\u00efve caf\u00e9 \u2014 \u00abquotes\u00bb \u65e5\u672c\u8a9e \u{1f600} end\n\n' +
    'Numbers\n2024. Next line starts with a year\n\nfoo\n1. item interrupts\n\nbar\n# heading\n\n' +
    'Setext follows\n===\n\nlast line without a newline',
  // A table's open row is re-rendered alone (tableRowAppend.ts): rows with inline code, escaped pipes,
  // links, missing and extra cells, then what ends a table.
  tables:
    'Intro\n\n| Setting | Default | Effect |\n|:--|--:|:-:|\n| `a.b` | 10 | **bold** and [l](https://e.com) |\n' +
    '| `x \\| y` | 2 |\n| one | two | three | four |\n|no space|x|\n| last row\n\n' +
    '| h |\n|---|\n| r |\n- list ends it\n\n| h2 |\n| --- |\n| r2 |\n> quote ends it\n\n' +
    '| h3 |\n|---|\n| r3 |\nplain line is a row\n| r4 `unclosed',
};
