/**
 * The text protocol for a caller that sends the whole conversation with every request and runs the tools
 * itself: VS Code's language-model provider (agent mode) over a server that rejects `tools`. The tools go in the
 * system prompt (textProtocol.ts), the conversation's calls and results are written as `<tool_call>` and
 * `<tool_result>` blocks (gatewayMessages.ts), and the answer's blocks are read back by textCallParser.ts.
 */
import type { ChatMessage } from '../gateway/types';
import { toTextMessages } from './gatewayMessages';
import { textProtocolSystemPrompt } from './textProtocol';
import type { AgentMessage, AgentToolSpec, JsonSchemaObject } from './types';

/** A tool as VS Code's language-model API describes it (`LanguageModelChatTool`). */
export interface LmToolDescription {
  name: string;
  description: string;
  inputSchema?: object;
}

/** The line added to the tools' prompt when the caller requires a call (`LanguageModelChatToolMode.Required`). */
export const CALL_REQUIRED_LINE = '- In this answer you must call at least one tool.';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The tools as the text protocol's prompt lists them. A schema is kept as given, except that it is always an
 * object schema with `properties`, and a `required` that is not a list of names is dropped (the prompt's
 * example reads it). Nothing is known about side effects, so no tool counts as read-only.
 */
export function toolSpecsOf(tools: readonly LmToolDescription[]): AgentToolSpec[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: objectSchema(tool.inputSchema),
    readOnly: false,
  }));
}

function objectSchema(schema: unknown): JsonSchemaObject {
  const given = isPlainObject(schema) ? schema : {};
  const { required, ...rest } = given;
  const names = Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
  return {
    ...rest,
    type: 'object',
    properties: isPlainObject(given.properties) ? (given.properties as Record<string, object>) : {},
    ...(names.length ? { required: names } : {}),
  };
}

/**
 * The request's messages under the text protocol: calls and results as blocks, the tools' prompt appended to
 * the first system message (or in a new one before the conversation), and adjacent user messages joined,
 * since results and the user's words in one message would otherwise be two user turns in a row, which some
 * chat templates reject.
 */
export function textProtocolMessages(
  messages: readonly AgentMessage[],
  tools: readonly AgentToolSpec[],
  callRequired = false,
): ChatMessage[] {
  const prompt = textProtocolSystemPrompt(tools) + (callRequired ? `\n${CALL_REQUIRED_LINE}` : '');
  const out: ChatMessage[] = [];
  for (const message of toTextMessages(messages)) {
    const last = out[out.length - 1];
    if (message.role === 'user' && last?.role === 'user')
      last.content = `${last.content}\n\n${message.content}`;
    else out.push(message);
  }
  const first = out[0];
  if (first?.role === 'system') first.content = first.content ? `${first.content}\n\n${prompt}` : prompt;
  else out.unshift({ role: 'system', content: prompt });
  return out;
}

/**
 * The number for the answer's first call id (`call_<n>`): past every `call_<n>` id and every call in the
 * conversation, so a new call never takes the id of one whose result is still in the history.
 */
export function nextCallNumber(messages: readonly AgentMessage[]): number {
  let next = 1;
  let count = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      count++;
      const n = /^call_(\d+)$/.exec(call.id)?.[1];
      if (n) next = Math.max(next, Number(n) + 1);
    }
  }
  return Math.max(next, count + 1);
}
