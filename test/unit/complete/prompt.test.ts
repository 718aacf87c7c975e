import * as assert from 'node:assert/strict';
import { estimateTokens } from '../../../src/chat/tokens';
import {
  HOLE_MARKER,
  SYSTEM_PROMPT,
  buildHolePrompt,
  headWithinTokens,
  splitBudget,
  tailWithinTokens,
  toLf,
} from '../../../src/complete/prompt';

const lines = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => `const ${tag}${i} = ${i}; // line ${i}`).join('\n');

describe('complete/prompt', () => {
  it('names the file and language, marks the hole once and asks for the inserted code only', () => {
    const prompt = buildHolePrompt({
      fileName: 'src/math.ts',
      languageId: 'typescript',
      before: 'function add(a: number, b: number) {\n  return ',
      after: '\n}\n',
      contextTokens: 4000,
    });
    assert.equal(prompt.messages.length, 2);
    assert.equal(prompt.messages[0].role, 'system');
    assert.equal(prompt.messages[0].content, SYSTEM_PROMPT);
    assert.match(SYSTEM_PROMPT, /code to insert at the hole, and nothing else/);
    const user = prompt.messages[1].content;
    assert.match(user, /^File: src\/math\.ts\nLanguage: typescript\n/);
    assert.ok(user.endsWith(`  return ${HOLE_MARKER}\n}\n`));
    assert.equal(user.split(HOLE_MARKER).length, 2);
  });

  it('splits the budget about 3:1 and keeps each side within it, cut at whole lines', () => {
    assert.deepEqual(splitBudget(4000), { before: 3000, after: 1000 });
    assert.deepEqual(splitBudget(Number.NaN), { before: 3000, after: 1000 });
    const before = lines(2000, 'b');
    const after = lines(2000, 'a');
    const prompt = buildHolePrompt({
      fileName: 'f.ts',
      languageId: 'typescript',
      before,
      after,
      contextTokens: 400,
    });
    assert.ok(estimateTokens(prompt.before) <= 300, `before: ${estimateTokens(prompt.before)}`);
    assert.ok(estimateTokens(prompt.before) > 280, 'the budget is used, not wasted');
    assert.ok(estimateTokens(prompt.after) <= 100);
    assert.ok(
      before.endsWith(prompt.before) && prompt.before.startsWith('const b'),
      'the tail starts at a line',
    );
    assert.ok(
      after.startsWith(prompt.after) && prompt.after.endsWith('line ' + prompt.after.split(' ').pop()),
    );
    assert.ok(!prompt.after.endsWith('\n'));
  });

  it('keeps the text whole when it fits, and counts wide characters as the chat estimates do', () => {
    assert.equal(tailWithinTokens('abc\ndef', 10), 'abc\ndef');
    assert.equal(headWithinTokens('abc\ndef', 10), 'abc\ndef');
    const cjk = '你好世界\n'.repeat(10);
    assert.ok(estimateTokens(tailWithinTokens(cjk, 12)) <= 12);
    assert.equal(tailWithinTokens(cjk, 12), '你好世界\n你好世界\n');
    assert.equal(tailWithinTokens('one very long line without a break', 2), '');
  });

  it('sends LF line breaks for a CRLF document, and defuses a marker already in the file', () => {
    assert.equal(toLf('a\r\nb\rc\n'), 'a\nb\nc\n');
    const prompt = buildHolePrompt({
      fileName: 'w.txt',
      languageId: 'plaintext',
      before: `x = "${HOLE_MARKER}"\r\ny = `,
      after: '\r\nz',
      contextTokens: 4000,
    });
    const user = prompt.messages[1].content;
    assert.ok(!user.includes('\r'));
    assert.equal(user.split(HOLE_MARKER).length, 2);
    assert.ok(user.includes(`y = ${HOLE_MARKER}\nz`));
  });
});
