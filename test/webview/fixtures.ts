// Conversation and state builders shared by the webview tests.
import type { AssistantTurn, Conversation, Turn, UserTurn } from '../../src/chat/types';
import type { ChatViewState, ModelOption } from '../../src/protocol';

export const MODEL = 'alpha-sonnet-4-5-20250929';

export const MODELS: ModelOption[] = [
  { id: MODEL, label: 'Alpha Sonnet 4.5', thinking: false, extra: false },
  { id: 'alpha-opus-4-1', label: 'Alpha Opus 4.1', thinking: true, extra: false },
  { id: 'local-llama', label: 'local-llama', thinking: false, extra: true },
];

let counter = 0;

/** A user turn. */
export function user(content: string, extra: Partial<UserTurn> = {}): UserTurn {
  counter += 1;
  return { id: `u${counter}`, role: 'user', content, createdAt: Date.now(), ...extra };
}

/** An assistant turn, complete unless told otherwise. */
export function assistant(content: string, extra: Partial<AssistantTurn> = {}): AssistantTurn {
  counter += 1;
  return {
    id: `a${counter}`,
    role: 'assistant',
    model: MODEL,
    content,
    status: 'complete',
    createdAt: Date.now(),
    ...extra,
  };
}

/** A conversation holding the given turns. */
export function conversation(turns: Turn[], id = 'c1'): Conversation {
  return { id, title: 'Test chat', model: MODEL, createdAt: Date.now(), updatedAt: Date.now(), turns };
}

/** A full view state message payload. */
export function viewState(turns: Turn[], extra: Partial<ChatViewState> = {}): ChatViewState {
  return {
    conversation: conversation(turns),
    models: MODELS,
    history: [],
    onboarding: { hasApiKey: true, hasBaseUrl: true },
    busy: false,
    agent: { enabled: true },
    ...extra,
  };
}

/** Splits text into random chunks of 1..max characters (deterministic for a seed). */
export function randomChunks(text: string, seed: number, max = 24): string[] {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    // xorshift32: reproducible chunkings, so a failure can be replayed.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  const chunks: string[] = [];
  for (let i = 0; i < text.length;) {
    const size = 1 + Math.floor(next() * max);
    chunks.push(text.slice(i, i + size));
    i += size;
  }
  return chunks;
}

/** A long conversation: `pairs` question/answer pairs of roughly 4 KB each. */
export function longConversation(pairs: number): Turn[] {
  const turns: Turn[] = [];
  for (let i = 0; i < pairs; i++) {
    turns.push(user(`Question ${i}: how do I handle case ${i} in the parser?`));
    turns.push(
      assistant(
        `## Case ${i}\n\nHere is how to handle **case ${i}**. ${'Some explanation text that goes on. '.repeat(40)}\n\n` +
          '```ts\n' +
          `function handle${i}(input: string): number {\n  return input.length * ${i};\n}\n` +
          '```\n\n' +
          `- point one for ${i}\n- point two\n- point three\n\n| a | b |\n|---|---|\n| ${i} | ${i * 2} |\n\n` +
          'Final words. '.repeat(150),
        { usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 } },
      ),
    );
  }
  return turns;
}
