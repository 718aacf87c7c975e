import * as assert from 'node:assert/strict';
import { inputProblems } from '../../../src/agent/validate';
import type { JsonSchemaObject } from '../../../src/agent/types';

const editFile: JsonSchemaObject = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    edits: {
      type: 'array',
      items: {
        type: 'object',
        properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
        required: ['oldText', 'newText'],
      },
    },
    mode: { type: 'string', enum: ['replace', 'append'] },
    limit: { type: ['integer', 'null'] },
  },
  required: ['path', 'edits'],
  additionalProperties: false,
};

describe('tool input validation', () => {
  it('accepts valid input', () => {
    assert.deepEqual(
      inputProblems({ path: 'a.ts', edits: [{ oldText: 'a', newText: 'b' }], limit: null }, editFile),
      [],
    );
  });

  it('names missing fields, wrong types, unknown fields, enum values and nested items', () => {
    assert.deepEqual(inputProblems({ edits: 'x', extra: 1 }, editFile), [
      'missing required field "path"',
      '"edits" must be an array, not a string ("x")',
      'unknown field "extra" (the fields are "path", "edits", "mode", "limit")',
    ]);
    assert.deepEqual(
      inputProblems({ path: 'a', edits: [{ oldText: 'a' }, { oldText: 1, newText: '' }] }, editFile),
      ['missing required field "edits[0].newText"', '"edits[1].oldText" must be a string, not the number 1'],
    );
    assert.deepEqual(inputProblems({ path: 'a', edits: [], mode: 'prepend', limit: 1.5 }, editFile), [
      '"mode" must be one of "replace", "append"',
      '"limit" must be an integer or null, not the number 1.5',
    ]);
  });

  it('lists at most five problems', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {},
      required: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
    };
    assert.equal(inputProblems({}, schema).length, 5);
  });
});
