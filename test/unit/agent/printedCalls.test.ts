import * as assert from 'node:assert/strict';
import { BUILTIN_TOOLS } from '../../../src/agent/builtinTools';
import { findPrintedCalls } from '../../../src/agent/printedCalls';

const READ = { name: 'read_file', input: { path: 'src/a.ts' } };
const SEARCH = { name: 'search_text', input: { query: 'parseConfig' } };

/** Answers in which a model printed calls, with the calls and the text left. */
const POSITIVES: Array<{
  name: string;
  answer: string;
  calls: Array<{ name: string; input: object }>;
  text: string;
}> = [
  {
    name: 'Hermes <tool_call> blocks after text (Qwen on vLLM without a tool parser)',
    answer:
      'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\n<tool_call>\n{"name": "search_text", "arguments": {"query": "parseConfig"}}\n</tool_call>',
    calls: [READ, SEARCH],
    text: 'Let me look.',
  },
  {
    name: 'a bare JSON call as the whole answer',
    answer: '{"name": "read_file", "arguments": {"path": "src/a.ts"}}',
    calls: [READ],
    text: '',
  },
  {
    name: 'a pretty-printed JSON call after prose (Llama 3 style, "parameters")',
    answer:
      'I will read the file.\n\n{\n  "name": "read_file",\n  "parameters": {\n    "path": "src/a.ts"\n  }\n}\n',
    calls: [READ],
    text: 'I will read the file.',
  },
  {
    name: 'a ```json fence that ends the answer',
    answer: 'Reading it:\n```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```',
    calls: [READ],
    text: 'Reading it:',
  },
  {
    name: "a list of calls in OpenAI's wrapper with string arguments",
    answer:
      '[{"type": "function", "function": {"name": "read_file", "arguments": "{\\"path\\": \\"src/a.ts\\"}"}}, {"type": "function", "function": {"name": "search_text", "arguments": {"query": "parseConfig"}}}]',
    calls: [READ, SEARCH],
    text: '',
  },
  {
    name: "Mistral's [TOOL_CALLS] marker",
    answer: '[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "src/a.ts"}}]',
    calls: [READ],
    text: '',
  },
  {
    name: "Llama's <|python_tag|> and calls separated by a semicolon",
    answer:
      '<|python_tag|>{"name": "read_file", "parameters": {"path": "src/a.ts"}}; {"name": "search_text", "parameters": {"query": "parseConfig"}}',
    calls: [READ, SEARCH],
    text: '',
  },
];

/** Answers that mention tools or hold JSON, and are not calls. */
const NEGATIVES: Array<{ name: string; answer: string }> = [
  {
    name: 'prose naming a tool',
    answer: 'I used read_file on src/a.ts and search_text for parseConfig; all good.',
  },
  { name: 'an empty answer', answer: '' },
  {
    name: 'a JSON example followed by more prose',
    answer:
      'A call looks like:\n```json\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n```\nThat reads the file.',
  },
  {
    name: 'a package.json with a tool-like name',
    answer:
      'Here it is:\n```json\n{"name": "read_file", "version": "1.0.0", "arguments": {"path": "x"}}\n```',
  },
  { name: 'an unknown tool', answer: '{"name": "run_shell", "arguments": {"command": "ls"}}' },
  { name: 'a missing required parameter', answer: '{"name": "read_file", "arguments": {"startLine": 3}}' },
  { name: 'an unknown parameter', answer: '{"name": "read_file", "arguments": {"path": "a", "mode": "rw"}}' },
  { name: 'a name with no arguments key', answer: '{"name": "list_dir"}' },
  {
    name: 'code that builds a call',
    answer: '```ts\nconst call = { name: "read_file", arguments: { path: "a" } };\n```',
  },
  {
    name: 'a <tool_call> block quoted in a fence',
    answer:
      'The format:\n```\n<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>\n```',
  },
  {
    name: 'a <tool_call> block naming an unknown tool',
    answer: '<tool_call>{"name": "x", "arguments": {}}</tool_call>',
  },
  { name: 'broken JSON at the end', answer: 'Next:\n{"name": "read_file", "arguments": {"path": "a"}' },
];

describe('agent: calls printed as text on the native protocol', () => {
  for (const p of POSITIVES)
    it(`finds ${p.name}`, () => {
      const found = findPrintedCalls(p.answer, BUILTIN_TOOLS, 4);
      assert.ok(found, 'no calls found');
      assert.deepEqual(
        found.calls,
        p.calls.map((c, i) => ({ id: `call_${4 + i}`, ...c })),
      );
      assert.equal(found.text, p.text);
    });

  for (const n of NEGATIVES)
    it(`finds nothing in ${n.name}`, () => {
      assert.equal(findPrintedCalls(n.answer, BUILTIN_TOOLS), undefined);
    });

  it('reports <tool_call> blocks it cannot read next to the ones it can', () => {
    const found = findPrintedCalls(
      '<tool_call>{"name": "read_file", "arguments": {"path": "src/a.ts"}}</tool_call><tool_call>{"name": "edit_file", "arguments": {path}}</tool_call>',
      BUILTIN_TOOLS,
    );
    assert.deepEqual(found?.calls, [{ id: 'call_1', ...READ }]);
    assert.equal(found?.malformed.length, 1);
    assert.equal(found?.malformed[0].name, 'edit_file');
  });

  it('stays fast on a long answer of code with many lines that open JSON', () => {
    const answer = `${'{\n  "a": [1, 2, {"b": "c"}],\n'.repeat(20_000)}}`;
    const started = performance.now();
    assert.equal(findPrintedCalls(answer, BUILTIN_TOOLS), undefined);
    assert.ok(performance.now() - started < 2000);
  });
});
