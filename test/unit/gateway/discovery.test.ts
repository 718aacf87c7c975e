import * as assert from 'node:assert/strict';
import {
  DEFAULT_UNKNOWN_CONTEXT_TOKENS,
  NOT_LISTED,
  mergeModels,
  modelNote,
  parseModelList,
} from '../../../src/gateway/discovery';
import { MalformedResponseError } from '../../../src/gateway/errors';
import { TEXT_MODELS } from '../../../src/gateway/models';

describe('gateway/discovery: parsing GET /v1/models', () => {
  it('reads the OpenAI list shape, without context sizes', () => {
    const models = parseModelList({
      object: 'list',
      data: [
        { id: 'gpt-4o', object: 'model', owned_by: 'openai' },
        { id: 'alpha-haiku-3-5-20241022', object: 'model' },
      ],
    });
    assert.deepEqual(models, [{ id: 'gpt-4o' }, { id: 'alpha-haiku-3-5-20241022' }]);
  });

  it('reads the context size in each server spelling', () => {
    const models = parseModelList({
      data: [
        { id: 'openrouter/a', context_length: 131072 },
        { id: 'vllm-b', max_model_len: 32768 },
        { id: 'c', context_window: 200000 },
        { id: 'lmstudio-d', max_context_length: 8192 },
        { id: 'lmstudio-loaded', loaded_context_length: 4096, max_context_length: 32768 },
        { id: 'or-top', top_provider: { context_length: 65536 } },
        { id: 'llamacpp', meta: { n_ctx_train: 16384 } },
        { id: 'ollama', model_info: { 'llama.context_length': 8192 } },
        { id: 'string-number', context_length: '4096' },
      ],
    });
    assert.deepEqual(
      models.map((m) => [m.id, m.contextTokens]),
      [
        ['openrouter/a', 131072],
        ['vllm-b', 32768],
        ['c', 200000],
        ['lmstudio-d', 8192],
        ['lmstudio-loaded', 4096],
        ['or-top', 65536],
        ['llamacpp', 16384],
        ['ollama', 8192],
        ['string-number', 4096],
      ],
    );
  });

  it("reads Ollama's native list and a bare array", () => {
    assert.deepEqual(parseModelList({ models: [{ name: 'llama3:8b', model: 'llama3:8b' }] }), [
      { id: 'llama3:8b' },
    ]);
    assert.deepEqual(parseModelList([{ id: 'x' }]), [{ id: 'x' }]);
  });

  it('ignores entries without an id, duplicates, control characters and nonsense sizes', () => {
    const models = parseModelList({
      data: [
        { object: 'model' },
        'text',
        null,
        { id: '  ' },
        { id: 'a', context_length: -5 },
        { id: 'a' },
        { id: 'b\nc' },
        { id: 'd', context_length: 1.5 },
      ],
    });
    assert.deepEqual(models, [{ id: 'a' }, { id: 'd' }]);
  });

  for (const [name, body] of [
    ['an error object', { error: { message: 'nope' } }],
    ['a string', 'OK'],
    ['null', null],
    ['data that is not a list', { data: { id: 'x' } }],
  ] as const) {
    it(`refuses ${name} as malformed`, () => {
      assert.throws(() => parseModelList(body), MalformedResponseError);
    });
  }
});

describe('gateway/discovery: merging with the catalogue', () => {
  it('without a list, is the catalogue with 200K and the extra ids with the default context', () => {
    const models = mergeModels(undefined, ['my-model'], 64_000);
    assert.deepEqual(
      models.slice(0, TEXT_MODELS.length).map((m) => m.id),
      TEXT_MODELS.map((m) => m.id),
    );
    assert.ok(models.slice(0, TEXT_MODELS.length).every((m) => m.contextTokens === 200_000 && !m.unlisted));
    const extra = models.at(-1)!;
    assert.deepEqual([extra.id, extra.extra, extra.contextTokens], ['my-model', true, 64_000]);
  });

  it('keeps notes, marks catalogue models the server did not list, and adds the server models', () => {
    const models = mergeModels(
      [{ id: 'alpha-opus-4-5-20251101' }, { id: 'qwen2.5-coder', contextTokens: 32_768 }, { id: 'llama3' }],
      ['llama3', 'mine-thinking'],
    );
    const byId = new Map(models.map((m) => [m.id, m]));
    const opus = byId.get('alpha-opus-4-5-20251101')!;
    assert.equal(opus.unlisted, undefined);
    assert.equal(opus.discovered, true);
    assert.equal(opus.contextTokens, 200_000);
    assert.equal(opus.note, TEXT_MODELS[0].note);
    const haiku = byId.get('alpha-haiku-3-5-20241022')!;
    assert.equal(haiku.unlisted, true);
    assert.equal(modelNote(haiku), `${TEXT_MODELS.at(-1)!.note} (${NOT_LISTED})`);
    assert.equal(byId.get('qwen2.5-coder')!.contextTokens, 32_768);
    assert.equal(byId.get('llama3')!.contextTokens, DEFAULT_UNKNOWN_CONTEXT_TOKENS);
    assert.equal(byId.get('llama3')!.extra, undefined, 'a listed id in extraModels is not repeated');
    assert.equal(models.filter((m) => m.id === 'llama3').length, 1);
    const mine = byId.get('mine-thinking')!;
    assert.deepEqual([mine.extra, mine.thinking], [true, true]);
  });

  it("takes a catalogue model's context size from the server when it gives one", () => {
    const models = mergeModels([{ id: 'alpha-sonnet-4-5-20250929', contextTokens: 1_000_000 }]);
    assert.equal(models.find((m) => m.id === 'alpha-sonnet-4-5-20250929')!.contextTokens, 1_000_000);
  });

  it('an empty list marks every catalogue model unlisted but keeps them', () => {
    const models = mergeModels([]);
    assert.equal(models.length, TEXT_MODELS.length);
    assert.ok(models.every((m) => m.unlisted));
  });
});
