import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { appendToTurn, createConversation, startAssistantTurn } from '../../../src/chat/conversation';
import { ConversationStore } from '../../../src/chat/store';
import { NodeStoreFs } from './nodeStoreFs';
import { sample, sleep, useTempStore } from './storeFixtures';
import { until } from '../../support/poll';

describe('chat/store (real temp directory)', function () {
  const ctx = useTempStore();
  it('lists nothing in a fresh folder without writing anything', async () => {
    assert.deepEqual(await ctx.store.list(), { summaries: [], problems: [] });
    assert.equal(ctx.fs.count('writeFile'), 0);
  });

  it('hasAny says whether a conversation was ever saved, from a fresh store too', async () => {
    assert.equal(await ctx.store.hasAny(), false);
    await ctx.store.save(sample('a', 'First', 1000));
    assert.equal(await ctx.store.hasAny(), true);
    const fresh = new NodeStoreFs();
    assert.equal(await new ConversationStore(fresh, ctx.root).hasAny(), true);
    assert.equal(fresh.count('readFile'), 0, 'no conversation is parsed');
  });

  it('saves, lists newest first and loads back, in the documented layout', async () => {
    const first = sample('a', 'First', 1000);
    await ctx.store.save(first);
    await ctx.store.save(sample('b', 'Second', 2000));
    const { summaries, problems } = await ctx.store.list();
    assert.deepEqual(problems, []);
    assert.deepEqual(
      summaries.map((s) => [s.id, s.title, s.turnCount]),
      [
        ['b', 'Second', 2],
        ['a', 'First', 2],
      ],
    );
    const fresh = ctx.reopen();
    assert.deepEqual((await fresh.load('a')).conversation, first);
    assert.deepEqual(await fresh.load('missing'), { conversation: undefined, problems: [] });
    const file = JSON.parse(await fsp.readFile(ctx.convFile('a'), 'utf8')) as { version: number };
    assert.equal(file.version, 1);
    const index = JSON.parse(await fsp.readFile(join(ctx.root, 'index.json'), 'utf8')) as {
      conversations: unknown[];
    };
    assert.equal(index.conversations.length, 2);
    assert.deepEqual((await fsp.readdir(join(ctx.root, 'conversations'))).sort(), ['a.json', 'b.json']);
  });

  it('lists 400 conversations quickly from the index, and can rebuild it', async function () {
    this.timeout(60_000);
    await Promise.all(Array.from({ length: 400 }, (_, i) => ctx.store.save(sample(`c${i}`, `Chat ${i}`, i))));
    const fresh = new NodeStoreFs();
    const reader = new ConversationStore(fresh, ctx.root);
    const start = performance.now();
    const { summaries, problems } = await reader.list();
    const elapsed = performance.now() - start;
    assert.equal(summaries.length, 400);
    assert.deepEqual(problems, []);
    assert.equal(summaries[0].id, 'c399');
    assert.equal(fresh.count('readFile'), 1, 'only index.json is read');
    assert.ok(elapsed < 500, `list took ${elapsed.toFixed(0)} ms`);
    await fsp.rm(join(ctx.root, 'index.json'));
    assert.equal((await ctx.reopen().list()).summaries.length, 400);
  });

  it('scheduleSave coalesces a burst into one write and flush writes the latest state', async () => {
    const conv = sample('s');
    const turn = startAssistantTurn(conv, 'model-x');
    for (let i = 0; i < 100; i++) {
      appendToTurn(conv, turn.id, { text: `t${i} ` });
      ctx.store.scheduleSave(conv);
    }
    await ctx.store.flush();
    // The burst's first request is written at once (the question), the other 99 in one write.
    assert.equal(ctx.fs.count('writeFile', 's.json'), 2);
    const saved = (await ctx.reopen().load('s')).conversation;
    assert.ok(saved?.turns[2].content.endsWith('t99 '));
  });

  it('scheduleSave saves by itself within the interval and at most once per interval', async () => {
    const conv = sample('t');
    const turn = startAssistantTurn(conv, 'model-x');
    const started = Date.now();
    while (Date.now() - started < 400) {
      appendToTurn(conv, turn.id, { text: 'x' });
      ctx.store.scheduleSave(conv);
      await sleep(5);
    }
    const burstMs = Date.now() - started;
    const duringBurst = ctx.fs.count('writeFile', 't.json');
    // Saved without flush: a crash after the last request loses nothing.
    await until(
      async () => (await ctx.reopen().load('t')).conversation?.turns[2].content === turn.content,
      5000,
      'the last request on disk without a flush',
    );
    const writes = ctx.fs.count('writeFile', 't.json');
    // Bounds from the time the burst really took, so a loaded machine's late timers do not fail the test.
    assert.ok(duringBurst >= 2, `${duringBurst} writes during a ${burstMs} ms burst at a 50 ms interval`);
    const most = Math.ceil(burstMs / 50) + 2;
    assert.ok(
      writes <= most,
      `${writes} writes for a ${burstMs} ms burst at a 50 ms interval (at most ${most})`,
    );
  });

  it('scheduleSave writes at once when the conversation was not saved within the interval', async () => {
    // A kill -9 of the extension host just after a send must not lose the question (crash trials).
    const slow = new ConversationStore(ctx.fs, ctx.root, { saveIntervalMs: 60_000 });
    const conv = sample('q', 'The question');
    slow.scheduleSave(conv);
    await until(() => ctx.fs.exists(ctx.convFile('q')), 2000, 'the first save');
    assert.equal((await ctx.reopen().load('q')).conversation?.turns[0].content, 'The question');
    assert.equal(ctx.fs.count('writeFile', 'q.json'), 1, 'one write, not one per request');
    slow.scheduleSave(conv);
    await sleep(50);
    assert.equal(ctx.fs.count('writeFile', 'q.json'), 1, 'later requests within the interval wait for it');
    await slow.flush();
  });

  it('puts back a conversation whose file a crash removed mid-rename, but never one being written', async () => {
    // VS Code renames over a file as delete + move: a kill between them leaves only the temporary file.
    await ctx.store.save(sample('k', 'Kept'));
    const conv = (await ctx.reopen().load('k')).conversation!;
    conv.title = 'Kept, newer';
    await fsp.writeFile(
      `${ctx.convFile('k')}.tmp-0a1b2c3d`,
      JSON.stringify({ version: 1, conversation: conv }),
    );
    await fsp.writeFile(`${ctx.convFile('k')}.tmp-torn0000`, '{"version":1,"conv');
    await fsp.rm(ctx.convFile('k'));
    const restarted = ctx.reopen();
    const { summaries, problems } = await restarted.list();
    assert.deepEqual(problems, []);
    assert.deepEqual(
      summaries.map((s) => s.title),
      ['Kept, newer'],
    );
    assert.equal((await restarted.load('k')).conversation?.title, 'Kept, newer');
    await restarted.delete('k');
    assert.deepEqual((await ctx.reopen().list()).summaries, [], 'deleted with its temporary files');

    // A first save paused between its temporary file and its rename: list() leaves that file alone.
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    ctx.fs.before = async (op, path) => {
      if (op === 'rename' && path.includes('/n.json.tmp-')) await paused;
    };
    const saving = ctx.store.save(sample('n', 'New'));
    while (!(await fsp.readdir(join(ctx.root, 'conversations'))).some((n) => n.startsWith('n.json.tmp-'))) {
      await sleep(5);
    }
    await ctx.store.list();
    release();
    await saving;
    assert.equal((await ctx.reopen().load('n')).conversation?.title, 'New');
  });

  it('serialises writes of one conversation so the last save wins', async () => {
    // Earlier writes are made slower, so without serialisation an old version would land last.
    let started = 0;
    ctx.fs.before = async (op, path) => {
      if (op === 'writeFile' && path.includes('/r.json')) await sleep(Math.max(0, 10 - started++) * 5);
    };
    // One conversation changing between saves (each save writes it as it was when called).
    const conv = sample('r', 'Version 0');
    const saves = Array.from({ length: 10 }, (_, i) => {
      conv.title = `Version ${i}`;
      return ctx.store.save(conv);
    });
    await Promise.all(saves);
    const loaded = await ctx.reopen().load('r');
    assert.equal(loaded.conversation?.title, 'Version 9');
  });

  it('deletes and renames', async () => {
    await ctx.store.save(sample('a', 'Alpha', 1));
    await ctx.store.save(sample('b', 'Beta', 2));
    await ctx.store.delete('a');
    assert.deepEqual(
      (await ctx.store.list()).summaries.map((s) => s.id),
      ['b'],
    );
    assert.equal(await ctx.fs.exists(ctx.convFile('a')), false);
    const renamed = await ctx.store.rename('b', '  New   name ');
    assert.equal(renamed?.title, 'New name');
    assert.equal((await ctx.reopen().list()).summaries[0].title, 'New name');
    assert.equal(await ctx.store.rename('missing', 'x'), undefined);
    await assert.rejects(ctx.store.rename('b', '   '), /cannot be empty/);
  });

  it('renaming a conversation with a scheduled save renames the live object', async () => {
    const live = sample('l', 'Original');
    ctx.store.scheduleSave(live);
    await ctx.store.rename('l', 'Renamed');
    assert.equal(live.title, 'Renamed');
    ctx.store.scheduleSave(live);
    await ctx.store.flush();
    assert.equal((await ctx.reopen().load('l')).conversation?.title, 'Renamed');
  });

  it('refuses ids that could escape the folder', async () => {
    const loaded = await ctx.store.load('../../etc/passwd');
    assert.equal(loaded.conversation, undefined);
    assert.match(loaded.problems[0], /Invalid conversation id/);
    await assert.rejects(ctx.store.save(createConversation('m', 0, '../x')), /Invalid conversation id/);
    await assert.rejects(ctx.store.delete('a/b'), /Invalid conversation id/);
  });

  it('two stores on the same folder (two windows) both see every conversation', async () => {
    const other = ctx.reopen();
    await ctx.store.save(sample('mine', 'Mine', 1));
    await other.save(sample('theirs', 'Theirs', 2));
    assert.deepEqual((await ctx.store.list()).summaries.map((s) => s.id).sort(), ['mine', 'theirs']);
    const index = JSON.parse(await fsp.readFile(join(ctx.root, 'index.json'), 'utf8')) as {
      conversations: unknown[];
    };
    assert.equal(index.conversations.length, 2, 'read-modify-write kept both entries');
  });

  it('reports a failed background save through onError', async () => {
    const errors: string[] = [];
    const failing = new ConversationStore(ctx.fs, ctx.root, {
      saveIntervalMs: 10,
      onError: (_e, id) => errors.push(id),
    });
    ctx.fs.before = (op) => {
      if (op === 'writeFile') throw new Error('disk full');
    };
    failing.scheduleSave(sample('f'));
    await until(() => errors.length >= 2, 5000, 'both saves to fail');
    await sleep(30); // nothing more comes
    assert.deepEqual(errors, ['f', 'f'], 'the save at once and the scheduled one, each reported');
  });
});
