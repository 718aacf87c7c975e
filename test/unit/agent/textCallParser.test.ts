import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { BUILTIN_TOOLS } from '../../../src/agent/builtinTools';
import { formatCallBlock } from '../../../src/agent/callFormat';
import { createTextCallParser } from '../../../src/agent/textCallParser';
import type { ModelStepEvent } from '../../../src/agent/types';

const TOOL_NAMES = BUILTIN_TOOLS.map((t) => t.name);

/** What a stream parses to: its text joined, and the calls and malformed calls in order with their places. */
interface Parsed {
  text: string;
  /** Calls and malformed calls, each with how much text came before it. */
  calls: Array<{
    at: number;
    kind: 'call' | 'malformed';
    id: string;
    name?: string;
    input?: unknown;
    reason?: string;
  }>;
}

function collect(events: ModelStepEvent[], into: Parsed): void {
  for (const e of events) {
    if (e.type === 'text') into.text += e.text;
    else if (e.type === 'toolCall')
      into.calls.push({
        at: into.text.length,
        kind: 'call',
        id: e.call.id,
        name: e.call.name,
        input: e.call.input,
      });
    else if (e.type === 'malformedCall')
      into.calls.push({
        at: into.text.length,
        kind: 'malformed',
        id: e.call.id,
        name: e.call.name,
        reason: e.call.reason,
      });
  }
}

/** Parses `chunks` as one stream; also checks no text event is ever empty. */
function parse(chunks: readonly string[], toolNames: readonly string[] | null = TOOL_NAMES): Parsed {
  const parser = createTextCallParser(toolNames ? { toolNames } : {});
  const parsed: Parsed = { text: '', calls: [] };
  for (const chunk of chunks) collect(parser.push(chunk), parsed);
  collect(parser.end(), parsed);
  return parsed;
}

/** Splits `text` at the given cut points. */
function chunksAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  return chunks;
}

const READ = formatCallBlock('read_file', { path: 'src/app.ts', startLine: 1, endLine: 120 });
const ASTRAL = '𝒳 😀 𠜎 — naïve';

/** Streams with their expected parse; each is checked whole, at every 2-way split and at random n-way splits. */
const STREAMS: Array<{ name: string; text: string; expected: Parsed }> = [
  {
    name: 'text, a call, text',
    text: `I will read it.\n${READ}\nDone.`,
    expected: {
      text: 'I will read it.\n\nDone.',
      calls: [
        {
          at: 16,
          kind: 'call',
          id: 'call_1',
          name: 'read_file',
          input: { path: 'src/app.ts', startLine: 1, endLine: 120 },
        },
      ],
    },
  },
  {
    name: 'two calls with text between, the second with astral Unicode and a closing tag in a string',
    text: `A<tool_call>{"name":"list_dir","arguments":{"path":"."}}</tool_call> then <tool_call>\n{"name": "create_file", "arguments": {"path": "a.md", "content": "${ASTRAL}\\n</tool_call> <tool_call>"}}\n</tool_call>Z`,
    expected: {
      text: 'A then Z',
      calls: [
        { at: 1, kind: 'call', id: 'call_1', name: 'list_dir', input: { path: '.' } },
        {
          at: 7,
          kind: 'call',
          id: 'call_2',
          name: 'create_file',
          input: { path: 'a.md', content: `${ASTRAL}\n</tool_call> <tool_call>` },
        },
      ],
    },
  },
  {
    name: 'blocks inside ``` and ~~~ fences and inline code are text; a call after the fence closes is a call',
    text: 'See:\n```xml\n<tool_call>{"name":"read_file"}</tool_call>\n```\n~~~\n<tool_call>\n~~~~\nor `<tool_call>` inline.\n  ````md\n```\n<tool_call>x</tool_call>\n  ````\n<tool_call>{"name":"get_problems"}</tool_call>',
    expected: {
      text: 'See:\n```xml\n<tool_call>{"name":"read_file"}</tool_call>\n```\n~~~\n<tool_call>\n~~~~\nor `<tool_call>` inline.\n  ````md\n```\n<tool_call>x</tool_call>\n  ````\n',
      calls: [{ at: 151, kind: 'call', id: 'call_1', name: 'get_problems', input: {} }],
    },
  },
  {
    name: 'a fence line with text after the run does not close the fence',
    text: '```\n``` not a close\n<tool_call>\n```\n<tool_call>{"name":"list_dir","arguments":{"path":"."}}</tool_call>',
    expected: {
      text: '```\n``` not a close\n<tool_call>\n```\n',
      calls: [{ at: 36, kind: 'call', id: 'call_1', name: 'list_dir', input: { path: '.' } }],
    },
  },
  {
    name: 'CRLF line endings around fences and blocks',
    text: 'a\r\n```\r\n<tool_call>\r\n```\r\n<tool_call>\r\n{"name":"list_dir","arguments":{"path":"."}}\r\n</tool_call>\r\n',
    expected: {
      text: 'a\r\n```\r\n<tool_call>\r\n```\r\n\r\n',
      calls: [{ at: 26, kind: 'call', id: 'call_1', name: 'list_dir', input: { path: '.' } }],
    },
  },
  {
    name: 'malformed: bad JSON, no name, arguments not an object, unknown tool, then an unclosed block',
    text: 'x<tool_call>{"name": "read_file", "arguments": {path: 1}}</tool_call><tool_call>{"arguments":{}}</tool_call><tool_call>{"name":"read_file","arguments":[1]}</tool_call><tool_call>{"name":"rm_rf","arguments":{}}</tool_call>y<tool_call>{"name":"edit_file","arguments":{"path":"a',
    expected: {
      text: 'xy',
      calls: [
        { at: 1, kind: 'malformed', id: 'call_1', name: 'read_file', reason: 'not valid JSON' },
        { at: 1, kind: 'malformed', id: 'call_2', name: undefined, reason: 'has no "name"' },
        { at: 1, kind: 'malformed', id: 'call_3', name: 'read_file', reason: 'must be a JSON object' },
        { at: 1, kind: 'malformed', id: 'call_4', name: 'rm_rf', reason: 'There is no tool named "rm_rf"' },
        { at: 2, kind: 'malformed', id: 'call_5', name: 'edit_file', reason: 'never closed' },
      ],
    },
  },
  {
    name: 'a block reopened before it closed, a fenced JSON body, a string with a raw line break, stray tags',
    text: '<tool_call>{"name":"list_dir"\n<tool_call>\n```json\n{"name":"find_files","arguments":{"glob":"*.ts"}}\n```\n</tool_call></tool_call> <tool_ <tool_call>{"name":"search_text","arguments":{"query":"a\n</tool_call>',
    expected: {
      text: '</tool_call> <tool_ ',
      calls: [
        {
          at: 0,
          kind: 'malformed',
          id: 'call_1',
          name: 'list_dir',
          reason: 'not closed before the next one',
        },
        { at: 0, kind: 'call', id: 'call_2', name: 'find_files', input: { glob: '*.ts' } },
        { at: 20, kind: 'malformed', id: 'call_3', name: 'search_text', reason: 'not valid JSON' },
      ],
    },
  },
  {
    name: 'text ending in a partial opener is released at the end',
    text: 'a < b <tool_cal',
    expected: { text: 'a < b <tool_cal', calls: [] },
  },
];

/** Compares a parse with the expected one; a reason is checked by a fragment it must contain. */
function assertParsed(actual: Parsed, expected: Parsed, label: string): void {
  assert.equal(actual.text, expected.text, `${label}: text`);
  assert.equal(actual.calls.length, expected.calls.length, `${label}: number of calls`);
  expected.calls.forEach((want, i) => {
    const got = actual.calls[i];
    const { reason, ...rest } = want;
    const { reason: gotReason, ...gotRest } = got;
    assert.deepEqual(gotRest, rest, `${label}: call ${i + 1}`);
    if (reason)
      assert.ok(
        gotReason?.includes(reason),
        `${label}: call ${i + 1} reason "${gotReason}" lacks "${reason}"`,
      );
  });
}

describe('agent text protocol: incremental call parser', () => {
  for (const stream of STREAMS) {
    it(`${stream.name}: whole, at every 2-way split, and at random n-way splits`, () => {
      assertParsed(parse([stream.text]), stream.expected, 'whole');
      for (let cut = 0; cut <= stream.text.length; cut++)
        assertParsed(
          parse([stream.text.slice(0, cut), stream.text.slice(cut)]),
          stream.expected,
          `split at ${cut}`,
        );
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 40 }), (cuts) =>
          assertParsed(parse(chunksAt(stream.text, cuts)), stream.expected, `cuts ${cuts.join(',')}`),
        ),
        { numRuns: 300 },
      );
      // One UTF-16 unit at a time: astral characters split in two still join up in the text and in arguments.
      assertParsed(parse([...stream.text.split('')]), stream.expected, 'one unit per chunk');
    });
  }

  it('streams text at once, holding back only a possible partial opener', () => {
    const parser = createTextCallParser({ toolNames: TOOL_NAMES });
    assert.deepEqual(parser.push('Hello <b> world <'), [{ type: 'text', text: 'Hello <b> world ' }]);
    assert.deepEqual(parser.push('tool'), []);
    assert.deepEqual(parser.push('s are nice '), [{ type: 'text', text: '<tools are nice ' }]);
    assert.deepEqual(parser.push('<tool_call>{"name":"list_dir","arguments":{"path":"."}}</tool'), []);
    assert.deepEqual(parser.push('_call>\n'), [
      { type: 'toolCall', call: { id: 'call_1', name: 'list_dir', input: { path: '.' } } },
      { type: 'text', text: '\n' },
    ]);
    assert.deepEqual(parser.end(), []);
    assert.equal(parser.nextCallNumber, 2);
  });

  it('numbers calls from firstCallNumber and accepts any name without a tool list', () => {
    const parsed = parse(['<tool_call>{"name":"server.tool","parameters":{"q":1}}</tool_call>'], null);
    assert.deepEqual(parsed.calls, [
      { at: 0, kind: 'call', id: 'call_1', name: 'server.tool', input: { q: 1 } },
    ]);
    const parser = createTextCallParser({ firstCallNumber: 7 });
    const events = parser.push('<tool_call>{"name":"a","arguments":"{\\"x\\":2}"}</tool_call>');
    assert.deepEqual(events, [{ type: 'toolCall', call: { id: 'call_7', name: 'a', input: { x: 2 } } }]);
  });

  it('keeps the raw text of a malformed call, closing tag included when it closed', () => {
    const parser = createTextCallParser({ toolNames: TOOL_NAMES });
    const [closed] = parser.push('<tool_call>{oops}</tool_call><tool_call>{"name":"read_file"');
    const [open] = parser.end();
    assert.ok(closed.type === 'malformedCall' && closed.call.raw === '<tool_call>{oops}</tool_call>');
    assert.ok(open.type === 'malformedCall' && open.call.raw === '<tool_call>{"name":"read_file"');
  });

  it('any call round-trips through its block, at any split (property)', () => {
    const value = fc.oneof(fc.string({ unit: 'grapheme' }), fc.integer(), fc.boolean(), fc.constant(null));
    const input = fc.dictionary(fc.string({ unit: 'grapheme', minLength: 1 }), value, {
      maxKeys: 4,
      noNullPrototype: true,
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...TOOL_NAMES),
        input,
        fc.array(fc.nat(), { maxLength: 20 }),
        (name, args, cuts) => {
          const text = `before ${formatCallBlock(name, args)} after`;
          const parsed = parse(chunksAt(text, cuts));
          assert.equal(parsed.text, 'before  after');
          assert.deepEqual(parsed.calls, [{ at: 7, kind: 'call', id: 'call_1', name, input: args }]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
