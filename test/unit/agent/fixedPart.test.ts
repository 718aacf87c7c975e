import * as assert from 'node:assert/strict';
import { BUILTIN_TOOLS, nativeToolDefinitions } from '../../../src/agent/builtinTools';
import { createTextCallParser } from '../../../src/agent/textCallParser';
import { textProtocolSystemPrompt } from '../../../src/agent/textProtocol';
import { estimateTokens } from '../../../src/chat/tokens';

/**
 * The fixed part of every request (issue 26, "Cost"): the agent's own instructions plus the tools, at most
 * 3,000 estimated tokens. The tools' share is held to 1,800 for either protocol, which leaves the agent's
 * instructions 1,200 (rules files aside).
 */
const TOOLS_BUDGET = 1800;

describe('agent: the fixed part of a request', () => {
  const nativeTokens = estimateTokens(JSON.stringify(nativeToolDefinitions(BUILTIN_TOOLS)));
  const textPrompt = textProtocolSystemPrompt(BUILTIN_TOOLS);
  const textTokens = estimateTokens(textPrompt);

  it(`keeps the built-in tools within ${TOOLS_BUDGET} estimated tokens: native ${nativeTokens}, text ${textTokens}`, () => {
    assert.ok(nativeTokens <= TOOLS_BUDGET, `native tools JSON: ${nativeTokens} tokens`);
    assert.ok(textTokens <= TOOLS_BUDGET, `text protocol prompt: ${textTokens} tokens`);
  });

  it('names every tool with its description and schema in the text prompt', () => {
    for (const tool of BUILTIN_TOOLS) {
      assert.ok(textPrompt.includes(`- ${tool.name}: ${tool.description}`), tool.name);
      assert.ok(textPrompt.includes(JSON.stringify(tool.parameters)), `${tool.name} schema`);
    }
  });

  it('shows a call example that the parser reads as a call of the first tool', () => {
    const parser = createTextCallParser({ toolNames: BUILTIN_TOOLS.map((t) => t.name) });
    const calls = [...parser.push(textPrompt), ...parser.end()].filter((e) => e.type !== 'text');
    assert.deepEqual(calls, [
      { type: 'toolCall', call: { id: 'call_1', name: 'read_file', input: { path: 'src/app.ts' } } },
    ]);
  });

  it('gives every built-in tool a schema whose required parameters it declares', () => {
    for (const tool of BUILTIN_TOOLS)
      for (const key of tool.parameters.required ?? [])
        assert.ok(key in tool.parameters.properties, `${tool.name}.${key}`);
  });
});
