// Named answers selected with [[answer:NAME]]: a long Markdown document and a one-of-each construct sampler.

const MARKDOWN_SAMPLE = [
  '# Heading level 1',
  '',
  '## Heading level 2',
  '',
  '### Heading level 3',
  '',
  'A paragraph with **bold**, *italic*, ~~strikethrough~~, `inline code` and a [link](https://example.invalid/docs).',
  'Unicode survives too: café, 漢字, emoji 🚀.',
  '',
  '- unordered item one',
  '- unordered item two',
  '  - nested item',
  '',
  '1. ordered item one',
  '2. ordered item two',
  '',
  '- [x] done task',
  '- [ ] open task',
  '',
  '> A blockquote line.',
  '',
  '| Column A | Column B | Column C |',
  '| --- | :---: | ---: |',
  '| a1 | b1 | c1 |',
  '| a2 | b2 | c2 |',
  '',
  '```ts',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '```',
  '',
  '    indented code block',
  '',
  '---',
  '',
  '![An image](https://example.invalid/picture.png)',
  '',
  'Inline HTML: <kbd>Ctrl</kbd>+<kbd>C</kbd>.',
  '',
  'Line with a hard break  ',
  'and the final line.',
].join('\n');

/** Builds one section of the long answer; `i` makes every section distinct. */
function longSection(i: number): string {
  return [
    `## Section ${i}: notes on topic ${i}`,
    '',
    `This section (${i}) explains the topic in prose, with **emphasis**, \`code\` and a few words — 第${i}节 ✔.`,
    'It is long enough to wrap in a narrow panel, so renderers get to reflow the paragraph more than once.',
    '',
    `- point ${i}.1: keep the stream order`,
    `- point ${i}.2: render tables incrementally`,
    `- point ${i}.3: never lose text`,
    '',
    '| Key | Value | Note |',
    '| --- | --- | --- |',
    `| alpha | ${i * 3} | first |`,
    `| beta | ${i * 7} | second |`,
    '',
    '```python',
    `def section_${i}(values):`,
    `    """Sums the values and adds ${i}."""`,
    `    return sum(values) + ${i}`,
    '```',
    '',
  ].join('\n');
}

/** Builds the ~20 KB Markdown answer. */
function longAnswer(): string {
  const parts = ['# A long answer', '', 'An introduction paragraph before the sections.', ''];
  let i = 1;
  while (parts.join('\n').length < 20_000) parts.push(longSection(i++));
  parts.push('That is the end of the long answer.');
  return parts.join('\n');
}

/**
 * The code of the `greet-js` answer: the same function and export a review test starts from, changed in two
 * separate lines (the return and the export), so a review of it has exactly two hunks.
 */
export const GREET_JS =
  'function greet(name) {\n  return `Hello, ${name}!`;\n}\n\nmodule.exports = { greet };';

/**
 * The code of the `add-checked-ts` answer: `add` of the fixture's sample.ts with a third operand and a check,
 * so a review of it shows removed lines (the old signature and return) beside added ones.
 */
export const ADD_CHECKED_TS = [
  'export function add(a: number, b: number, c = 0): number {',
  "  if (![a, b, c].every(Number.isFinite)) throw new RangeError('add expects finite numbers');",
  '  return a + b + c;',
  '}',
].join('\n');

const FIXED: Record<string, () => string> = {
  long: longAnswer,
  markdown: () => MARKDOWN_SAMPLE,
  'add-checked-ts': () => `Here is the code ✅\n\`\`\`typescript\n${ADD_CHECKED_TS}\n\`\`\`\nDone.`,
  'greet-js': () => `Here is the code ✅\n\`\`\`javascript\n${GREET_JS}\n\`\`\`\nDone.`,
};

const cache = new Map<string, string>();

/** A named answer (`long`, `markdown`); throws on an unknown name so typos in tests surface. */
export function fixedAnswer(name: string): string {
  const known = cache.get(name);
  if (known !== undefined) return known;
  const make = FIXED[name];
  if (!make) throw new Error(`Unknown fixed answer "${name}" (known: ${Object.keys(FIXED).join(', ')})`);
  const text = make();
  cache.set(name, text);
  return text;
}
