import * as vscode from 'vscode';
import type { ImageQuality, ImageResponseFormat, ImageSize } from '../gateway/types';
import { validateCustomHeaders } from '../gateway/customHeaders';
import { type ContextSettings, readContextSettings } from './context/contextSettings';
import {
  SETTINGS,
  type AGENT_TOOL_PROTOCOLS,
  type EnumSettingKey,
  type RangeSettingKey,
  type TOOL_CALLING_MODES,
} from './settings';

/** `modelGateway.lm.toolCalling`. */
export type ToolCallingMode = (typeof TOOL_CALLING_MODES)[number];
export type AgentToolProtocol = (typeof AGENT_TOOL_PROTOCOLS)[number];

/** The extension's settings, validated; invalid values fall back to defaults and are reported. */
export interface ExtensionConfig {
  baseUrl: string;
  proxy: string | undefined;
  retries: number;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  /** `modelGateway.network.headers`, reserved and malformed entries left out. */
  headers: Record<string, string>;
  chat: {
    model: string;
    extraModels: string[];
    /** Context size for models neither the catalogue nor the server describes. */
    defaultContextTokens: number;
    temperature: number;
    topP: number | undefined;
    maxTokens: number | undefined;
    stop: string[];
    systemPrompt: string;
  };
  edit: {
    /** The model that merges a chat code block into a file (Apply). */
    applyModel: string;
  };
  lm: {
    toolCalling: ToolCallingMode;
  };
  agent: {
    enabled: boolean;
    maxSteps: number;
    maxToolResultTokens: number;
    toolProtocol: AgentToolProtocol;
    protectedFiles: string[];
    useRulesFiles: boolean;
    /** The model of Plan runs; empty: the conversation's model. */
    planModel: string;
    /** `modelGateway.agent.mcpServers` as written: read with the mcp.json files when a run starts. */
    mcpServers: unknown;
    mcpTimeoutSeconds: number;
    /** The user's own `modelGateway.agent.autoApprove` (user settings only: a workspace cannot approve commands). */
    autoApprove: string[];
    commandTimeoutSeconds: number;
  };
  /** `modelGateway.chat.prices`: per model, input and output price per million tokens. */
  prices: Record<string, { input: number; output: number }>;
  /** The chat attachments' settings (secrets patterns, token limit, the suggested file). */
  context: ContextSettings;
  images: {
    model: string;
    size: ImageSize;
    quality: ImageQuality;
    count: number;
    responseFormat: ImageResponseFormat;
    folder: string;
    timeoutMs: number;
    writeMetadata: boolean;
  };
}

/** Reads and validates every `modelGateway.*` setting. */
export function readConfig(): { config: ExtensionConfig; problems: string[] } {
  const c = vscode.workspace.getConfiguration('modelGateway');
  const problems: string[] = [];
  const reader = new SettingReader(c, problems);
  const chatModel = SETTINGS['chat.model'].default;
  const imageModel = SETTINGS['images.model'].default;
  const applyModel = SETTINGS['edit.applyModel'].default;
  const folder = SETTINGS['images.folder'].default;
  const baseUrl = reader.url('baseUrl', SETTINGS.baseUrl.default);
  const proxySetting = reader.string('network.proxy', SETTINGS['network.proxy'].default).trim();
  const httpProxy = vscode.workspace.getConfiguration('http').get<string>('proxy', '').trim();
  const proxy = proxySetting || httpProxy || undefined;
  if (proxySetting && !/^https?:\/\//i.test(proxySetting)) {
    problems.push(
      vscode.l10n.t(
        'modelGateway.network.proxy must be an http(s) URL such as http://proxy:3128; it is ignored.',
      ),
    );
  }
  const headers = validateCustomHeaders(c.get<unknown>('network.headers', {}));
  problems.push(...headers.warnings);
  return {
    problems,
    config: {
      baseUrl,
      proxy: proxy && /^https?:\/\//i.test(proxy) ? proxy : undefined,
      retries: reader.number('network.retries'),
      firstByteTimeoutMs: reader.number('network.firstByteTimeoutSeconds') * 1000,
      idleTimeoutMs: reader.number('network.idleTimeoutSeconds') * 1000,
      headers: headers.headers,
      chat: {
        model: reader.string('chat.model', chatModel).trim() || chatModel,
        extraModels: reader.stringArray('chat.extraModels'),
        defaultContextTokens: reader.number('chat.defaultContextTokens'),
        temperature: reader.number('chat.temperature'),
        topP: reader.optionalNumber('chat.topP'),
        maxTokens: reader.optionalNumber('chat.maxTokens'),
        stop: reader.stringArray('chat.stop').slice(0, SETTINGS['chat.stop'].maxItems),
        systemPrompt: reader.string('chat.systemPrompt', SETTINGS['chat.systemPrompt'].default),
      },
      edit: {
        applyModel: reader.string('edit.applyModel', applyModel).trim() || applyModel,
      },
      lm: { toolCalling: reader.oneOf('lm.toolCalling') },
      agent: {
        enabled: reader.boolean('agent.enabled', SETTINGS['agent.enabled'].default),
        maxSteps: reader.number('agent.maxSteps'),
        maxToolResultTokens: reader.number('agent.maxToolResultTokens'),
        toolProtocol: reader.oneOf('agent.toolProtocol'),
        protectedFiles: readProtectedFiles(c.get<unknown>('agent.protectedFiles'), problems),
        useRulesFiles: reader.boolean('agent.useRulesFiles', SETTINGS['agent.useRulesFiles'].default),
        planModel: reader.string('agent.planModel', SETTINGS['agent.planModel'].default).trim(),
        mcpServers: c.get<unknown>('agent.mcpServers', {}),
        mcpTimeoutSeconds: reader.number('agent.mcpTimeoutSeconds'),
        autoApprove: readAutoApprove(c.inspect<unknown>('agent.autoApprove')?.globalValue, problems),
        commandTimeoutSeconds: reader.number('agent.commandTimeoutSeconds'),
      },
      prices: readPrices(c.get<unknown>('chat.prices', {})),
      images: {
        model: reader.string('images.model', imageModel).trim() || imageModel,
        size: reader.oneOf('images.size'),
        quality: reader.oneOf('images.quality'),
        count: reader.number('images.count'),
        responseFormat: reader.oneOf('images.responseFormat'),
        folder: reader.string('images.folder', folder).trim() || folder,
        timeoutMs: reader.number('images.timeoutSeconds') * 1000,
        writeMetadata: reader.boolean('images.writeMetadata', SETTINGS['images.writeMetadata'].default),
      },
      context: readContextSettings(),
    },
  };
}

/**
 * `modelGateway.agent.protectedFiles`; a value that is not a list of strings protects the defaults, never
 * nothing (a typo must not let the agent write settings files unasked).
 */
function readProtectedFiles(value: unknown, problems: string[]): string[] {
  if (Array.isArray(value) && value.every((s) => typeof s === 'string')) return value;
  if (value !== undefined)
    problems.push(
      vscode.l10n.t('modelGateway.agent.protectedFiles must be a list of glob patterns; the defaults apply.'),
    );
  return [...SETTINGS['agent.protectedFiles'].default];
}

/**
 * `modelGateway.agent.autoApprove` from the user's settings. A value of a workspace or folder is ignored: a cloned
 * repository must not be able to approve commands for the agent.
 */
function readAutoApprove(value: unknown, problems: string[]): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((s) => typeof s === 'string'))
    return value.map((s) => s.trim()).filter(Boolean);
  problems.push(
    vscode.l10n.t(
      'modelGateway.agent.autoApprove must be a list of command prefixes; nothing is auto-approved.',
    ),
  );
  return [];
}

/** The well-formed entries of `modelGateway.chat.prices` (a price is a finite number of 0 or more). */
function readPrices(value: unknown): ExtensionConfig['prices'] {
  const prices: ExtensionConfig['prices'] = {};
  if (typeof value !== 'object' || value === null) return prices;
  for (const [model, price] of Object.entries(value)) {
    const { input, output } = (price ?? {}) as { input?: unknown; output?: unknown };
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    if (ok(input) && ok(output)) prices[model] = { input, output };
  }
  return prices;
}

/** What a number setting must be, in words. */
function rangeText(integer: boolean, min: number, max: number): string {
  return integer
    ? vscode.l10n.t('a whole number from {0} to {1}', min, max)
    : vscode.l10n.t('a number from {0} to {1}', min, max);
}

/** Reads one setting at a time, recording a problem and returning the default for a bad value. */
class SettingReader {
  constructor(
    private readonly c: vscode.WorkspaceConfiguration,
    private readonly problems: string[],
  ) {}

  private bad(key: string, expected: string, fallback: unknown): void {
    this.problems.push(
      vscode.l10n.t(
        'modelGateway.{0} must be {1}; using {2} instead.',
        key,
        expected,
        JSON.stringify(fallback),
      ),
    );
  }

  string(key: string, fallback: string): string {
    const v = this.c.get<unknown>(key, fallback);
    if (typeof v === 'string') return v;
    this.bad(key, vscode.l10n.t('a string'), fallback);
    return fallback;
  }

  boolean(key: string, fallback: boolean): boolean {
    const v = this.c.get<unknown>(key, fallback);
    if (typeof v === 'boolean') return v;
    this.bad(key, vscode.l10n.t('true or false'), fallback);
    return fallback;
  }

  url(key: string, fallback: string): string {
    const v = this.string(key, fallback).trim();
    if (isHttpUrl(v)) return v;
    this.bad(key, vscode.l10n.t('an http:// or https:// URL'), fallback);
    return fallback;
  }

  /** A number setting, within the range its table entry gives. */
  number(key: RangeSettingKey & NumberDefaultKey): number {
    const { default: fallback, minimum: min, maximum: max } = SETTINGS[key];
    const integer = isInteger(key);
    const v = this.c.get<unknown>(key, fallback);
    if (inRange(v, min, max, integer)) return v;
    this.bad(key, rangeText(integer, min, max), fallback);
    return fallback;
  }

  /** A number setting that may be null (left to the server). */
  optionalNumber(key: Exclude<RangeSettingKey, NumberDefaultKey>): number | undefined {
    const { minimum: min, maximum: max } = SETTINGS[key];
    const integer = isInteger(key);
    const v = this.c.get<unknown>(key, null);
    if (v === null || v === undefined) return undefined;
    if (inRange(v, min, max, integer)) return v;
    this.bad(key, vscode.l10n.t('null or {0}', rangeText(integer, min, max)), null);
    return undefined;
  }

  stringArray(key: string): string[] {
    const v = this.c.get<unknown>(key, []);
    if (Array.isArray(v) && v.every((s) => typeof s === 'string')) {
      return v.map((s: string) => s.trim()).filter((s) => s.length > 0);
    }
    this.bad(key, vscode.l10n.t('a list of strings'), []);
    return [];
  }

  /** A setting with a fixed list of values (its table entry's `enum`). */
  oneOf<K extends EnumSettingKey>(key: K): (typeof SETTINGS)[K]['enum'][number] {
    const { enum: allowed, default: fallback } = SETTINGS[key];
    const v = this.c.get<unknown>(key, fallback);
    if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as typeof fallback;
    this.bad(key, vscode.l10n.t('one of {0}', allowed.join(', ')), fallback);
    return fallback;
  }
}

type NumberDefaultKey = {
  [K in RangeSettingKey]: (typeof SETTINGS)[K]['default'] extends number ? K : never;
}[RangeSettingKey];

function isInteger(key: RangeSettingKey): boolean {
  return 'integer' in SETTINGS[key];
}

function inRange(v: unknown, min: number, max: number, integer: boolean): v is number {
  return (
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && (!integer || Number.isInteger(v))
  );
}

/** True for an absolute http(s) URL. */
function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
