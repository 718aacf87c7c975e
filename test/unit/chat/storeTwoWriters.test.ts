// Two stores on one folder: two windows sharing global storage, or an extension host that code-server keeps
// alive after its window reloaded (still streaming) beside the new one. Neither may erase the other's turns.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { addUserTurn, appendToTurn, startAssistantTurn } from '../../../src/chat/conversation';
import { ConversationStore } from '../../../src/chat/store';
import type { Conversation } from '../../../src/chat/types';
import { keepsEverythingOf } from '../../../src/chat/writeGuard';
import { NodeStoreFs } from './nodeStoreFs';
import { sample, useTempStore } from './storeFixtures';

/** Adds a question and a complete answer, as a send does. */
function exchange(conv: Conversation, question: string): void {
  addUserTurn(conv, question, undefined, Date.now());
  const answer = startAssistantTurn(conv, conv.model, Date.now());
  appendToTurn(conv, answer.id, { text: `Answer to ${question}` });
  answer.status = 'complete';
}

async function onDisk(store: ConversationStore, id: string): Promise<Conversation | undefined> {
  return (await store.load(id)).conversation;
}

describe('chat/store with two writers (real temp directory)', function () {
  const ctx = useTempStore();
  let forks: Array<{ id: string; fromId: string; title: string }>;
  let windowA: ConversationStore;
  let windowB: ConversationStore;

  beforeEach(async () => {
    forks = [];
    await ctx.store.save(sample('c', 'Shared'));
    const onFork = (conversation: Conversation, fromId: string): void => {
      forks.push({ id: conversation.id, fromId, title: conversation.title });
    };
    windowA = new ConversationStore(new NodeStoreFs(), ctx.root, { onFork });
    windowB = new ConversationStore(new NodeStoreFs(), ctx.root, { onFork });
  });

  it('a window holding an older copy does not erase the turns another window added: its copy becomes a new conversation', async () => {
    const a = (await onDisk(windowA, 'c'))!;
    const b = (await onDisk(windowB, 'c'))!;
    exchange(a, 'Asked in window A');
    await windowA.save(a);
    exchange(b, 'Asked in window B');
    await windowB.save(b);

    const kept = (await onDisk(ctx.reopen(), 'c'))!;
    assert.deepEqual(
      kept.turns.map((t) => t.content),
      ['Shared', 'Answer to Shared', 'Asked in window A', 'Answer to Asked in window A'],
      "window A's turns are still in the conversation",
    );
    assert.equal(forks.length, 1);
    assert.equal(forks[0].fromId, 'c');
    assert.notEqual(b.id, 'c', "window B's live copy now has the new id, so its next saves go there");
    assert.equal(b.title, 'Shared (copy)');
    const copy = (await onDisk(ctx.reopen(), b.id))!;
    assert.deepEqual(
      copy.turns.map((t) => t.content),
      ['Shared', 'Answer to Shared', 'Asked in window B', 'Answer to Asked in window B'],
    );
    const { summaries } = await ctx.reopen().list();
    assert.deepEqual(summaries.map((s) => s.id).sort(), [b.id, 'c'].sort(), 'both are in the history');

    // Later saves of window B's copy go to the copy; the original is left as window A saved it.
    exchange(b, 'Asked in window B again');
    await windowB.save(b);
    assert.equal((await onDisk(ctx.reopen(), b.id))!.turns.length, 6);
    assert.equal((await onDisk(ctx.reopen(), 'c'))!.turns.length, 4);
    assert.equal(forks.length, 1);
  });

  it('an answer that streams on in an older extension host is saved over a file it extends, without a copy', async () => {
    const old = (await onDisk(windowA, 'c'))!;
    exchange(old, 'A long question');
    const answer = old.turns.at(-1)!;
    answer.content = 'The first part';
    await windowA.save(old);
    // The restarted window loads what was saved and only shows it.
    const shown = (await onDisk(windowB, 'c'))!;
    assert.equal(shown.turns.at(-1)!.content, 'The first part');
    answer.content = 'The first part, and the rest of it.';
    await windowA.save(old);
    assert.equal(
      (await onDisk(ctx.reopen(), 'c'))!.turns.at(-1)!.content,
      'The first part, and the rest of it.',
    );
    assert.deepEqual(forks, []);

    // The restarted window, still holding the first part, now sends: the full answer must not be cut back.
    exchange(shown, 'A follow-up');
    await windowB.save(shown);
    assert.equal(
      (await onDisk(ctx.reopen(), 'c'))!.turns.at(-1)!.content,
      'The first part, and the rest of it.',
    );
    assert.equal(forks.length, 1);
    assert.equal((await onDisk(ctx.reopen(), shown.id))!.turns.at(-1)!.content, 'Answer to A follow-up');
  });

  it('two chats of one window on the same conversation (the side bar and an editor tab) do not erase each other', async () => {
    const sidebar = (await onDisk(windowA, 'c'))!;
    const tab = (await onDisk(windowA, 'c'))!;
    exchange(tab, 'Asked in the tab');
    await windowA.save(tab);
    exchange(sidebar, 'Asked in the side bar');
    await windowA.save(sidebar);
    assert.equal((await onDisk(ctx.reopen(), 'c'))!.turns[2].content, 'Asked in the tab');
    assert.equal(forks.length, 1);
    assert.equal((await onDisk(ctx.reopen(), sidebar.id))!.turns[2].content, 'Asked in the side bar');
  });

  it("one window's own saves never read the file back or fork", async () => {
    const fs = new NodeStoreFs();
    const alone = new ConversationStore(fs, ctx.root, { onFork: () => assert.fail('forked') });
    const conv = (await onDisk(alone, 'c'))!;
    const readsAfterLoad = fs.count('readFile', 'c.json');
    for (let i = 0; i < 20; i++) {
      exchange(conv, `Question ${i}`);
      await alone.save(conv);
    }
    assert.equal(
      fs.count('readFile', 'c.json'),
      readsAfterLoad,
      'no read per save: the file stamp says it is ours',
    );
    assert.equal((await onDisk(ctx.reopen(), 'c'))!.turns.length, 42);
  });

  it('a file changed by another writer in a way this copy keeps (same turns) is simply replaced', async () => {
    const a = (await onDisk(windowA, 'c'))!;
    const b = (await onDisk(windowB, 'c'))!;
    b.title = 'Renamed in B';
    await windowB.save(b);
    exchange(a, 'More');
    await windowA.save(a);
    assert.deepEqual(forks, []);
    assert.equal((await onDisk(ctx.reopen(), 'c'))!.turns.length, 4);
  });

  it('queued saves of a copy that forks all land in the copy, the newest last', async () => {
    const a = (await onDisk(windowA, 'c'))!;
    const b = (await onDisk(windowB, 'c'))!;
    exchange(a, 'From A');
    await windowA.save(a);
    exchange(b, 'From B');
    const saves = [windowB.save(b)];
    b.turns.at(-1)!.content += ' (more)';
    saves.push(windowB.save(b));
    b.turns.at(-1)!.content += ' (and the end)';
    saves.push(windowB.save(b));
    await Promise.all(saves);
    assert.equal(forks.length, 1);
    const copy = (await onDisk(ctx.reopen(), b.id))!;
    assert.equal(copy.turns.at(-1)!.content, 'Answer to From B (more) (and the end)');
    assert.equal((await onDisk(ctx.reopen(), 'c'))!.turns[2].content, 'From A');
    const leftovers = (await fsp.readdir(`${ctx.root}/conversations`)).filter((n) => n.includes('.tmp-'));
    assert.deepEqual(leftovers, []);
  });
});

describe('chat/writeGuard keepsEverythingOf', () => {
  it('is true for the same conversation, or one with more turns or longer text; false otherwise', () => {
    const base = sample('x', 'Q');
    const longer = structuredClone(base);
    longer.turns[1].content += ' and more';
    const more = structuredClone(base);
    exchange(more, 'Next');
    const other = structuredClone(base);
    other.turns[1].content = 'Different';
    const fewer = structuredClone(base);
    fewer.turns.pop();
    assert.ok(keepsEverythingOf(base, base));
    assert.ok(keepsEverythingOf(longer, base));
    assert.ok(keepsEverythingOf(more, base));
    assert.ok(!keepsEverythingOf(base, longer), 'a shorter answer');
    assert.ok(!keepsEverythingOf(base, more), 'missing turns');
    assert.ok(!keepsEverythingOf(other, base), 'different text');
    assert.ok(!keepsEverythingOf(fewer, base));
    const replaced = structuredClone(more);
    replaced.turns[2] = { ...replaced.turns[2], id: 'someone-else' };
    assert.ok(!keepsEverythingOf(replaced, more), 'another turn in the same place');
  });
});
