/** The model catalogue from the gateway spec, plus helpers to merge user-configured extra model ids. */

export interface ModelInfo {
  id: string;
  /** Family group from the spec ('4.5', '4', '3.5'); empty for extra models. */
  group: string;
  note: string;
  contextTokens: number;
  /** Cap sent as max_tokens by default; thinking models get more because reasoning counts toward it. */
  maxOutputTokens: number;
  /** The model returns its reasoning (`-thinking` suffix). */
  thinking: boolean;
  /** Added by the user's settings, not part of the published catalogue. */
  extra?: boolean;
  /** Named by the server's `GET /v1/models` answer. */
  discovered?: boolean;
  /** A catalogue model the server's list did not name ("not listed by the server"); still offered. */
  unlisted?: boolean;
}

export interface ImageModelInfo {
  id: string;
  note: string;
}

/** Every text model of the spec has a 200K context. */
export const CONTEXT_TOKENS = 200_000;

/** A context size as people write it: 200K. */
export function formatContextSize(tokens: number): string {
  return tokens >= 1000 ? `${Math.round(tokens / 1000)}K` : String(tokens);
}

const THINKING_SUFFIX = '-thinking';

function textModel(id: string, group: string, note: string, maxOutputTokens: number): ModelInfo {
  const thinking = id.endsWith(THINKING_SUFFIX);
  return { id, group, note, contextTokens: CONTEXT_TOKENS, maxOutputTokens, thinking };
}

/** The eight text models of the spec, strongest first within each group. */
export const TEXT_MODELS: readonly ModelInfo[] = Object.freeze([
  textModel(
    'alpha-opus-4-5-20251101',
    '4.5',
    'Strongest model of the 4.5 group; for complex reasoning and hard programming',
    32_000,
  ),
  textModel(
    'alpha-sonnet-4-5-20250929',
    '4.5',
    'Balanced; for everyday programming and agent development',
    32_000,
  ),
  textModel(
    'alpha-sonnet-4-5-20250929-thinking',
    '4.5',
    'Reasoning-output mode of the sonnet 4.5 model',
    64_000,
  ),
  textModel(
    'alpha-haiku-4-5-20251001',
    '4.5',
    'Fast; for real-time chat, classification, pair programming',
    16_000,
  ),
  textModel('alpha-opus-4-20250514', '4', 'Flagship of the 4 group; for complex tasks', 32_000),
  textModel('alpha-sonnet-4-20250514', '4', 'General-purpose', 32_000),
  textModel('alpha-sonnet-4-20250514-thinking', '4', 'Reasoning-output mode of the sonnet 4 model', 64_000),
  textModel(
    'alpha-haiku-3-5-20241022',
    '3.5',
    'Lowest cost and very fast; for batch work and simple tasks',
    8_000,
  ),
]);

/** The image models of the spec; the first is the endpoint's default. */
export const IMAGE_MODELS: readonly ImageModelInfo[] = Object.freeze([
  { id: 'beta-image-2', note: 'Default model of the image endpoint' },
]);

export const DEFAULT_IMAGE_MODEL = 'beta-image-2';

/** The chat model used until the user picks another (`modelGateway.chat.model`). */
export const DEFAULT_CHAT_MODEL = 'alpha-sonnet-4-5-20250929';

/** Looks a text model up in the catalogue (extra ids are not in it; use `listChatModels`). */
export function findModel(id: string): ModelInfo | undefined {
  const wanted = id.trim();
  return TEXT_MODELS.find((m) => m.id === wanted);
}

/** Looks an image model up in the catalogue. */
export function findImageModel(id: string): ImageModelInfo | undefined {
  const wanted = id.trim();
  return IMAGE_MODELS.find((m) => m.id === wanted);
}

/** True for models that return reasoning: the spec marks them by the `-thinking` suffix, also for extra ids. */
export function isThinkingModel(id: string): boolean {
  return id.trim().endsWith(THINKING_SUFFIX);
}

/** The catalogue's text models followed by the user's extra ids (trimmed, deduplicated, empties ignored). */
export function listChatModels(extraIds: readonly string[] = []): ModelInfo[] {
  const models: ModelInfo[] = [...TEXT_MODELS];
  const seen = new Set(models.map((m) => m.id));
  for (const raw of extraIds) {
    const id = typeof raw === 'string' ? raw.trim() : '';
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const thinking = isThinkingModel(id);
    models.push({
      id,
      group: '',
      note: 'Added in settings',
      contextTokens: CONTEXT_TOKENS,
      // Unknown models: stay conservative so servers with small output limits do not reject the request.
      maxOutputTokens: thinking ? 32_000 : 8_000,
      thinking,
      extra: true,
    });
  }
  return models;
}
