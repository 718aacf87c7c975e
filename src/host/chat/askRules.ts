/** The workspace's rules files in Ask mode: the same files the agent follows, so the two modes agree. */
import type { ChatMessage } from '../../gateway/types';
import { readRules, withRules } from '../agent/rulesFiles';
import type { ExtensionConfig } from '../config';

/** The rules' text for an Ask answer, '' when `modelGateway.agent.useRulesFiles` is off or there are none. */
export async function readAskRules(config: ExtensionConfig): Promise<string> {
  return config.agent.useRulesFiles ? (await readRules()).text : '';
}

/** Puts `rules` after the system prompt of `messages` (a system message of their own when there is none). */
export function applyAskRules(messages: ChatMessage[], rules: string): void {
  if (rules) messages.splice(0, messages[0]?.role === 'system' ? 1 : 0, withRules(messages[0], rules));
}
