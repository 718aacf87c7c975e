import * as vscode from 'vscode';
import type { ChatMessage } from '../../gateway/types';

/** Maps the chat API's messages to gateway messages; roles other than user and assistant are system turns. */
export function toGatewayMessages(
  messages: readonly vscode.LanguageModelChatRequestMessage[],
): ChatMessage[] {
  const mapped: ChatMessage[] = [];
  for (const message of messages) {
    const content = message.content.map(partText).join('');
    if (!content) continue;
    const role =
      message.role === vscode.LanguageModelChatMessageRole.User
        ? 'user'
        : message.role === vscode.LanguageModelChatMessageRole.Assistant
          ? 'assistant'
          : 'system';
    mapped.push({ role, content });
  }
  return mapped;
}

/** The text of one content part; tool parts are described in text since the gateway has no tool calling. */
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
