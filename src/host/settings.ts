// The `modelGateway.*` settings: default, range and allowed values of each, in one table that
// src/host/config.ts reads with and test/unit/host/settings.test.ts holds package.json to. No vscode import,
// so plain Node tests can load it.
import { IMAGE_QUALITIES, IMAGE_RESPONSE_FORMATS, IMAGE_SIZES } from '../gateway/types';
import { DEFAULT_TIMEOUTS, MIN_IMAGE_FIRST_BYTE_MS } from '../gateway/config';
import { DEFAULT_CHAT_MODEL, DEFAULT_IMAGE_MODEL } from '../gateway/models';
import { DEFAULT_UNKNOWN_CONTEXT_TOKENS } from '../gateway/discovery';
import { DEFAULT_CONTEXT_EXCLUDE } from '../chat/context/safety';
import { DEFAULT_COMPLETE_MODEL, DEFAULT_CONTEXT_TOKENS } from '../complete/prompt';
import { DEFAULT_DEBOUNCE_MS } from '../complete/settings';
import { MAX_IMAGES_PER_REQUEST } from '../images/validate';
import { DEFAULT_PROTECTED_FILES } from '../agent/protectedFiles';

/** The fast model that merges a chat code block into its file (Apply). */
export const DEFAULT_APPLY_MODEL = 'alpha-haiku-4-5-20251001';

/** Where generated images go when the setting is empty. */
export const DEFAULT_IMAGES_FOLDER = 'assets/generated';

/** max_tokens when `chat.maxTokens` is null; thinking models get more because reasoning counts toward it. */
export const DEFAULT_MAX_TOKENS = 8192;
export const THINKING_MAX_TOKENS = 32_000;

/** How the language model provider offers tool calling (`modelGateway.lm.toolCalling`). */
export const TOOL_CALLING_MODES = ['auto', 'on', 'off'] as const;

/** How the agent's tool calls travel (`modelGateway.agent.toolProtocol`). */
export const AGENT_TOOL_PROTOCOLS = ['auto', 'native', 'text'] as const;

/** Every setting (without the `modelGateway.` prefix) with what package.json declares for it. */
export const SETTINGS = {
  baseUrl: { default: 'http://127.0.0.1:8787' },
  'network.proxy': { default: '' },
  'network.retries': { default: 2, minimum: 0, maximum: 10, integer: true },
  'network.firstByteTimeoutSeconds': {
    default: DEFAULT_TIMEOUTS.firstByteMs / 1000,
    minimum: 5,
    maximum: 3600,
  },
  'network.idleTimeoutSeconds': { default: DEFAULT_TIMEOUTS.idleMs / 1000, minimum: 5, maximum: 3600 },
  'network.headers': { default: {} },
  'chat.model': { default: DEFAULT_CHAT_MODEL },
  'chat.extraModels': { default: [] },
  'chat.defaultContextTokens': {
    default: DEFAULT_UNKNOWN_CONTEXT_TOKENS,
    minimum: 1000,
    maximum: 10_000_000,
    integer: true,
  },
  'chat.temperature': { default: 1, minimum: 0, maximum: 2 },
  'chat.topP': { default: null, minimum: 0, maximum: 1 },
  'chat.maxTokens': { default: null, minimum: 1, maximum: 10_000_000, integer: true },
  'chat.stop': { default: [], maxItems: 4 },
  'chat.systemPrompt': {
    default:
      // l10n-exempt: read by the model (and package.json holds the same default)
      'You are a helpful coding assistant inside VS Code. Answer concisely and use Markdown; put code in fenced blocks with a language tag.',
  },
  'chat.suggestCurrentFile': { default: true },
  'chat.prices': { default: {} },
  'context.exclude': { default: DEFAULT_CONTEXT_EXCLUDE },
  'context.maxFileTokens': { default: 20_000, minimum: 100, maximum: 1_000_000, integer: true },
  'complete.enabled': { default: false },
  'complete.languages': { default: { '*': true } },
  'complete.debounceMs': { default: DEFAULT_DEBOUNCE_MS, minimum: 0, maximum: 10_000 },
  'complete.model': { default: DEFAULT_COMPLETE_MODEL },
  'complete.contextTokens': { default: DEFAULT_CONTEXT_TOKENS, minimum: 100, maximum: 100_000 },
  'edit.applyModel': { default: DEFAULT_APPLY_MODEL },
  'images.model': { default: DEFAULT_IMAGE_MODEL },
  'images.size': { default: '1024x1024', enum: IMAGE_SIZES },
  'images.quality': { default: 'auto', enum: IMAGE_QUALITIES },
  'images.count': { default: 1, minimum: 1, maximum: MAX_IMAGES_PER_REQUEST, integer: true },
  'images.responseFormat': { default: IMAGE_RESPONSE_FORMATS[0], enum: IMAGE_RESPONSE_FORMATS },
  'images.folder': { default: DEFAULT_IMAGES_FOLDER },
  'images.timeoutSeconds': {
    default: DEFAULT_TIMEOUTS.imageFirstByteMs / 1000,
    minimum: MIN_IMAGE_FIRST_BYTE_MS / 1000,
    maximum: 3600,
  },
  'images.writeMetadata': { default: false },
  'lm.toolCalling': { default: 'auto', enum: TOOL_CALLING_MODES },
  'agent.enabled': { default: true },
  'agent.maxSteps': { default: 25, minimum: 1, maximum: 200, integer: true },
  'agent.maxToolResultTokens': { default: 8000, minimum: 500, maximum: 200_000, integer: true },
  'agent.toolProtocol': { default: 'auto', enum: AGENT_TOOL_PROTOCOLS },
  'agent.protectedFiles': { default: DEFAULT_PROTECTED_FILES },
  'agent.useRulesFiles': { default: true },
  'agent.planModel': { default: '' },
  'agent.mcpServers': { default: {} },
  'agent.mcpTimeoutSeconds': { default: 60, minimum: 1, maximum: 3600, integer: true },
  'agent.autoApprove': { default: [] as string[] },
  'agent.commandTimeoutSeconds': { default: 120, minimum: 1, maximum: 86_400, integer: true },
} as const;

type SettingKey = keyof typeof SETTINGS;
/** The settings that are numbers within a range. */
export type RangeSettingKey = {
  [K in SettingKey]: (typeof SETTINGS)[K] extends { minimum: number; maximum: number } ? K : never;
}[SettingKey];
/** The settings with a fixed list of values. */
export type EnumSettingKey = {
  [K in SettingKey]: (typeof SETTINGS)[K] extends { enum: readonly string[] } ? K : never;
}[SettingKey];
