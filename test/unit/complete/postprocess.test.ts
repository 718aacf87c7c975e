import * as assert from 'node:assert/strict';
import { type HoleContext, processAnswer, stripFences } from '../../../src/complete/postprocess';
import { MAX_SUGGESTION_LINES } from '../../../src/complete/cut';

const at = (before: string, after: string, more: Partial<HoleContext> = {}): HoleContext => ({
  before,
  after,
  tabSize: 4,
  insertSpaces: true,
  eol: '\n',
  ...more,
});
const text = (answer: string, ctx: HoleContext): string => processAnswer(answer, ctx).text;

describe('complete/postprocess', () => {
  it('strips fences and the prose around them', () => {
    const ctx = at('const x = ', ';\n');
    assert.equal(text('Here is the code:\n```ts\n42\n```\nHope it helps!', ctx), '42');
    assert.equal(text('~~~\n42\n~~~', ctx), '42');
    assert.equal(text("Sure! Here's the completion:\n42", ctx), '42');
    assert.deepEqual(stripFences('```ts'), { text: '', closed: false });
    assert.equal(processAnswer('```ts\n42\n```', ctx).complete, true);
  });

  it('removes a repeat of the line before the cursor, but not a mere shared character', () => {
    assert.equal(text('const total = a + b;', at('function f() {\n  const total = ', '\n}')), 'a + b;');
    assert.equal(text('  const total = a + b;', at('  const total = ', '')), 'a + b;');
    assert.equal(text('return total;', at('  retur', '')), 'n total;');
    assert.equal(text('= 1;', at('let x =', '')), '= 1;');
  });

  it('removes a repeat of the code after the cursor', () => {
    assert.equal(text('a, b);', at('console.log(', ');\n')), 'a, b');
    // The closing bracket is the suggestion's own when the line needs it.
    assert.equal(text('a)', at('f(g(', ')')), 'a)');
    const ctx = at('function f() {\n  ', '\n  done();\n}\n');
    assert.equal(text('a();\n  b();\n  done();', ctx), 'a();\n  b();');
  });

  it('offers one line unless the cursor is on an empty line', () => {
    assert.equal(text('a + b;\nconsole.log(1);', at('const c = ', '\n')), 'a + b;');
    assert.equal(processAnswer('a + b;\nmore', at('const c = ', '\n')).complete, true);
    assert.equal(processAnswer('a + b;', at('const c = ', '\n')).complete, false);
    assert.equal(text('\nfoo()', at('if (x) {', '\n}')), '');
  });

  it('cuts a multi-line suggestion at the end of its block', () => {
    const ctx = at('class A {\n    ', '\n}\n');
    const answer = 'run() {\n        return 1;\n    }\n    other() {\n        return 2;\n    }';
    const result = processAnswer(answer, ctx);
    assert.equal(result.text, 'run() {\n        return 1;\n    }');
    assert.equal(result.complete, true);
  });

  it('cuts at a dedent and a Python block end', () => {
    const py = at('def f(x):\n    ', '\n');
    assert.equal(text('if x:\n        return 1\n    return 2\nprint(f(1))', py), 'if x:\n        return 1');
    assert.equal(text('for i in x:\n        print(i)\n    y = 3', py), 'for i in x:\n        print(i)');
    assert.equal(
      text('if x:\n        a()\n    else:\n        b()', py),
      'if x:\n        a()\n    else:\n        b()',
    );
  });

  it('cuts at a line limit and at a blank line between statements', () => {
    const many = Array.from({ length: 40 }, (_, i) => `x${i}();`).join('\n');
    assert.equal(text(many, at('', '')).split('\n').length, MAX_SUGGESTION_LINES);
    assert.equal(text('a();\nb();\n\nc();', at('', '')), 'a();\nb();');
  });

  it('drops indentation the user already typed on the empty line', () => {
    assert.equal(text('    return 1;', at('def f():\n    ', '\n')), 'return 1;');
  });

  it('writes CRLF line breaks in a CRLF document, whatever the model sent', () => {
    const ctx = at('int main() {\n', '\n}', { eol: '\r\n' });
    assert.equal(text('  if (a) {\r\n    b();\r\n  }\r\n', ctx), '  if (a) {\r\n    b();\r\n  }');
  });

  it('indents with tabs in a tab file and with spaces in a space file', () => {
    const answer = 'if (a) {\n        b();\n    }';
    assert.equal(text(answer, at('f() {\n\t', '\n}', { insertSpaces: false })), 'if (a) {\n\t\tb();\n\t}');
    const tabbed = 'if (a) {\n\t\tb();\n\t}';
    assert.equal(text(tabbed, at('f() {\n    ', '\n}')), 'if (a) {\n        b();\n    }');
  });

  it('shows nothing for an empty or whitespace answer', () => {
    assert.equal(text('', at('x', '')), '');
    assert.equal(text('```\n\n```', at('x', '')), '');
    assert.equal(text('   \n', at('', '')), '');
  });
});
