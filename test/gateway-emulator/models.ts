// GET /v1/models: the OpenAI list shape, as vLLM, LiteLLM, Ollama and LM Studio serve it (issue 18).
import { TEXT_MODELS } from '../../src/gateway/models';
import type { Exchange } from './exchange';

/** One entry of the list; extra fields (context sizes in any server's spelling) are passed through. */
export type ServedModel = { id: string } & Record<string, unknown>;

/** The default list: the spec's text models, with their 200K context as OpenRouter spells it. */
export function defaultServedModels(): ServedModel[] {
  return TEXT_MODELS.map((m) => ({ id: m.id, context_length: m.contextTokens }));
}

/** Answers the list in the OpenAI shape. */
export function handleModels(ex: Exchange, models: readonly ServedModel[]): void {
  const created = 1_700_000_000;
  ex.json(200, {
    object: 'list',
    data: models.map((m) => ({ object: 'model', created, owned_by: 'emulator', ...m })),
  });
}
