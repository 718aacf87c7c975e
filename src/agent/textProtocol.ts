/**
 * The text protocol, for servers or models without native tool calling: the tools and one strict call format
 * go in the system prompt, the model writes `<tool_call>` blocks (the Hermes format many open models were
 * trained on), textCallParser.ts reads them from the stream, and results come back as `<tool_result>` blocks
 * in a user message (gatewayMessages.ts).
 */
import { formatCallBlock } from './callFormat';
import type { AgentToolSpec } from './types';

/**
 * The part of the system prompt that explains the tools and the call format. The caller appends it to the
 * agent's own instructions. Schemas are written as compact JSON: the models read it fine, and every request
 * carries it.
 */
export function textProtocolSystemPrompt(tools: readonly AgentToolSpec[]): string {
  const list = tools
    .map((t) => `- ${t.name}: ${t.description}\n  ${JSON.stringify(t.parameters)}`)
    .join('\n');
  const example = formatCallBlock(tools[0]?.name ?? 'read_file', exampleInput(tools[0]));
  return `# Tools
You can call these tools (name: what it does, then its arguments as JSON Schema):
${list}

To call a tool, write this block, with exactly one JSON object in it:
${example}
- Arguments follow the schema; escape quotes, backslashes and line breaks inside JSON strings.
- You may write several blocks. After your last block, stop: the results come in the next message, each as <tool_result name="…" id="…">…</tool_result>.
- Never put a block in a code fence or quote one: it would not run.
- When you need no more tools, answer in plain text, with no block.`;
}

/** An input for the prompt's example: the tool's required string parameters, filled with a plausible path. */
function exampleInput(tool: AgentToolSpec | undefined): Record<string, unknown> {
  if (!tool) return { path: 'src/app.ts' };
  const input: Record<string, unknown> = {};
  for (const key of tool.parameters.required ?? []) input[key] = key === 'path' ? 'src/app.ts' : '…';
  return input;
}
