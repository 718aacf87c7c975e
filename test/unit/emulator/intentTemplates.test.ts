// The emulator's demo templates (issue 25, finding 9): a real test of the named function, a rewrite that changes
// two separate regions as the review measures them, a completion that fits its function, and an explanation that
// names the selected symbol.
import * as assert from 'node:assert/strict';
import * as ts from 'typescript';
import { explainRequestText, codeGenerationMessages } from '../../../src/chat/prompts';
import { withQuote } from '../../../src/chat/messages';
import { diffSegments } from '../../../src/review/diff';
import { answerHeadline, expectedAnswer, expectedCode } from '../../gateway-emulator/answers';
import { expectedCompletion } from '../../gateway-emulator/completionAnswers';
import { testTarget } from '../../gateway-emulator/intentTemplates';

const MODEL = 'alpha-sonnet-4-5-20250929';
const ADD =
  '/** Adds two numbers. */\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n';
const GREET =
  '/** Greets someone by name. */\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n';

/** A Generate Code request as the extension builds it. */
function codeRequest(languageId: string, instruction: string, selection: string, before = '', after = '') {
  return {
    model: MODEL,
    messages: codeGenerationMessages(instruction, {
      fileName: 'sample.ts',
      languageId,
      selection,
      before,
      after,
    }),
  };
}

/** Runs generated TypeScript test code with `definitions` in scope: node:test's `test` runs each case at once. */
function runTest(code: string, definitions: string): string[] {
  const js = ts.transpileModule(`${definitions}\n${code}`, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const ran: string[] = [];
  const modules: Record<string, unknown> = {
    'node:test': { test: (name: string, body: () => void) => (body(), ran.push(name)) },
    'node:assert/strict': assert,
  };
  new Function('require', 'exports', js)((id: string) => modules[id], {});
  return ran;
}

/** The number of hunks the review shows for replacing `original` by `proposed` (src/review/diff.ts). */
function hunks(original: string, proposed: string): number {
  return diffSegments(original, proposed).filter((s) => s.kind === 'change').length;
}

/** An Explain Selection request as the extension sends it: the request text with the code quoted. */
function explainRequest(code: string, before: string, after: string, startLine: number) {
  const text = explainRequestText('sample.ts', 'typescript', before, after);
  return withQuote(text, { fileName: 'sample.ts', language: 'typescript', startLine, code });
}

describe('gateway emulator: demo templates', () => {
  it('"unit test for add()" gets a node:test test that calls add and fails for a wrong add', () => {
    const code = expectedCode(codeRequest('typescript', 'unit test for add()', '', ADD));
    assert.match(code, /^import \{ test \} from 'node:test';/);
    assert.match(code, /assert\.equal\(add\(2, 3\), 5\);/);
    assert.doesNotMatch(code, /unitTest/);
    assert.deepEqual(runTest(code, 'function add(a: number, b: number) { return a + b; }'), [
      'add combines its two arguments',
    ]);
    assert.throws(() => runTest(code, 'function add(a: number, b: number) { return a - b; }'));
    assert.equal(
      code,
      expectedCode(codeRequest('typescript', 'unit test for add()', '', ADD)),
      'deterministic',
    );
  });

  it('a test follows the named function’s parameters: text for greet, pytest for Python', () => {
    const code = expectedCode(codeRequest('typescript', 'write a test for `greet`', '', GREET));
    assert.deepEqual(runTest(code, 'function greet(name: string) { return `Hello, ${name}!`; }'), [
      'greet includes the text it was given',
    ]);
    assert.throws(() => runTest(code, "function greet(name: string) { return 'Hello!'; }"));
    const py = expectedCode(
      codeRequest('python', 'tests for multiply', '', 'def multiply(x: int, y: int) -> int:\n'),
    );
    assert.equal(
      py,
      'def test_multiply():\n    assert multiply(2, 3) == 6\n    assert multiply(-2, 3) == -6',
    );
    const price = "export function formatPrice(cents: number, currency = 'EUR'): string {\n";
    assert.match(
      expectedCode(codeRequest('typescript', 'unit test for formatPrice()', '', price)),
      /formatPrice\(2\)/,
    );
    // The chat's "Write tests" follow-up names no function: the selection's function is the one tested.
    const followUp = expectedCode(codeRequest('typescript', 'write tests for the selected code', ADD));
    assert.ok(followUp.startsWith(ADD.trimEnd()), 'the selection is kept');
    assert.match(followUp, /assert\.equal\(add\(2, 3\), 5\);/);
    assert.equal(testTarget('write tests for the selected code'), undefined);
    assert.equal(testTarget('a unit test for the add function'), 'add');
    const chat = expectedAnswer({
      model: MODEL,
      messages: [{ role: 'user', content: 'unit test for add()' }],
    });
    assert.match(chat, /^Here is a test for `add`\./);
    assert.match(chat, /assert\.equal\(add\(2, 3\), 5\);/);
  });

  it('rewriting a selected function changes two separate regions, as the review diffs them', () => {
    for (const [language, selection] of [
      ['typescript', ADD],
      ['typescript', GREET],
      ['javascript', 'function add(a, b) {\r\n  return a + b;\r\n}\r\n'],
      [
        'python',
        '    def scale(self, value: float, factor: float) -> float:\n        return value * factor\n',
      ],
    ]) {
      const code = expectedCode(codeRequest(language, 'check the inputs', selection));
      const eol = selection.includes('\r\n') ? '\r\n' : '\n';
      assert.equal(hunks(selection, `${code}${eol}`), 2, `${language}: ${code}`);
      assert.ok(eol === '\r\n' ? !/(^|[^\r])\n/.test(code) : !code.includes('\r'), 'line endings kept');
      if (language !== 'python')
        assert.deepEqual(
          ts.transpileModule(code, { reportDiagnostics: true, fileName: 'x.ts' }).diagnostics,
          [],
          code,
        );
    }
    const plain = 'const total = 1;\nconsole.log(total);\n';
    assert.equal(hunks(plain, `${expectedCode(codeRequest('typescript', 'tidy', plain))}\n`), 2);
  });

  it('a completion on an empty line fits the function it sits in, using its parameters', () => {
    const inAdd = expectedCompletion({
      language: 'typescript',
      before: `${GREET}\nexport function scale(value: number, factor: number): number {\n  `,
      after: '\n  return value * factor;\n}\n',
    });
    assert.match(
      inAdd,
      /^const args = \{ value, factor \};\n {2}if \(!Number\.isFinite\(value\) \|\| !Number\.isFinite\(factor\)\) \{/,
    );
    assert.match(inAdd, /scale: expected finite numbers/);
    assert.doesNotMatch(inAdd, /completed|greet/);
    const afterReturn = expectedCompletion({
      language: 'typescript',
      before: ADD.replace('a + b;\n}\n', ''),
      after: '',
    });
    assert.equal(afterReturn, 'a + b;');
    const py = expectedCompletion({ language: 'python', before: 'def greet(name):\n    ', after: '' });
    assert.match(py, /^if name is None:\n {4}\s*raise ValueError/);
    // Outside any function (the closed `add` above does not count) it still suggests a new function.
    assert.match(
      expectedCompletion({ language: 'typescript', before: `${ADD}\n`, after: '' }),
      /^function completed/,
    );
  });

  it('an explanation names the selected symbol, not its neighbour', () => {
    const file = `${ADD}\n${GREET}`;
    const lines = file.split('\n');
    const greet = explainRequest(GREET.trimEnd(), lines.slice(0, 5).join('\n'), '', 6);
    assert.equal(answerHeadline(greet), 'This typescript code defines greet in 4 lines. 🔍');
    assert.match(
      expectedAnswer({ model: MODEL, messages: [{ role: 'user', content: greet }] }),
      /`greet\(name\)` takes `name`/,
    );
    const body = explainRequest(
      '  return a + b;',
      lines.slice(0, 2).join('\n'),
      lines.slice(3, 6).join('\n'),
      3,
    );
    assert.equal(answerHeadline(body), 'This line of typescript is part of add. 🔍');
    const word = explainRequest('greet', lines.slice(4, 6).join('\n'), lines.slice(6, 8).join('\n'), 7);
    assert.equal(answerHeadline(word), 'greet is a name in this typescript code. 🔍');
  });
});
