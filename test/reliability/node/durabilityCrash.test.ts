// §6 Conversation durability in Node, through the real chat store on a real temporary folder:
// - a crash at every step that changes the disk (before the step, or halfway through a file write) while a
//   conversation streams in, another is renamed, one is deleted and a new one is flushed; after the
//   "restart" every file reads back, nothing is reported as corrupt, and each conversation holds the last
//   version whose save had finished, or a later one;
// - while an answer streams through the store's coalesced saves, the file on disk is readable at every
//   moment and trails the live text by about one save interval, so a kill loses at most that much.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addUserTurn,
  appendToTurn,
  createConversation,
  finishTurn,
  startAssistantTurn,
} from '../../../src/chat/conversation';
import { ConversationStore } from '../../../src/chat/store';
import { parseConversationFile } from '../../../src/chat/storeFormat';
import type { AssistantTurn, Conversation } from '../../../src/chat/types';
import { CrashingFs, SimulatedCrash, restartedFs, type CrashMode } from './durabilityFs';
import { sleep } from '../../support/poll';
import { cloneConversation, streamingConversation } from '../../support/conversations';

function finished(id: string, title: string, now: number): Conversation {
  const conv = streamingConversation(id, title, `The answer about ${title}.`, now);
  finishTurn(conv, conv.turns[1].id, { status: 'complete' }, now);
  return conv;
}

/** Every version each conversation was saved as, in order, and how many of those saves finished. */
class Versions {
  readonly saved = new Map<string, Conversation[]>();
  readonly acknowledged = new Map<string, number>();
  deleteStarted = new Set<string>();
  deleted = new Set<string>();

  /** Saves through `save` and records the version (and, once it resolves, that it is durable). */
  async save(conv: Conversation, save: () => Promise<unknown>): Promise<void> {
    const list = this.saved.get(conv.id) ?? [];
    list.push(cloneConversation(conv));
    this.saved.set(conv.id, list);
    const index = list.length;
    await save();
    this.acknowledged.set(conv.id, index);
  }
}

/** What the user does while the crash may strike; every await is a point where it can. */
async function workload(store: ConversationStore, v: Versions): Promise<void> {
  const streaming = createConversation('model-x', 5000, 'c-streaming');
  addUserTurn(streaming, 'Explain the durability rules', undefined, 5000);
  const turn = startAssistantTurn(streaming, 'model-x', 5001);
  await v.save(streaming, () => store.save(streaming));
  for (const piece of [
    'Writes go to a temporary file, ',
    'then a rename puts it in place, ',
    'so readers see ',
  ]) {
    appendToTurn(streaming, turn.id, { text: piece });
    await v.save(streaming, () => store.save(streaming));
  }
  appendToTurn(streaming, turn.id, { text: 'the old file or the new one.' });
  finishTurn(streaming, turn.id, { status: 'complete' }, 5002);
  await v.save(streaming, () => store.save(streaming));

  const renamed = cloneConversation(v.saved.get('a-first')![0]);
  renamed.title = 'First, renamed';
  await v.save(renamed, () => store.rename('a-first', 'First, renamed'));

  v.deleteStarted.add('b-second');
  await store.delete('b-second');
  v.deleted.add('b-second');

  const scheduled = finished('d-scheduled', 'A scheduled save', 6000);
  await v.save(scheduled, async () => {
    store.scheduleSave(scheduled);
    await store.flush();
  });
}

/** A fresh folder holding two finished conversations, written by a store that does not crash. */
async function seededFolder(v: Versions): Promise<string> {
  const root = await fsp.mkdtemp(join(tmpdir(), 'mg-durability-'));
  const store = new ConversationStore(restartedFs(), root);
  for (const conv of [finished('a-first', 'First', 1000), finished('b-second', 'Second', 2000)])
    await v.save(conv, () => store.save(conv));
  return root;
}

/** Runs the workload with a crash at `step`; returns the folder and what had been saved. */
async function crashRun(
  step: number,
  mode: CrashMode,
): Promise<{ root: string; v: Versions; fs: CrashingFs }> {
  const v = new Versions();
  const root = await seededFolder(v);
  const fs = new CrashingFs(step, mode);
  const store = new ConversationStore(fs, root, { saveIntervalMs: 10_000, onError: () => undefined });
  await workload(store, v).catch((error: unknown) => {
    if (!(error instanceof SimulatedCrash)) throw error;
  });
  // Writes still queued behind the crash fail too; let them settle before reading the folder.
  await store.flush().catch(() => undefined);
  return { root, v, fs };
}

/** Restarts on the folder and checks every conversation against what was saved. */
async function checkAfterRestart(root: string, v: Versions, where: string): Promise<void> {
  const store = new ConversationStore(restartedFs(), root);
  const { summaries, problems } = await store.list();
  assert.deepEqual(problems, [], `${where}: nothing reported unreadable after the restart`);
  const listed = new Set(summaries.map((s) => s.id));
  for (const [id, versions] of v.saved) {
    const { conversation, problems: loadProblems } = await store.load(id);
    assert.deepEqual(loadProblems, [], `${where}: ${id} loads without a problem`);
    const durable = v.acknowledged.get(id) ?? 0;
    if (!conversation) {
      const mayBeGone = durable === 0 || v.deleteStarted.has(id);
      assert.ok(mayBeGone, `${where}: ${id} was saved (version ${durable}) but is gone`);
      assert.ok(!listed.has(id), `${where}: ${id} is not listed once gone`);
      continue;
    }
    assert.ok(!v.deleted.has(id), `${where}: ${id} was deleted but came back`);
    assert.ok(listed.has(id), `${where}: ${id} is in the history list`);
    const match = versions.findIndex((saved) => JSON.stringify(saved) === JSON.stringify(conversation));
    assert.ok(match >= 0, `${where}: ${id} on disk is one of the versions saved`);
    assert.ok(
      match + 1 >= durable,
      `${where}: ${id} holds version ${match + 1}, older than saved ${durable}`,
    );
  }
  assert.equal(summaries.length, listed.size, `${where}: no duplicate in the list`);
}

describe('Conversation durability: a crash at every step of the chat store (real files)', function () {
  this.timeout(120_000);
  const roots: string[] = [];
  after(async () => {
    for (const root of roots) await fsp.rm(root, { recursive: true, force: true });
  });

  it('counts the steps of the workload without a crash', async () => {
    const { root, fs, v } = await crashRun(0, 'before');
    roots.push(root);
    assert.ok(fs.steps >= 20, `the workload writes enough to be interesting (${fs.steps} steps)`);
    await checkAfterRestart(root, v, 'no crash');
  });

  for (const mode of ['before', 'torn'] as const) {
    it(`after a crash ${mode === 'before' ? 'before' : 'halfway through'} each step, every file reads back`, async () => {
      const dry = await crashRun(0, mode);
      roots.push(dry.root);
      const total = dry.fs.steps;
      let crashed = 0;
      let leftTemps = 0;
      for (let step = 1; step <= total; step++) {
        const { root, v, fs } = await crashRun(step, mode);
        roots.push(root);
        assert.ok(fs.dead, `the crash happened at step ${step}`);
        crashed++;
        const names = await fsp.readdir(join(root, 'conversations')).catch(() => []);
        leftTemps += names.filter((n) => n.includes('.tmp-')).length;
        await checkAfterRestart(root, v, `crash ${mode} step ${step} (${fs.log.at(-1)})`);
      }
      assert.equal(crashed, total);
      console.log(`      ${total} crash points, ${leftTemps} temporary files left behind, all ignored`);
      if (mode === 'torn')
        assert.ok(leftTemps > 0, 'some crashes left a torn temporary file, which was ignored');
    });
  }

  it('while an answer streams, the file on disk is always readable and trails by about one save interval', async () => {
    const root = await fsp.mkdtemp(join(tmpdir(), 'mg-durability-stream-'));
    roots.push(root);
    const intervalMs = 50;
    const store = new ConversationStore(restartedFs(), root, { saveIntervalMs: intervalMs });
    const conv = createConversation('model-x', 1, 'streaming-now');
    addUserTurn(conv, 'Stream a long answer', undefined, 1);
    const turn = startAssistantTurn(conv, 'model-x', 2);
    const file = join(root, 'conversations', 'streaming-now.json');
    const seenLengths = new Set<number>();
    let worstLag = 0;
    for (let i = 0; i < 150; i++) {
      appendToTurn(conv, turn.id, { text: `chunk ${i}. ` });
      store.scheduleSave(conv); // what the chat session does on every streamed token
      await sleep(4);
      const text = await fsp.readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined) continue; // not written yet
      const parsed = parseConversationFile(text, 'streaming-now');
      assert.ok(parsed.ok, `the file is readable at chunk ${i}`);
      const onDisk = (parsed.value.turns[1] as AssistantTurn).content;
      assert.ok(turn.content.startsWith(onDisk), 'the file holds a prefix of the live answer');
      seenLengths.add(onDisk.length);
      worstLag = Math.max(worstLag, turn.content.length - onDisk.length);
    }
    await store.flush();
    const chunkLength = 'chunk 100. '.length;
    assert.ok(seenLengths.size >= 5, `the file grew during the stream (${seenLengths.size} sizes seen)`);
    // One interval of 50 ms holds about 12 chunks at 4 ms; a loaded machine may double that.
    assert.ok(worstLag <= chunkLength * 40, `the file trailed by at most ${worstLag} characters`);
    const saved = parseConversationFile(await fsp.readFile(file, 'utf8'), 'streaming-now');
    assert.ok(
      saved.ok && (saved.value.turns[1] as AssistantTurn).content === turn.content,
      'flush saves it all',
    );
  });
});
