import * as assert from 'node:assert/strict';
import { PRESUME_LIMIT, type ThinkSegment, ThinkTagSplitter } from '../../../src/gateway/thinkTags';

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
  return { ...apply(segments), segments };
}

/** What a consumer ends up with: text and reasoning joined, reasoning discarded at each retraction. */
function apply(segments: ThinkSegment[]): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  for (const s of segments) {
    if (s.kind === 'text') text += s.text;
    else if (s.kind === 'reasoning') reasoning += s.text;
    else reasoning = '';
  }
  return { text, reasoning };
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
/** The most the splitter holds back: a partial tag. */
const LONGEST_HELD = '</thinking>'.length;

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
    assert.deepEqual(splitter.push('Thinking about it'), [
      { kind: 'reasoning', text: 'Thinking about it', presumed: true },
    ]);
    assert.deepEqual(splitter.push(' more</thi'), [{ kind: 'reasoning', text: ' more', presumed: true }]);
    assert.deepEqual(splitter.push('nk>Done'), [{ kind: 'text', text: 'Done' }]);
  });

  it('retracts presumed reasoning and emits it as text when no closing tag ever comes', () => {
    const got = run(['Just an answer, ', 'no tags at all.'], true);
    assert.equal(got.reasoning, '');
    assert.equal(got.text, 'Just an answer, no tags at all.');
    assert.deepEqual(
      got.segments.map((s) => s.kind),
      ['reasoning', 'reasoning', 'retract', 'text'],
    );
  });

  it('a thinking model answering without tags ends with the answer only, at every cut position', () => {
    const answers = [
      '<div class="card">\n  <p>Hello</p>\n</div>',
      '<App title={`x`} />\n<this>and</this> more',
      '<?xml version="1.0"?>\n<root><thin>1</thin></root>',
      'Close </this> and </thin> and </think-not> are not think tags.',
      '  <t',
    ];
    for (const answer of answers) {
      for (const pieces of cuts(answer)) {
        const got = run(pieces, true);
        assert.equal(got.text, answer, JSON.stringify(pieces));
        assert.equal(got.reasoning, '', JSON.stringify(pieces));
      }
    }
  });

  it('gives up presuming reasoning after a bounded look-ahead while streaming', () => {
    const answer = 'An answer with no tags, streamed in small pieces. '.repeat(100);
    const splitter = new ThinkTagSplitter(true);
    const segments: ThinkSegment[] = [];
    let shownAsReasoning = 0;
    for (let at = 0; at < answer.length; at += 7) {
      for (const s of splitter.push(answer.slice(at, at + 7))) {
        segments.push(s);
        if (s.kind === 'reasoning') shownAsReasoning += s.text.length;
      }
    }
    // Retracted and moved to the answer before the stream ended, not at its end.
    const streamed = apply(segments);
    assert.ok(shownAsReasoning <= PRESUME_LIMIT, `${shownAsReasoning} characters shown as reasoning`);
    assert.equal(streamed.reasoning, '');
    assert.ok(streamed.text.length >= answer.length - LONGEST_HELD, `${streamed.text.length}`);
    const ended = apply([...segments, ...splitter.end()]);
    assert.equal(ended.text, answer);
    assert.equal(ended.reasoning, '');
  });

  it('still finds a late closing tag when the whole body arrives at once', () => {
    const reasoning = 'Long reasoning without an opening tag. '.repeat(80);
    const got = run([`${reasoning}</think>\n\nThe answer.`], true);
    assert.equal(got.reasoning, reasoning);
    assert.equal(got.text, 'The answer.');
  });

  it('reads an opening tag in given-up presumed text as reasoning, never as text', () => {
    const got = run(['Intro ', '<think>inner'], true);
    assert.equal(got.text, 'Intro ');
    assert.equal(got.reasoning, 'inner');
  });

  it('treats content as text for a thinking model whose server sends a reasoning field', () => {
    const got = run(['The answer', ' is 42.'], true, true);
    assert.equal(got.text, 'The answer is 42.');
    assert.equal(got.reasoning, '');
  });

  it('re-emits presumed reasoning as text when a reasoning field shows up later', () => {
    const splitter = new ThinkTagSplitter(true);
    assert.deepEqual(splitter.push('Answer text'), [
      { kind: 'reasoning', text: 'Answer text', presumed: true },
    ]);
    assert.deepEqual(splitter.noteReasoningField(), [
      { kind: 'retract', text: '' },
      { kind: 'text', text: 'Answer text' },
    ]);
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

  it('marks reasoning presumed only until a tag settles it', () => {
    const cases: Array<[string, boolean, boolean]> = [
      // input, thinking model, whether any reasoning is presumed
      ['<think>r</think>t', true, false],
      ['r</think>t', true, true],
      ['r</think>t', false, false],
      ['<div>hello</div>', true, true],
    ];
    for (const [input, expect, presumed] of cases) {
      for (const pieces of cuts(input)) {
        const got = run(pieces, expect).segments.filter((s) => s.presumed);
        assert.equal(got.length > 0, presumed, `${JSON.stringify(pieces)} ${expect}`);
        assert.ok(got.every((s) => s.kind === 'reasoning'));
      }
    }
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
