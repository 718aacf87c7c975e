import * as assert from 'node:assert/strict';
import { chosenInstruction } from '../../../src/review/instructionChoice';

describe('review/instructionChoice: what Enter in the Generate Code box submits', () => {
  it('the typed text, when the active item is a recent instruction it does not match (Enter before the list caught up)', () => {
    assert.equal(
      chosenInstruction('add a third operand [[answer:add-checked-ts]]', 'Check the inputs.'),
      'add a third operand [[answer:add-checked-ts]]',
    );
  });

  it('the typed text, when it is itself the active item', () => {
    assert.equal(chosenInstruction('sort the list ', 'sort the list '), 'sort the list');
  });

  it('a recent instruction the user found by typing part of it and picked', () => {
    assert.equal(
      chosenInstruction('docstring', 'Add a docstring to each function'),
      'Add a docstring to each function',
    );
  });

  it('with nothing typed, the recent instruction that is active', () => {
    assert.equal(chosenInstruction('  ', 'Add tests'), 'Add tests');
    assert.equal(chosenInstruction('', undefined), '');
  });
});
