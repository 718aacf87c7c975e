import * as vscode from 'vscode';
import type { AgentMessage, AgentToolCall } from '../../agent/types';
import type { ChatMessage, ToolDefinition, WireToolCall } from '../../gateway/types';

/**
 * Maps the chat API's messages to gateway messages. Tool call parts become an assistant message's
 * `tool_calls`; tool result parts become `role: "tool"` messages, placed before the rest of their message's
 * text because the server expects the results right after the calls. Roles other than user and assistant
 * are system turns.
 */
export function toGatewayMessages(
  messages: readonly vscode.LanguageModelChatRequestMessage[],
): ChatMessage[] {
  const mapped: ChatMessage[] = [];
  for (const message of messages) {
    const calls: WireToolCall[] = [];
    let text = '';
    for (const part of message.content) {
      if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push({
          id: part.callId,
          type: 'function',
          function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) },
        });
      } else if (part instanceof vscode.LanguageModelToolResultPart) {
        mapped.push({
          role: 'tool',
          tool_call_id: part.callId,
          content: part.content.map(partText).join(''),
        });
      } else {
        text += partText(part);
      }
    }
    const role = roleOf(message.role);
    if (role === 'assistant' && calls.length) mapped.push({ role, content: text, tool_calls: calls });
    else if (text) mapped.push({ role, content: text });
  }
  return mapped;
}

/**
 * Maps the chat API's messages to the agent's protocol-neutral messages, for the text protocol
 * (src/agent/lmTextProtocol.ts). As in `toGatewayMessages`, a message's tool results come before its text; a
 * result is named after its call, found by id earlier in the conversation.
 */
export function toAgentMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): AgentMessage[] {
  const mapped: AgentMessage[] = [];
  const names = new Map<string, string>();
  for (const message of messages) {
    const calls: AgentToolCall[] = [];
    let text = '';
    for (const part of message.content) {
      if (part instanceof vscode.LanguageModelToolCallPart) {
        names.set(part.callId, part.name);
        calls.push({
          id: part.callId,
          name: part.name,
          input: (part.input ?? {}) as Record<string, unknown>,
        });
      } else if (part instanceof vscode.LanguageModelToolResultPart) {
        const content = part.content.map(partText).join('');
        mapped.push({ role: 'tool', callId: part.callId, name: names.get(part.callId) ?? '', content });
      } else {
        text += partText(part);
      }
    }
    const role = roleOf(message.role);
    if (role === 'assistant' && calls.length) mapped.push({ role, content: text, toolCalls: calls });
    else if (text) mapped.push({ role, content: text });
  }
  return mapped;
}

function roleOf(role: vscode.LanguageModelChatMessageRole): 'user' | 'assistant' | 'system' {
  if (role === vscode.LanguageModelChatMessageRole.User) return 'user';
  return role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'system';
}

/** The request's tools as the server's `tools` list (function name, description, JSON schema). */
export function toGatewayTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): ToolDefinition[] {
  return (tools ?? []).map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      // Servers reject a function without parameters more often than one with an empty object schema.
      parameters: tool.inputSchema ?? { type: 'object', properties: {} },
    },
  }));
}

/** The text of one content part (a tool result's text parts; tool calls have none). */
export function partText(part: unknown): string {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (part instanceof vscode.LanguageModelToolResultPart) {
    return part.content.map(partText).join('');
  }
  if (part instanceof vscode.LanguageModelToolCallPart) return '';
  if (typeof part === 'object' && part !== null && typeof (part as { value?: unknown }).value === 'string') {
    return (part as { value: string }).value;
  }
  return '';
}

type ThinkingPartConstructor = new (value: string) => vscode.LanguageModelResponsePart;

/** The thinking-part class when the running VS Code has it (a newer API than 1.104's final set). */
export function thinkingPartClass(): ThinkingPartConstructor | undefined {
  const candidate = (vscode as unknown as { LanguageModelThinkingPart?: ThinkingPartConstructor })
    .LanguageModelThinkingPart;
  return typeof candidate === 'function' ? candidate : undefined;
}
