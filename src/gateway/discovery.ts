/**
 * Model discovery: parses a server's `GET /v1/models` answer and merges it with the built-in catalogue and
 * the user's extra ids (issue 18, "Model discovery"). Pure: the client fetches, the host caches.
 */

import * as l10n from '@vscode/l10n';
import { MalformedResponseError } from './errors';
import { CONTEXT_TOKENS, TEXT_MODELS, type ModelInfo, isThinkingModel } from './models';

/** One model as a server lists it. */
export interface DiscoveredModel {
  id: string;
  /** The context size the server declared, when it declared one. */
  contextTokens?: number;
}

/** The context size for ids the catalogue does not know (`modelGateway.chat.defaultContextTokens`). */
export const DEFAULT_UNKNOWN_CONTEXT_TOKENS = 128_000;

/** What an unlisted catalogue model's note ends with. */
export const NOT_LISTED = 'not listed by the server';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tokens(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The context size of one entry, from the fields servers use: OpenRouter and LiteLLM `context_length`
 * (or `top_provider.context_length`), vLLM `max_model_len`, `context_window`, LM Studio
 * `max_context_length` / `loaded_context_length`, llama.cpp `meta.n_ctx_train`, and Ollama's
 * `<architecture>.context_length` inside `model_info` or `details`.
 */
function contextOf(entry: JsonObject): number | undefined {
  const direct =
    tokens(entry.context_length) ??
    tokens(entry.max_model_len) ??
    tokens(entry.context_window) ??
    tokens(entry.loaded_context_length) ??
    tokens(entry.max_context_length);
  if (direct) return direct;
  if (isObject(entry.top_provider) && tokens(entry.top_provider.context_length))
    return tokens(entry.top_provider.context_length);
  if (isObject(entry.meta) && tokens(entry.meta.n_ctx_train)) return tokens(entry.meta.n_ctx_train);
  for (const nested of [entry.model_info, entry.details]) {
    if (!isObject(nested)) continue;
    for (const [key, value] of Object.entries(nested)) {
      if ((key === 'context_length' || key.endsWith('.context_length')) && tokens(value))
        return tokens(value);
    }
  }
  return undefined;
}

/**
 * Parses a models answer: the OpenAI list `{ "data": [ { "id": … } ] }`, Ollama's `{ "models": [ { "name": … } ] }`,
 * or a bare array. Throws MalformedResponseError for anything else; entries without an id are skipped.
 */
export function parseModelList(body: unknown): DiscoveredModel[] {
  const list = Array.isArray(body)
    ? body
    : isObject(body) && Array.isArray(body.data)
      ? body.data
      : isObject(body) && Array.isArray(body.models)
        ? body.models
        : undefined;
  if (!list) {
    throw new MalformedResponseError(
      l10n.t('The server answered GET /v1/models without a model list (expected {"data": [...]}).'),
    );
  }
  const seen = new Set<string>();
  const models: DiscoveredModel[] = [];
  for (const entry of list) {
    if (!isObject(entry)) continue;
    const raw = entry.id ?? entry.model ?? entry.name;
    const id = typeof raw === 'string' ? raw.trim() : '';
    // Control characters would end up in settings and pickers; such an id is not a usable model.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (!id || seen.has(id) || /[\x00-\x1f\x7f]/.test(id)) continue;
    seen.add(id);
    const contextTokens = contextOf(entry);
    models.push(contextTokens ? { id, contextTokens } : { id });
  }
  return models;
}

/** Output cap for models the catalogue does not know: conservative, so small servers accept it. */
function unknownModel(id: string, note: string, contextTokens: number): ModelInfo {
  const thinking = isThinkingModel(id);
  return { id, group: '', note, contextTokens, maxOutputTokens: thinking ? 32_000 : 8_000, thinking };
}

/**
 * The chat models to offer: the catalogue (its notes kept; context from the server when it gave one;
 * marked "not listed by the server" when a list came and did not name it), then the server's other
 * models, then the user's extra ids. Without a list (`discovered` undefined) it is the catalogue alone.
 */
export function mergeModels(
  discovered: readonly DiscoveredModel[] | undefined,
  extraIds: readonly string[] = [],
  defaultContextTokens = DEFAULT_UNKNOWN_CONTEXT_TOKENS,
): ModelInfo[] {
  const listed = new Map((discovered ?? []).map((m) => [m.id, m]));
  const models: ModelInfo[] = TEXT_MODELS.map((model) => {
    const found = listed.get(model.id);
    if (!discovered) return { ...model };
    if (!found) return { ...model, unlisted: true };
    return { ...model, discovered: true, contextTokens: found.contextTokens ?? CONTEXT_TOKENS };
  });
  const seen = new Set(models.map((m) => m.id));
  for (const found of discovered ?? []) {
    if (seen.has(found.id)) continue;
    seen.add(found.id);
    const model = unknownModel(found.id, 'Listed by the server', found.contextTokens ?? defaultContextTokens);
    models.push({ ...model, discovered: true });
  }
  for (const raw of extraIds) {
    const id = typeof raw === 'string' ? raw.trim() : '';
    if (!id || seen.has(id)) continue;
    seen.add(id);
    models.push({ ...unknownModel(id, 'Added in settings', defaultContextTokens), extra: true });
  }
  return models;
}

/** A model's note with the "not listed by the server" mark where it applies. */
export function modelNote(model: ModelInfo): string {
  const note = noteInDisplayLanguage(model.note);
  return model.unlisted ? l10n.t('{0} (not listed by the server)', note) : note;
}

/**
 * A note of the catalogue, or of a model it does not know, in the display language. The catalogue keeps the
 * English notes as data; each is written once more here, where `@vscode/l10n-dev export` finds it.
 */
function noteInDisplayLanguage(note: string): string {
  switch (note) {
    case 'Strongest model of the 4.5 group; for complex reasoning and hard programming':
      return l10n.t('Strongest model of the 4.5 group; for complex reasoning and hard programming');
    case 'Balanced; for everyday programming and agent development':
      return l10n.t('Balanced; for everyday programming and agent development');
    case 'Reasoning-output mode of the sonnet 4.5 model':
      return l10n.t('Reasoning-output mode of the sonnet 4.5 model');
    case 'Fast; for real-time chat, classification, pair programming':
      return l10n.t('Fast; for real-time chat, classification, pair programming');
    case 'Flagship of the 4 group; for complex tasks':
      return l10n.t('Flagship of the 4 group; for complex tasks');
    case 'General-purpose':
      return l10n.t('General-purpose');
    case 'Reasoning-output mode of the sonnet 4 model':
      return l10n.t('Reasoning-output mode of the sonnet 4 model');
    case 'Lowest cost and very fast; for batch work and simple tasks':
      return l10n.t('Lowest cost and very fast; for batch work and simple tasks');
    case 'Listed by the server':
      return l10n.t('Listed by the server');
    case 'Added in settings':
      return l10n.t('Added in settings');
    default:
      return note;
  }
}
