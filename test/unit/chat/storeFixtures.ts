/** Shared setup of the store tests: a real temp folder, a counting Node fs and sample conversations. */
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  startAssistantTurn,
} from '../../../src/chat/conversation';
import { ConversationStore } from '../../../src/chat/store';
import type { Conversation } from '../../../src/chat/types';
import { NodeStoreFs } from './nodeStoreFs';

/** Resolves after `ms` milliseconds. */
export { sleep } from '../../support/poll';

/** A finished two-turn conversation. */
export function sample(id: string, text = 'Hello', updatedAt = 1000): Conversation {
  const conv = createConversation('model-x', updatedAt, id);
  addUserTurn(conv, text, undefined, updatedAt);
  const turn = startAssistantTurn(conv, 'model-x', updatedAt);
  appendToTurn(conv, turn.id, { text: `Answer to ${text}`, reasoning: 'hmm' });
  turn.status = 'complete';
  return conv;
}

/** What each test gets: a fresh folder, the fs the store uses, and the store (50 ms save interval). */
export interface StoreContext {
  root: string;
  fs: NodeStoreFs;
  store: ConversationStore;
  convFile(id: string): string;
  /** A second store on the same folder, as after a reload, with its own fs. */
  reopen(): ConversationStore;
}

/** Registers beforeEach/afterEach hooks that create and remove a temp store; read the context inside tests. */
export function useTempStore(): StoreContext {
  const ctx = {
    convFile: (id: string): string => join(ctx.root, 'conversations', `${id}.json`),
    reopen: (): ConversationStore => new ConversationStore(new NodeStoreFs(), ctx.root),
  } as StoreContext;
  beforeEach(async () => {
    ctx.root = await fsp.mkdtemp(join(tmpdir(), 'mg-store-'));
    ctx.fs = new NodeStoreFs();
    ctx.store = new ConversationStore(ctx.fs, ctx.root, { saveIntervalMs: 50 });
  });
  afterEach(async () => {
    await ctx.store.flush().catch(() => undefined);
    await fsp.rm(ctx.root, { recursive: true, force: true });
  });
  return ctx;
}
