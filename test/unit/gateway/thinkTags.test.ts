import * as assert from 'node:assert/strict';
import { type ThinkSegment, ThinkTagSplitter } from '../../../src/gateway/thinkTags';

interface Split {
  text: string;
  reasoning: string;
  segments: ThinkSegment[];
}

/** Feeds the pieces through a fresh splitter and joins what came out. */
function run(pieces: string[], expectReasoning = false, reasoningFieldFirst = false): Split {
  const splitter = new ThinkTagSplitter(expectReasoning);
  const segments: ThinkSegment[] = [];
  if (reasoningFieldFirst) segments.push(...splitter.noteReasoningField());
  for (const piece of pieces) segments.push(...splitter.push(piece));
  segments.push(...splitter.end());
  const join = (kind: ThinkSegment['kind']): string =>
    segments
      .filter((s) => s.kind === kind)
      .map((s) => s.text)
      .join('');
  return { text: join('text'), reasoning: join('reasoning'), segments };
}

/** Every way to cut `input` into two pieces, and a sample of three-piece cuts. */
function cuts(input: string): string[][] {
  const out: string[][] = [[input]];
  for (let i = 0; i <= input.length; i++) out.push([input.slice(0, i), input.slice(i)]);
  for (let i = 0; i <= input.length; i++) {
    for (let j = i; j <= input.length; j += 3)
      out.push([input.slice(0, i), input.slice(i, j), input.slice(j)]);
  }
  // One character at a time: the worst case for tag detection.
  out.push(Array.from(input));
  return out;
}

const TAGS = /<\/?think(ing)?>/;

describe('gateway/thinkTags', () => {
  for (const [open, close] of [
    ['<think>', '</think>'],
    ['<thinking>', '</thinking>'],
  ]) {
    it(`splits ${open}…${close} at every cut position`, () => {
      const input = `${open}Let me weigh a < b and <b>tags</b>.${close}\n\nThe answer is 42 <ok>.`;
      for (const pieces of cuts(input)) {
        const got = run(pieces);
        assert.equal(got.reasoning, 'Let me weigh a < b and <b>tags</b>.', JSON.stringify(pieces));
        assert.equal(got.text, 'The answer is 42 <ok>.', JSON.stringify(pieces));
      }
    });
  }

  it('handles a missing opening tag for a thinking model at every cut position', () => {
    const input = 'I should reason first.</think>Answer: yes.';
    for (const pieces of cuts(input)) {
      const got = run(pieces, true);
      assert.equal(got.reasoning, 'I should reason first.', JSON.stringify(pieces));
      assert.equal(got.text, 'Answer: yes.', JSON.stringify(pieces));
    }
  });

  it('streams presumed reasoning immediately instead of holding it back', () => {
    const splitter = new ThinkTagSplitter(true);
    assert.deepEqual(splitter.push('Thinking about it'), [{ kind: 'reasoning', text: 'Thinking about it' }]);
    assert.deepEqual(splitter.push(' more</thi'), [{ kind: 'reasoning', text: ' more' }]);
    assert.deepEqual(splitter.push('nk>Done'), [{ kind: 'text', text: 'Done' }]);
  });

  it('re-emits presumed reasoning as text when no closing tag ever comes', () => {
    const got = run(['Just an answer, ', 'no tags at all.'], true);
    assert.equal(got.reasoning, 'Just an answer, no tags at all.');
    assert.equal(got.text, 'Just an answer, no tags at all.');
  });

  it('treats content as text for a thinking model whose server sends a reasoning field', () => {
    const got = run(['The answer', ' is 42.'], true, true);
    assert.equal(got.text, 'The answer is 42.');
    assert.equal(got.reasoning, '');
  });

  it('re-emits presumed reasoning as text when a reasoning field shows up later', () => {
    const splitter = new ThinkTagSplitter(true);
    assert.deepEqual(splitter.push('Answer text'), [{ kind: 'reasoning', text: 'Answer text' }]);
    assert.deepEqual(splitter.noteReasoningField(), [{ kind: 'text', text: 'Answer text' }]);
    assert.deepEqual(splitter.push(' continues'), [{ kind: 'text', text: ' continues' }]);
  });

  it('for other models, a bare closing tag makes earlier text reasoning only if it was not released yet', () => {
    const whole = run(['Reasoning here</think>Answer.']);
    assert.equal(whole.reasoning, 'Reasoning here');
    assert.equal(whole.text, 'Answer.');
    const late = run(['Reasoning here', '</think>Answer.']);
    assert.equal(late.text, 'Reasoning hereAnswer.');
    assert.equal(late.reasoning, '');
  });

  it('never lets a tag reach the text, whatever the model and cut', () => {
    const inputs = [
      '<think>r</think>t',
      'r</think>t',
      'a<think>b</think>c',
      'x</thinking>y',
      '  <thinking>deep</thinking>  out',
      '<think></think>',
    ];
    for (const input of inputs) {
      for (const expect of [false, true]) {
        for (const pieces of cuts(input)) {
          const got = run(pieces, expect);
          assert.ok(!TAGS.test(got.text), `${JSON.stringify(pieces)} -> ${JSON.stringify(got.text)}`);
        }
      }
    }
  });

  it('holds back only a possible partial tag, never plain text', () => {
    const splitter = new ThinkTagSplitter(false);
    assert.deepEqual(splitter.push('Hello'), [{ kind: 'text', text: 'Hello' }]);
    assert.deepEqual(splitter.push(' world <'), [{ kind: 'text', text: ' world ' }]);
    assert.deepEqual(splitter.push('b>bold'), [{ kind: 'text', text: '<b>bold' }]);
    assert.deepEqual(splitter.push(' </thin'), [{ kind: 'text', text: ' ' }]);
    assert.deepEqual(splitter.end(), [{ kind: 'text', text: '</thin' }]);
  });

  it('keeps a lone partial opener at the end as text', () => {
    assert.deepEqual(run(['<thi']).text, '<thi');
    assert.deepEqual(run(['   ']).text, '');
  });

  it('keeps unterminated explicit reasoning as reasoning', () => {
    const got = run(['<think>still thinking when the stream ended']);
    assert.equal(got.reasoning, 'still thinking when the stream ended');
    assert.equal(got.text, '');
  });

  it('drops the blank line models put after the closing tag, but keeps inner whitespace', () => {
    const got = run(['<think>r</think>', '\n', '\n  Indented answer\n']);
    assert.equal(got.text, 'Indented answer\n');
  });

  it('handles a second reasoning block inside the text', () => {
    const got = run(['<think>one</think>A ', '<think>two</think> B']);
    assert.equal(got.reasoning, 'onetwo');
    assert.equal(got.text, 'A B');
  });
});
