import * as vscode from 'vscode';
import type { ImageQuality, ImageResponseFormat, ImageSize } from '../gateway/types';

/** The extension's settings, validated; invalid values fall back to defaults and are reported. */
export interface ExtensionConfig {
  baseUrl: string;
  proxy: string | undefined;
  retries: number;
  firstByteTimeoutMs: number;
  idleTimeoutMs: number;
  chat: {
    model: string;
    extraModels: string[];
    temperature: number;
    topP: number | undefined;
    maxTokens: number | undefined;
    stop: string[];
    systemPrompt: string;
  };
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
  edit: {
    /** The model that merges a chat code block into a file (Apply). */
    applyModel: string;
  };
}

export const IMAGE_SIZES: readonly ImageSize[] = [
  '1024x1024',
  '1536x1024',
  '1024x1536',
  '2048x2048',
  '4096x4096',
];
export const IMAGE_QUALITIES: readonly ImageQuality[] = ['auto', 'high', 'medium', 'low'];
export const IMAGE_FORMATS: readonly ImageResponseFormat[] = ['b64_json', 'url'];
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
export const DEFAULT_CHAT_MODEL = 'alpha-sonnet-4-5-20250929';
export const DEFAULT_APPLY_MODEL = 'alpha-haiku-4-5-20251001';

/** Reads and validates every `modelGateway.*` setting. */
export function readConfig(): { config: ExtensionConfig; problems: string[] } {
  const c = vscode.workspace.getConfiguration('modelGateway');
  const problems: string[] = [];
  const reader = new SettingReader(c, problems);
  const baseUrl = reader.url('baseUrl', DEFAULT_BASE_URL);
  const proxySetting = reader.string('network.proxy', '').trim();
  const httpProxy = vscode.workspace.getConfiguration('http').get<string>('proxy', '').trim();
  const proxy = proxySetting || httpProxy || undefined;
  if (proxySetting && !/^https?:\/\//i.test(proxySetting)) {
    problems.push(
      `modelGateway.network.proxy must be an http(s) URL such as http://proxy:3128; it is ignored.`,
    );
  }
  return {
    problems,
    config: {
      baseUrl,
      proxy: proxy && /^https?:\/\//i.test(proxy) ? proxy : undefined,
      retries: reader.number('network.retries', 2, 0, 10, true),
      firstByteTimeoutMs: reader.number('network.firstByteTimeoutSeconds', 300, 5, 3600) * 1000,
      idleTimeoutMs: reader.number('network.idleTimeoutSeconds', 120, 5, 3600) * 1000,
      chat: {
        model: reader.string('chat.model', DEFAULT_CHAT_MODEL).trim() || DEFAULT_CHAT_MODEL,
        extraModels: reader.stringArray('chat.extraModels'),
        temperature: reader.number('chat.temperature', 1, 0, 2),
        topP: reader.optionalNumber('chat.topP', 0, 1, false),
        maxTokens: reader.optionalNumber('chat.maxTokens', 1, 10_000_000, true),
        stop: reader.stringArray('chat.stop').slice(0, 4),
        systemPrompt: reader.string('chat.systemPrompt', ''),
      },
      images: {
        model: reader.string('images.model', 'beta-image-2').trim() || 'beta-image-2',
        size: reader.oneOf('images.size', IMAGE_SIZES, '1024x1024'),
        quality: reader.oneOf('images.quality', IMAGE_QUALITIES, 'auto'),
        count: reader.number('images.count', 1, 1, 4, true),
        responseFormat: reader.oneOf('images.responseFormat', IMAGE_FORMATS, 'b64_json'),
        folder: reader.string('images.folder', 'assets/generated').trim() || 'assets/generated',
        timeoutMs: reader.number('images.timeoutSeconds', 300, 120, 3600) * 1000,
        writeMetadata: reader.boolean('images.writeMetadata', false),
      },
      edit: {
        applyModel: reader.string('edit.applyModel', DEFAULT_APPLY_MODEL).trim() || DEFAULT_APPLY_MODEL,
      },
    },
  };
}

/** Reads one setting at a time, recording a problem and returning the default for a bad value. */
class SettingReader {
  constructor(
    private readonly c: vscode.WorkspaceConfiguration,
    private readonly problems: string[],
  ) {}

  private bad(key: string, expected: string, fallback: unknown): void {
    this.problems.push(`modelGateway.${key} must be ${expected}; using ${JSON.stringify(fallback)} instead.`);
  }

  string(key: string, fallback: string): string {
    const v = this.c.get<unknown>(key, fallback);
    if (typeof v === 'string') return v;
    this.bad(key, 'a string', fallback);
    return fallback;
  }

  boolean(key: string, fallback: boolean): boolean {
    const v = this.c.get<unknown>(key, fallback);
    if (typeof v === 'boolean') return v;
    this.bad(key, 'true or false', fallback);
    return fallback;
  }

  url(key: string, fallback: string): string {
    const v = this.string(key, fallback).trim();
    if (isHttpUrl(v)) return v;
    this.bad(key, 'an http:// or https:// URL', fallback);
    return fallback;
  }

  number(key: string, fallback: number, min: number, max: number, integer = false): number {
    const v = this.c.get<unknown>(key, fallback);
    if (
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v >= min &&
      v <= max &&
      (!integer || Number.isInteger(v))
    ) {
      return v;
    }
    this.bad(key, `${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`, fallback);
    return fallback;
  }

  optionalNumber(key: string, min: number, max: number, integer: boolean): number | undefined {
    const v = this.c.get<unknown>(key, null);
    if (v === null || v === undefined) return undefined;
    if (
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v >= min &&
      v <= max &&
      (!integer || Number.isInteger(v))
    ) {
      return v;
    }
    this.bad(key, `null or ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`, null);
    return undefined;
  }

  stringArray(key: string): string[] {
    const v = this.c.get<unknown>(key, []);
    if (Array.isArray(v) && v.every((s) => typeof s === 'string')) {
      return v.map((s: string) => s.trim()).filter((s) => s.length > 0);
    }
    this.bad(key, 'a list of strings', []);
    return [];
  }

  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const v = this.c.get<unknown>(key, fallback);
    if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
    this.bad(key, `one of ${allowed.join(', ')}`, fallback);
    return fallback;
  }
}

/** True for an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
