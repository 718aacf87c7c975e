// Templates keyed by what the prompt asks and by the identifiers in it, so the emulator's answers read like a
// model's in the demo: a real test for a named function, and a rewrite of a selected function that changes
// two separate places (its doc comment and a guard on its parameters). Deterministic: same prompt, same text.
import { functionsIn, isNumeric, isText, type FunctionShape, type Param } from './codeShapes';

const IDENT = /^[A-Za-z_$][\w$]*$/;
const NOT_NAMES = new Set([
  'the',
  'a',
  'an',
  'it',
  'this',
  'that',
  'my',
  'our',
  'function',
  'method',
  'each',
  'every',
  'selected',
  'selection',
  'current',
  'code',
  'file',
  'test',
  'tests',
  'spec',
]);

/** True when an instruction asks for tests ("unit test for add()", "write tests for the selected code"). */
export function isTestIntent(instruction: string): boolean {
  return /\b(unit[- ]?)?tests?\b|\bspecs?\b/i.test(instruction);
}

/**
 * The function a "write a test" instruction names (`add()`, `` `add` ``, "for add", "for the add function"), or
 * undefined; a word followed by another word ("for the selected code") names nothing.
 */
export function testTarget(instruction: string): string | undefined {
  if (!isTestIntent(instruction)) return undefined;
  const called = /([A-Za-z_$][\w$]*)\s*\(\s*\)/.exec(instruction)?.[1];
  const quoted = /`([A-Za-z_$][\w$]*)`/.exec(instruction)?.[1];
  const named =
    /\b(?:for|of|covering)\s+(?:the\s+)?(?:function\s+|method\s+)?([A-Za-z_$][\w$]*)(?=\s*(?:$|[(.,;:!?]|\s+(?:function|method)\b))/i.exec(
      instruction,
    )?.[1];
  const name = called ?? quoted ?? named;
  return name && IDENT.test(name) && !NOT_NAMES.has(name.toLowerCase()) ? name : undefined;
}

type Arithmetic = '+' | '-' | '*' | '/';

/** The arithmetic a function's name suggests, for computing the expected value of a test. */
function arithmetic(name: string): Arithmetic | undefined {
  const lower = name.toLowerCase();
  if (/^(add|sum|plus|total)/.test(lower)) return '+';
  if (/^(sub|minus|difference)/.test(lower)) return '-';
  if (/^(mul|times|product)/.test(lower)) return '*';
  if (/^(div|quotient)/.test(lower)) return '/';
  return undefined;
}

const APPLY: Record<Arithmetic, (a: number, b: number) => number> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
};

/** A parameter reads as text by its type, or by its name when untyped. */
function textParam(param: Param): boolean {
  return param.type
    ? isText(param.type)
    : /^(name|text|str|s|label|title|word|message|prefix)$/i.test(param.name);
}

/**
 * Sample arguments for the required parameters (optional ones keep their defaults): numbers 2, 3, 4… and names
 * for text; two numbers when the parameters are unknown.
 */
function sampleArgs(params: Param[] | undefined, python: boolean): string[] {
  const list = params?.filter((p) => !p.optional) ?? [
    { name: 'a', type: '', optional: false },
    { name: 'b', type: '', optional: false },
  ];
  const names = ['Ada', 'Grace', 'Linus'];
  let n = 2;
  return list.map((param, i) => {
    if (textParam(param)) return python ? `"${names[i % 3]}"` : `'${names[i % 3]}'`;
    if (!param.type || isNumeric(param.type)) return String(n++);
    if (/bool/i.test(param.type)) return python ? 'True' : 'true';
    return python ? 'None' : 'undefined';
  });
}

/** The assertion lines of a test calling `name`, in the language's syntax. */
function assertions(
  name: string,
  params: Param[] | undefined,
  python: boolean,
): { title: string; lines: string[] } {
  const args = sampleArgs(params, python);
  const call = `${name}(${args.join(', ')})`;
  const op = arithmetic(name);
  const numbers = args.map(Number);
  if (op && args.length === 2 && numbers.every(Number.isFinite)) {
    const [a, b] = numbers;
    // A second case that crosses zero: a sum of opposites, or a negative operand.
    const second = op === '+' ? [-a, a] : [-a, b];
    const apply = APPLY[op];
    const eq = (x: string, v: number): string =>
      python ? `assert ${x} == ${v}` : `assert.equal(${x}, ${v});`;
    return {
      title: `${name} combines its two arguments`,
      lines: [eq(call, apply(a, b)), eq(`${name}(${second.join(', ')})`, apply(second[0], second[1]))],
    };
  }
  const text = args.find((a) => /^['"]/.test(a));
  if (text) {
    const word = text.slice(1, -1);
    return {
      title: `${name} includes the text it was given`,
      lines: python ? [`assert "${word}" in ${call}`] : [`assert.match(${call}, /${word}/);`],
    };
  }
  return {
    title: `${name} returns the same result for the same input`,
    lines: python
      ? [`result = ${call}`, 'assert result is not None', `assert ${call} == result`]
      : [
          `const result = ${call};`,
          'assert.notEqual(result, undefined);',
          `assert.deepEqual(${call}, result);`,
        ],
  };
}

/**
 * A test of `name` (node:test and node:assert for TypeScript/JavaScript, pytest for Python); the sample
 * arguments follow the function's parameters when its definition is in `context`. Undefined for other languages.
 */
export function testCode(language: string, name: string, context: string): string | undefined {
  const shape = functionsIn(context).find((f) => f.name === name);
  const kind = language.toLowerCase();
  if (kind === 'python' || kind === 'py') {
    const { lines } = assertions(name, shape?.params, true);
    return [
      `def test_${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}():`,
      ...lines.map((l) => `    ${l}`),
    ].join('\n');
  }
  if (!/^(typescript|typescriptreact|ts|javascript|javascriptreact|js)$/.test(kind)) return undefined;
  const { title, lines } = assertions(name, shape?.params, false);
  const esm = kind.startsWith('t');
  return [
    esm ? "import { test } from 'node:test';" : "const { test } = require('node:test');",
    esm ? "import * as assert from 'node:assert/strict';" : "const assert = require('node:assert/strict');",
    '',
    `test('${title}', () => {`,
    ...lines.map((l) => `  ${l}`),
    '});',
  ].join('\n');
}

/** A sentence from an instruction: first letter capitalised, one full stop, safe inside a one-line comment. */
export function sentence(instruction: string): string {
  const text = instruction
    .replace(/\*\/|-->|\r|\n/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[\s.!?]+$/, '')
    .trim();
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : 'Rewritten.';
}

/** The guard a rewrite adds at the top of a function body, one statement per line, unindented. */
function guardLines(shape: FunctionShape, python: boolean): string[] {
  const names = shape.params.map((p) => p.name);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  if (python)
    return [
      `if ${names.map((n) => `${n} is None`).join(' or ')}:`,
      `    raise ValueError("${shape.name}: ${list} must be given")`,
    ];
  if (shape.params.every((p) => isNumeric(p.type)))
    return [
      `if (${names.map((n) => `!Number.isFinite(${n})`).join(' || ')}) throw new RangeError('${shape.name}: ${list} must be finite numbers');`,
    ];
  if (shape.params.every((p) => isText(p.type)))
    return [
      `if (${names.map((n) => `!${n}.trim()`).join(' || ')}) throw new TypeError('${shape.name}: ${list} must not be empty');`,
    ];
  return [
    `if (${names.map((n) => `${n} === undefined`).join(' || ')}) throw new TypeError('${shape.name}: ${list} must be given');`,
  ];
}

const DOC_LINE = /^\s*(\/\*\*.*\*\/|\/\/.*|#.*)\s*$/;

/**
 * The rewrite of a selection that holds a function with parameters (TypeScript, JavaScript, Python): a doc
 * comment above the header saying what was asked (replacing a one-line comment already there), and a guard on
 * the parameters as the body's first statement. Two places change with the header between them, so a review
 * shows two hunks. Undefined when the selection has no such function or the language has no template.
 */
export function rewriteFunction(
  language: string,
  instruction: string,
  lines: string[],
): string[] | undefined {
  const kind = language.toLowerCase();
  const python = kind === 'python' || kind === 'py';
  if (!python && !/^(typescript|typescriptreact|ts|javascript|javascriptreact|js)$/.test(kind))
    return undefined;
  const shape = functionsIn(lines.join('\n')).find((f) => f.params.length > 0);
  if (!shape) return undefined;
  const header = lines[shape.line];
  if (!(python ? header.trimEnd().endsWith(':') : header.trimEnd().endsWith('{'))) return undefined;
  const indent = /^[ \t]*/.exec(header)![0];
  const next = lines.slice(shape.line + 1).find((l) => l.trim());
  const step = python ? '    ' : indent.includes('\t') ? '\t' : '  ';
  const inner =
    next && /^[ \t]*/.exec(next)![0].length > indent.length ? /^[ \t]*/.exec(next)![0] : indent + step;
  const doc = python ? `${indent}# ${sentence(instruction)}` : `${indent}/** ${sentence(instruction)} */`;
  const hasDoc = shape.line > 0 && DOC_LINE.test(lines[shape.line - 1]);
  const above = lines.slice(0, hasDoc ? shape.line - 1 : shape.line);
  return [
    ...above,
    doc,
    header,
    ...guardLines(shape, python).map((l) => inner + l),
    ...lines.slice(shape.line + 1),
  ];
}
