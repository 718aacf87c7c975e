import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import fc from 'fast-check';
import { addUserTurn, startAssistantTurn } from '../../../src/chat/conversation';
import { ConversationStore } from '../../../src/chat/store';
import { serializeConversation } from '../../../src/chat/storeFormat';
import type { Conversation, Turn } from '../../../src/chat/types';
import { NodeStoreFs } from './nodeStoreFs';
import { sample, useTempStore } from './storeFixtures';
import { until } from '../../support/poll';

/** A store filesystem that keeps the text of every conversation file it writes, in order. */
class RecordingFs extends NodeStoreFs {
  readonly texts: Array<{ path: string; conversation: Conversation }> = [];
  override async writeFile(path: string, data: Uint8Array): Promise<void> {
    if (path.includes('/conversations/')) {
      const { conversation } = JSON.parse(new TextDecoder().decode(data)) as { conversation: Conversation };
      this.texts.push({ path, conversation });
    }
    await super.writeFile(path, data);
  }
}

/** Field values JSON escapes: quotes, braces, backslashes, control and non-BMP characters. */
const text = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('', '"turns":[', '}}', '\\', '\u2028'));
const turn = fc.record({
  id: text,
  role: fc.constantFrom('user', 'assistant'),
  content: text,
  createdAt: fc.nat(),
});
const conversation = fc.record(
  {
    id: text,
    title: text,
    model: text,
    createdAt: fc.nat(),
    updatedAt: fc.nat(),
    turns: fc.array(turn, { maxLength: 5 }),
    extra: fc.option(fc.dictionary(text, text), { nil: undefined }),
  },
  { requiredKeys: ['turns'] },
) as unknown as fc.Arbitrary<Conversation>;

/** A turn that counts how often JSON.stringify serialises it. */
function counted(turn: Turn): { turn: Turn; count: () => number } {
  let calls = 0;
  const copy = { ...turn };
  Object.defineProperty(turn, 'toJSON', {
    enumerable: false,
    value: () => {
      calls++;
      return copy;
    },
  });
  return { turn, count: () => calls };
}

async function fileOf(path: string): Promise<Conversation> {
  return (JSON.parse(await fsp.readFile(path, 'utf8')) as { conversation: Conversation }).conversation;
}

/** A store on a recording filesystem, and the conversations it wrote after `from` writes. */
function recordingStore(root: string, saveIntervalMs: number): { store: ConversationStore; fs: RecordingFs } {
  const fs = new RecordingFs();
  return { store: new ConversationStore(fs, root, { saveIntervalMs }), fs };
}

describe('chat/store: the leading save reuses the JSON of the turns saved before', () => {
  it('a file built from its start, the joined turn JSON and its end holds the same value as JSON.stringify of the whole', () => {
    fc.assert(
      fc.property(conversation, (conv) => {
        const built = serializeConversation(conv);
        assert.deepEqual(JSON.parse(built), JSON.parse(JSON.stringify({ version: 1, conversation: conv })));
      }),
    );
  });

  const ctx = useTempStore();

  it('serialises only the last saved turn and the turns added since, and the file holds the whole conversation', async () => {
    // No save interval: the store is idle again at once, as it is after a person's pause before a send.
    const { store, fs } = recordingStore(ctx.root, 0);
    const conv = sample('lead', 'First question');
    const earlier = conv.turns.map(counted);
    await store.save(conv);
    const before = earlier.map((e) => e.count());
    const writes = fs.texts.length;
    const added = [
      counted(addUserTurn(conv, 'Second "question" }]}', undefined, 2000)),
      counted(startAssistantTurn(conv, 'model-x', 2000)),
    ];
    conv.updatedAt = 2000;
    store.scheduleSave(conv);
    assert.deepEqual(
      added.map((e) => e.count()),
      [1, 1],
      'the new turns were serialised as the send scheduled the save (the leading save)',
    );
    assert.deepEqual(
      earlier.map((e) => e.count()),
      [before[0], before[1] + 1],
      'of the turns saved before, only the last (an answer that may still change) was serialised again',
    );
    await until(() => fs.texts.length > writes);
    // The leading save's own text (the one it schedules comes an interval later).
    assert.deepEqual(fs.texts[writes].conversation, JSON.parse(JSON.stringify(conv)));
    await store.flush();
    assert.deepEqual(await fileOf(ctx.convFile('lead')), JSON.parse(JSON.stringify(conv)));
    assert.ok(
      earlier.every((e, i) => e.count() > before[i]),
      'the save scheduled after it serialised every turn again',
    );
  });

  it('the leading save writes the bytes of the whole conversation when its turns hold any characters', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 6 }), text, async (contents, title) => {
        const { store, fs } = recordingStore(ctx.root, 0);
        const conv = sample(`bytes-${run++}`, contents[0]);
        conv.title = title;
        await store.save(conv);
        for (const [i, content] of contents.slice(1).entries())
          if (i % 2) startAssistantTurn(conv, content, 5000);
          else addUserTurn(conv, content, undefined, 5000);
        const writes = fs.texts.length;
        store.scheduleSave(conv);
        await until(() => fs.texts.length > writes);
        assert.deepEqual(fs.texts[writes].conversation, JSON.parse(JSON.stringify(conv)));
        await store.flush();
      }),
      { numRuns: 40 },
    );
  });

  it('an earlier turn replaced (an edit) is serialised again at once', async () => {
    const { store, fs } = recordingStore(ctx.root, 0);
    const conv = sample('edit', 'Old text');
    await store.save(conv);
    conv.turns = [{ ...conv.turns[0], content: 'Edited text' } as Turn];
    startAssistantTurn(conv, 'model-x', 3000);
    const writes = fs.texts.length;
    store.scheduleSave(conv);
    await until(() => fs.texts.length > writes);
    assert.deepEqual(fs.texts[writes].conversation, JSON.parse(JSON.stringify(conv)));
    await store.flush();
  });

  it('a turn changed in place: the last one is in the leading save, an earlier one in the save it schedules', async () => {
    const { store, fs } = recordingStore(ctx.root, 0);
    const conv = sample('inplace', 'Question');
    await store.save(conv);
    conv.title = 'A new title';
    (conv.turns[0] as { content: string }).content = 'Question, changed in place';
    (conv.turns[1] as { content: string }).content = 'Answer, changed in place';
    addUserTurn(conv, 'Next', undefined, 4000);
    const writes = fs.texts.length;
    store.scheduleSave(conv);
    await until(() => fs.texts.length > writes);
    const leading = fs.texts[writes].conversation;
    assert.equal(leading.title, 'A new title');
    assert.equal(leading.turns.length, 3);
    assert.equal(
      leading.turns[1].content,
      'Answer, changed in place',
      'the last saved turn is serialised again',
    );
    assert.equal(
      leading.turns[0].content,
      'Question',
      'an earlier turn keeps the JSON of the last full save',
    );
    await until(async () => {
      const saved = await fileOf(ctx.convFile('inplace')).catch(() => undefined);
      return saved?.turns[0].content === 'Question, changed in place';
    }, 5000);
    assert.deepEqual(await fileOf(ctx.convFile('inplace')), JSON.parse(JSON.stringify(conv)));
    await store.flush();
  });
});
