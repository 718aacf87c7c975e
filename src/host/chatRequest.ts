import { findModel, isThinkingModel } from '../gateway/models';
import type { ChatCompletionRequest, ChatMessage } from '../gateway/types';
import type { ExtensionConfig } from './config';
import { DEFAULT_MAX_TOKENS, THINKING_MAX_TOKENS } from './settings';

/** Output tokens to ask for: the setting, else a default that leaves thinking models room to reason. */
export function maxTokensFor(model: string, config: ExtensionConfig): number {
  if (config.chat.maxTokens) return config.chat.maxTokens;
  if (isThinkingModel(model)) return THINKING_MAX_TOKENS;
  return Math.min(DEFAULT_MAX_TOKENS, findModel(model)?.maxOutputTokens ?? DEFAULT_MAX_TOKENS);
}

/** A chat request with the sampling settings applied. */
export function buildChatRequest(
  model: string,
  messages: ChatMessage[],
  config: ExtensionConfig,
): ChatCompletionRequest {
  const chat = config.chat;
  return {
    model,
    messages,
    temperature: chat.temperature,
    max_tokens: maxTokensFor(model, config),
    ...(chat.topP !== undefined ? { top_p: chat.topP } : {}),
    ...(chat.stop.length ? { stop: chat.stop } : {}),
  };
}
