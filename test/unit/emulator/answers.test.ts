// The emulator's canned answers: chosen by keywords, deterministic, and code that parses in its language.
import * as assert from 'node:assert/strict';
import * as ts from 'typescript';
import { withAttachments } from '../../../src/chat/context/format';
import { codeGenerationMessages, explainModelText } from '../../../src/chat/prompts';
import {
  ANSWER_RULES,
  answerHeadline,
  closeOpenFence,
  expectedAnswer,
  expectedChatAnswer,
  expectedCode,
  expectedReasoning,
  fixedAnswer,
} from '../../gateway-emulator/answers';
import { CHAT_RULES, chooseChatRule } from '../../gateway-emulator/chatAnswers';
import { codeFor, functionName } from '../../gateway-emulator/codeAnswers';

const MODEL = 'alpha-sonnet-4-5-20250929';
const ask = (content: string): { model: string; messages: { role: string; content: string }[] } => ({
  model: MODEL,
  messages: [{ role: 'user', content }],
});

/** A Generate Code request exactly as the extension builds it. */
function codeRequest(languageId: string, instruction: string, selection = ''): ReturnType<typeof ask> {
  const messages = codeGenerationMessages(instruction, {
    fileName: `sample.${languageId}`,
    languageId,
    selection,
    before: 'const before = 1;',
    after: '',
  });
  return { model: MODEL, messages };
}

/** TypeScript/JavaScript syntax errors of a snippet (empty when it parses). */
function syntaxErrors(code: string, js = false): string[] {
  const out = ts.transpileModule(code, {
    reportDiagnostics: true,
    fileName: js ? 'x.js' : 'x.ts',
    compilerOptions: { allowJs: true },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('gateway emulator: canned answers', () => {
  it('chooses a chat answer by keywords, never echoing the question', () => {
    const cases: Array<[string, string]> = [
      ['Hello there', 'greeting'],
      ['Thanks a lot!', 'thanks'],
      ['Explain closures in two lines.', 'explain'],
      ['What is a monad?', 'explain'],
      ['Write a function that reverses a string', 'write code'],
      ['My build fails with an error', 'fix'],
      ['Name a colour', 'list'],
      ['Tell me about the weather', 'fallback'],
      ['Explain this:\n```ts\nfunction add(a, b) { return a + b; }\n```', 'explain code'],
    ];
    for (const [question, rule] of cases) {
      assert.equal(chooseChatRule(question).rule.name, rule, question);
      const answer = expectedAnswer(ask(question));
      assert.ok(!answer.startsWith(question), `does not start with the question: ${question}`);
      assert.doesNotMatch(answer, /Echo:/);
    }
    assert.equal(CHAT_RULES.at(-1)?.name, 'fallback');
  });

  it('is deterministic, and names the topic so different questions get different answers', () => {
    assert.equal(expectedAnswer(ask('Explain recursion')), expectedAnswer(ask('Explain recursion')));
    assert.notEqual(expectedAnswer(ask('Explain recursion')), expectedAnswer(ask('Explain promises')));
    assert.match(expectedAnswer(ask('Name a colour')), /^Here are three suggestions for a colour/);
    assert.match(expectedAnswer(ask('Name a colour')), /Teal/);
    assert.equal(
      answerHeadline('Explain this:\n```ts\nfunction add() {}\n```'),
      'This ts code defines add in 1 line. 🔍',
    );
    assert.equal(
      expectedChatAnswer('Hi'),
      expectedAnswer({ model: 'other', messages: [...ask('Hi').messages] }),
    );
  });

  it('keeps fault and answer markers out of the topic, and cuts long topics at a word', () => {
    assert.equal(chooseChatRule('Explain streams [[fault:in-stream-error]]').topic, 'streams');
    const long = chooseChatRule(`Explain ${'word '.repeat(40)}`).topic;
    assert.ok(Array.from(long).length <= 61 && long.endsWith('…'), long);
    assert.equal(expectedAnswer(ask('x [[answer:markdown]]')), fixedAnswer('markdown'));
  });

  it('explains a quoted selection by the names it defines', () => {
    const quoted =
      'Explain this typescript code from a.ts: what it does.\n\nSurrounding lines, for context only:\n' +
      '```typescript\nimport x;\n…\n```\n\nFrom `a.ts` (typescript), starting at line 3:\n' +
      '```typescript\nexport function add(a: number, b: number) {\n  return a + b;\n}\n```';
    assert.equal(answerHeadline(quoted), 'This typescript code defines add in 3 lines. 🔍');
  });

  it('explains the selection Explain Selection attaches, not the surrounding lines after it', () => {
    // The message exactly as the extension sends it: the selection as an attachment, the instruction with the
    // lines around it as the question. The lines after the selection define another function.
    const source = {
      fileName: 'sample.ts',
      languageId: 'typescript',
      code: 'export function add(a: number, b: number): number {\n  return a + b;\n}',
      startLine: 2,
      endLine: 4,
      before: '/** Adds two numbers. */',
      after:
        '\n/** Greets someone by name. */\nexport function greet(name: string): string {\n  return name;\n}',
    };
    const selection = {
      id: 's1',
      kind: 'selection' as const,
      name: 'sample.ts',
      path: 'src/sample.ts',
      startLine: 2,
      endLine: 4,
      language: 'typescript',
      content: source.code,
      tokens: 0,
    };
    const answer = expectedAnswer(ask(withAttachments(explainModelText(source), [selection])));
    assert.match(answer, /^Attachments received: selection `?src\/sample\.ts`? lines 2-4\.\n\n/);
    assert.match(answer, /This typescript code defines `add` in 3 lines\. 🔍/);
    assert.doesNotMatch(answer, /greet/);
  });

  it('reasoning of -thinking models names the rule and the topic', () => {
    const request = { ...ask('Explain closures'), model: `${MODEL}-thinking` };
    assert.match(expectedReasoning(request), /closures/);
    assert.match(expectedReasoning(request), /explain request/);
    assert.equal(expectedReasoning(ask('Explain closures')), '');
  });

  it('generates a new function named from the instruction, in the request language', () => {
    assert.equal(functionName('a function that multiplies two numbers', 'camel'), 'multiplyTwoNumbers');
    assert.equal(functionName('a greeting function', 'snake'), 'greeting');
    assert.equal(functionName('', 'pascal'), 'Generated');
    const tsCode = expectedCode(codeRequest('typescript', 'a function that multiplies two numbers'));
    assert.match(tsCode, /export function multiplyTwoNumbers\(a: number, b: number\): number/);
    assert.match(tsCode, /return a \* b;/);
    assert.deepEqual(syntaxErrors(tsCode), []);
    const py = expectedCode(codeRequest('python', 'a greeting function'));
    assert.equal(py, 'def greeting(text: str) -> str:\n    """Greeting."""\n    return f"Hello, {text}!"');
    assert.match(
      expectedCode(codeRequest('go', 'uppercase a string')),
      /^\/\/ UppercaseString: .*\nfunc UppercaseString/,
    );
    assert.match(
      expectedCode(codeRequest('rust', 'reverse a string')),
      /pub fn reverse_string\(text: &str\) -> String/,
    );
  });

  it('every generated JavaScript and TypeScript snippet parses', () => {
    for (const instruction of [
      'x',
      'a multiply function',
      'greet the user',
      'uppercase',
      'reverse text',
      'sum numbers',
    ]) {
      for (const language of ['typescript', 'javascript'])
        assert.deepEqual(
          syntaxErrors(codeFor({ language, instruction }), language === 'javascript'),
          [],
          instruction,
        );
    }
    assert.doesNotThrow(() => JSON.parse(codeFor({ language: 'json', instruction: 'a config' })));
  });

  it('rewrites a selection with a visible change that keeps it valid', () => {
    const selection = 'function add(a, b) {\r\n  return a + b;\r\n}\r\n';
    const code = expectedCode(codeRequest('javascript', 'rewrite it [[fault:crlf]]', selection));
    assert.equal(
      code,
      '/** Rewrite it. */\r\nfunction add(a, b) {\r\n' +
        "  if (a === undefined || b === undefined) throw new TypeError('add: a and b must be given');\r\n" +
        '  return a + b;\r\n}',
    );
    assert.deepEqual(syntaxErrors(code, true), []);
    const indented = codeFor({
      language: 'python',
      instruction: 'add types */ -->',
      selection: '    x = 1\n',
    });
    assert.equal(indented, '    # Add types.\n    x = 1\n    # End of the change (1 line kept).');
    assert.equal(codeFor({ language: 'json', instruction: 'tidy', selection: '{"a":1}' }), '{\n  "a": 1\n}');
    assert.match(
      codeFor({ language: 'html', instruction: 'tidy', selection: '<p>x</p>' }),
      /^<!-- Tidy\. -->\n<p>x<\/p>\n<!-- End of the change \(1 line kept\)\. -->$/,
    );
  });

  it('[[echo]] repeats the first 200 characters (for hostile-output tests), closing a fence it cut open', () => {
    const long = 'é'.repeat(150) + '🙂'.repeat(100);
    assert.equal(expectedAnswer(ask(`[[echo]] ${long}`)), `Echo: ${'é'.repeat(150)}${'🙂'.repeat(50)}`);
    const cut = expectedAnswer(ask(`[[echo]]Explain:\n~~~~ts\n${'x = 1;\n'.repeat(40)}~~~~`));
    assert.match(cut, /^Echo: Explain:\n~~~~ts\n(x = 1;\n)+x[^\n]*\n~~~~$/);
  });

  it('knows when a fence is open: same character, at least as long, nothing after a closing fence', () => {
    assert.equal(closeOpenFence('a\n```js\nb\n```'), 'a\n```js\nb\n```');
    assert.equal(closeOpenFence('```js\nb\n~~~'), '```js\nb\n~~~\n```');
    assert.equal(closeOpenFence('````\nb\n```'), '````\nb\n```\n````');
    assert.equal(closeOpenFence('```\nb\n``` not a close'), '```\nb\n``` not a close\n```');
    assert.equal(closeOpenFence('``` inline ` tick is no fence'), '``` inline ` tick is no fence');
    assert.equal(closeOpenFence('no fence at all'), 'no fence at all');
  });

  it('wraps code in a fence longer than any backtick run inside it', () => {
    const request = codeRequest('markdown', 'add a note', 'Text with ```fence``` inside');
    const answer = expectedAnswer(request);
    assert.ok(answer.includes('\n````markdown\n'), answer);
    assert.throws(() => expectedCode(ask('not a code request')), /not a code request/);
    assert.deepEqual(
      ANSWER_RULES.map((r) => r.name),
      ['completion', 'named answer', 'apply merge', 'echo marker', 'code generation', 'attachments', 'chat'],
    );
  });
});
