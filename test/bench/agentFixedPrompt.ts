/**
 * Case 16, the agent's cost: the fixed part of every request (the system prompt, rules files aside, and the tool
 * definitions) in estimated tokens, for both protocols. The requests are built by the production code
 * (modelCall.ts stepRequest) from the agent's instructions and the default `modelGateway.chat.systemPrompt`, as
 * agentRun.ts joins them; the estimate is the chat's (src/chat/tokens.ts). Budget from issue 26: ≤ 3,000 tokens.
 */
import { BUILTIN_TOOLS } from '../../src/agent/builtinTools';
import { AGENT_INSTRUCTIONS } from '../../src/agent/instructions';
import { type ModelCallOptions, stepRequest } from '../../src/agent/modelCall';
import type { ToolProtocol } from '../../src/agent/types';
import { MESSAGE_OVERHEAD_TOKENS, estimateTokens } from '../../src/chat/tokens';
import { DEFAULT_CHAT_MODEL } from '../../src/gateway/models';
import { SETTINGS } from '../../src/host/settings';
import { type Row, verdict } from './report';

const CASE = '16. Agent cost';
const BUDGET = 3000;

/** The request fields of one step that do not depend on the conversation, and their estimated tokens. */
export function fixedPart(protocol: ToolProtocol): { system: number; tools: number; total: number } {
  // agentRun.ts agentMessages: the agent's instructions, then the user's system prompt (no rules files here).
  const system = `${AGENT_INSTRUCTIONS}\n\n${SETTINGS['chat.systemPrompt'].default}`;
  const options: ModelCallOptions = {
    client: () => {
      throw new Error('no model call in this case');
    },
    request: { model: DEFAULT_CHAT_MODEL },
    tools: BUILTIN_TOOLS,
    setting: protocol,
    baseUrl: 'http://127.0.0.1',
    memory: { rejected: () => false, remember: () => Promise.resolve() },
    log: { info: () => undefined, warn: () => undefined },
  };
  const request = stepRequest(options, [{ role: 'system', content: system }], protocol);
  const first = request.messages[0];
  if (first?.role !== 'system' || typeof first.content !== 'string')
    throw new Error(`the ${protocol} request does not start with the system message`);
  const systemTokens = estimateTokens(system) + MESSAGE_OVERHEAD_TOKENS;
  // Native: the `tools` array as it goes on the wire. Text: what the protocol adds to the system message.
  const tools =
    protocol === 'native'
      ? estimateTokens(JSON.stringify(request.tools ?? []))
      : estimateTokens(first.content) + MESSAGE_OVERHEAD_TOKENS - systemTokens;
  if (protocol === 'native' && !request.tools?.length) throw new Error('the native request has no tools');
  return { system: systemTokens, tools, total: systemTokens + tools };
}

/** Runs case 16: one row per protocol. */
export function agentFixedPromptRows(): Promise<Row[]> {
  const rows = (['native', 'text'] as const).map((protocol): Row => {
    const part = fixedPart(protocol);
    return {
      case: CASE,
      figure: `fixed part of every request, ${protocol} protocol (system prompt without rules + ${BUILTIN_TOOLS.length} tool definitions), estimated tokens`,
      ours: `${part.total.toLocaleString('en-US')} tokens`,
      baseline: `system prompt ${part.system.toLocaleString('en-US')}, tools ${part.tools.toLocaleString('en-US')}`,
      ratio: '–',
      budget: `≤ ${BUDGET.toLocaleString('en-US')} tokens`,
      status: verdict(part.total <= BUDGET),
      note: "the agent's instructions and the default modelGateway.chat.systemPrompt; tools as `tools` JSON (native) or the text protocol's part of the system message; estimateTokens of src/chat/tokens.ts plus the system message's overhead",
      data: part,
    };
  });
  return Promise.resolve(rows);
}
