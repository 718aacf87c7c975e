/** The `modelGateway.complete.*` settings, validated without the editor. */
import { DEFAULT_COMPLETE_MODEL, DEFAULT_CONTEXT_TOKENS } from './prompt';

/** Validated completion settings. */
export interface CompleteSettings {
  enabled: boolean;
  /** By language id, with '*' for the rest; true when absent. */
  languages: Readonly<Record<string, boolean>>;
  debounceMs: number;
  model: string;
  contextTokens: number;
}

export const DEFAULT_DEBOUNCE_MS = 300;

/** The raw values as read from the configuration (any type: they come from user settings). */
export interface RawCompleteSettings {
  enabled?: unknown;
  languages?: unknown;
  debounceMs?: unknown;
  model?: unknown;
  contextTokens?: unknown;
}

const inRange = (v: unknown, min: number, max: number, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? Math.floor(v) : fallback;

/** Validates raw settings; a wrong type or range falls back to the default rather than failing. */
export function completeSettings(raw: RawCompleteSettings): CompleteSettings {
  const languages: Record<string, boolean> = {};
  if (raw.languages && typeof raw.languages === 'object' && !Array.isArray(raw.languages)) {
    for (const [id, on] of Object.entries(raw.languages)) if (typeof on === 'boolean') languages[id] = on;
  }
  return {
    enabled: raw.enabled === true,
    languages,
    debounceMs: inRange(raw.debounceMs, 0, 10_000, DEFAULT_DEBOUNCE_MS),
    model: typeof raw.model === 'string' && raw.model.trim() ? raw.model.trim() : DEFAULT_COMPLETE_MODEL,
    contextTokens: inRange(raw.contextTokens, 100, 100_000, DEFAULT_CONTEXT_TOKENS),
  };
}

/** Whether completions are on for `languageId`: its own entry, else '*', else on. */
export function languageEnabled(languages: Readonly<Record<string, boolean>>, languageId: string): boolean {
  if (Object.hasOwn(languages, languageId)) return languages[languageId];
  if (Object.hasOwn(languages, '*')) return languages['*'];
  return true;
}
