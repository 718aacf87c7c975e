import * as assert from 'node:assert/strict';
import {
  codeGenerationMessages,
  declaredName,
  explainModelText,
  explainRequestText,
  lineRangeLabel,
} from '../../../src/chat/prompts';

describe('editor prompts', () => {
  const context = {
    fileName: 'src/a.ts',
    languageId: 'typescript',
    selection: '',
    before: 'const a = 1;',
    after: '',
  };

  it('asks for code only, in the document language', () => {
    const [system, user] = codeGenerationMessages('add a helper', context);
    assert.equal(system.role, 'system');
    assert.match(system.content, /CODE ONLY/);
    assert.match(system.content, /LANGUAGE: typescript/);
    assert.match(user.content, /insert at the cursor/);
    assert.match(user.content, /Instruction: add a helper/);
    assert.ok(user.content.includes('const a = 1;'));
  });

  it('asks for a rewrite when there is a selection', () => {
    const [, user] = codeGenerationMessages('rename x', { ...context, selection: 'let x = 2;' });
    assert.match(user.content, /Rewrite the selected code/);
    assert.ok(user.content.includes('let x = 2;'));
  });

  it('fences code containing backticks with a longer fence', () => {
    const [, user] = codeGenerationMessages('x', { ...context, selection: 'const s = ```;' });
    assert.ok(user.content.includes('````\nconst s = ```;\n````'));
  });

  it('names the file and language in an explanation request', () => {
    const text = explainRequestText('src/a.ts', 'typescript', 'before', 'after');
    assert.match(text, /typescript code from src\/a\.ts/);
    assert.ok(text.includes('before') && text.includes('after'));
  });

  it('gives the model the instruction, the file, the lines and the surrounding code', () => {
    const modelText = explainModelText({
      fileName: 'src/sample.ts',
      languageId: 'typescript',
      code: 'export function add(a: number, b: number): number {\n  return a + b;\n}',
      startLine: 3,
      endLine: 5,
      before: '/** Adds two numbers. */',
      after: '/** Greets. */',
    });
    assert.equal(lineRangeLabel(3, 5), '3-5');
    assert.equal(lineRangeLabel(4, 4), '4');
    assert.match(modelText, /typescript code from src\/sample\.ts \(lines 3-5\)/);
    assert.ok(
      modelText.includes('Surrounding lines, for context only') && modelText.includes('/** Greets. */'),
    );
  });

  it('finds the name the selected code declares, or none', () => {
    assert.equal(declaredName('export const total = 1;'), 'total');
    assert.equal(declaredName('def parse(text):\n  pass'), 'parse');
    assert.equal(declaredName('  async render(items) {'), 'render');
    assert.equal(declaredName('if (x) {\n  y();\n}'), undefined);
    assert.equal(declaredName('return a + b;'), undefined);
  });
});
