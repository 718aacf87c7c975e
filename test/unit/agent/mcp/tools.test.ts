import * as assert from 'node:assert/strict';
import { formatCallBlock } from '../../../../src/agent/callFormat';
import { toNativeMessages } from '../../../../src/agent/gatewayMessages';
import { findPrintedCalls } from '../../../../src/agent/printedCalls';
import { createTextCallParser } from '../../../../src/agent/textCallParser';
import { inputProblems } from '../../../../src/agent/validate';
import { nativeToolDefinitions } from '../../../../src/agent/builtinTools';
import {
  MCP_DESCRIPTION_CHARS,
  MCP_NAME_CHARS,
  mcpResultToToolResult,
  mcpToolName,
  mcpToolSpec,
  mcpToolSpecs,
} from '../../../../src/agent/mcp/tools';

describe('agent/mcp/tools: names, specs and results', () => {
  it('names a tool <server>.<tool>, with characters function names allow, within 64 characters', () => {
    assert.equal(mcpToolName('github', 'create_issue'), 'github.create_issue');
    assert.equal(mcpToolName('my server', 'get/item.v2'), 'my_server.get_item_v2');
    assert.equal(mcpToolName('s', 'x'.repeat(100)).length, MCP_NAME_CHARS);
  });

  it('passes the server schema through, as an object schema, and cuts long descriptions', () => {
    const schema = {
      type: 'object',
      properties: { word: { type: 'string' } },
      required: ['word'],
      $defs: { x: {} },
    };
    const spec = mcpToolSpec('fx', {
      name: 'lookup',
      description: 'd'.repeat(5000),
      inputSchema: schema,
      annotations: { readOnlyHint: true },
    });
    assert.deepEqual(spec.parameters, schema);
    assert.equal(spec.description.length, MCP_DESCRIPTION_CHARS);
    assert.ok(spec.description.endsWith('…'));
    assert.equal(spec.readOnly, true);
    const bare = mcpToolSpec('fx', { name: 'odd', inputSchema: 'nonsense' });
    assert.deepEqual(bare.parameters, { type: 'object', properties: {} });
    assert.equal(bare.readOnly, false);
    assert.match(bare.description, /Tool "odd" of the MCP server "fx"/);
    assert.deepEqual(inputProblems({ word: 3 }, spec.parameters), [
      '"word" must be a string, not the number 3',
    ]);
  });

  it('leaves out a tool whose name collides, and says so', () => {
    const { specs, problems } = mcpToolSpecs(
      's',
      [{ name: 'a.b' }, { name: 'a_b' }, { name: 'c' }],
      new Set(['s.c']),
    );
    assert.deepEqual(
      specs.map((s) => [s.spec.name, s.tool]),
      [['s.a_b', 'a.b']],
    );
    assert.equal(problems.length, 2);
  });

  it('a dotted name travels both protocols: native definitions and messages, text blocks and printed calls', () => {
    const spec = mcpToolSpec('fx', { name: 'lookup', inputSchema: { type: 'object', properties: {} } });
    assert.equal(nativeToolDefinitions([spec])[0].function.name, 'fx.lookup');
    const native = toNativeMessages([
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'fx.lookup', input: { word: 'a' } }] },
    ]);
    assert.equal(
      (native[0] as { tool_calls: Array<{ function: { name: string } }> }).tool_calls[0].function.name,
      'fx.lookup',
    );
    const parser = createTextCallParser({ toolNames: ['read_file', 'fx.lookup'] });
    const events = [
      ...parser.push(`Looking.\n${formatCallBlock('fx.lookup', { word: 'a' })}\n`),
      ...parser.end(),
    ];
    const calls = events.filter((e) => e.type === 'toolCall');
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0].type === 'toolCall' && [calls[0].call.name, calls[0].call.input], [
      'fx.lookup',
      { word: 'a' },
    ]);
    const printed = findPrintedCalls('{"name": "fx.lookup", "arguments": {"word": "a"}}', [spec]);
    assert.equal(printed?.calls[0].name, 'fx.lookup');
  });

  it('turns results into text: text parts in order, images dropped with a note, isError as an error', () => {
    const ok = mcpResultToToolResult('fx.picture', {
      content: [
        { type: 'text', text: 'A red dot:' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a', text: 'resource text' } },
        { type: 'resource_link', uri: 'file:///b', name: 'b' },
      ],
    });
    assert.equal(
      ok.content,
      'A red dot:\n[image (image/png) dropped: the agent passes only text]\nresource text\n[resource link: b file:///b]',
    );
    assert.equal(ok.isError, undefined);
    assert.equal(ok.summary, 'fx.picture (1 image(s) dropped)');
    assert.ok(!ok.content.includes('AAAA'), 'no image data reaches the model');
    const failed = mcpResultToToolResult('fx.fail', {
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
    assert.deepEqual(failed, { content: 'boom', isError: true, summary: 'fx.fail: failed' });
    assert.equal(
      mcpResultToToolResult('x', { content: [], structuredContent: { a: 1 } }).content,
      '{\n  "a": 1\n}',
    );
    assert.equal(mcpResultToToolResult('x', {}).content, '(no output)');
    assert.equal(
      mcpResultToToolResult('x', { isError: true }).content,
      'The tool failed without saying why.',
    );
  });
});
