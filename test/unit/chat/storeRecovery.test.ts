import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { serializeConversation } from '../../../src/chat/storeFormat';
import { LEFTOVER_TEMP_MS } from '../../../src/chat/storeFs';
import { sample, useTempStore } from './storeFixtures';

describe('chat/store crash and corruption recovery (real temp directory)', function () {
  const ctx = useTempStore();
  it('a crash during the rename leaves the previous file intact and readable', async () => {
    await ctx.store.save(sample('a', 'Version one'));
    ctx.fs.before = (op) => {
      if (op === 'rename') throw new Error('simulated crash');
    };
    await assert.rejects(ctx.store.save(sample('a', 'Version two')), /simulated crash/);
    ctx.fs.before = () => undefined;
    const loaded = await ctx.reopen().load('a');
    assert.equal(loaded.conversation?.title, 'Version one');
    assert.deepEqual(
      await fsp.readdir(join(ctx.root, 'conversations')),
      ['a.json'],
      'the temp file was removed',
    );
  });

  it('a write torn before the rename (temp file left behind) does not disturb listing', async () => {
    await ctx.store.save(sample('a'));
    await fsp.writeFile(`${ctx.convFile('a')}.tmp-deadbeef`, '{"version":1,"conversa');
    const { summaries, problems } = await ctx.reopen().list();
    assert.deepEqual(problems, []);
    assert.deepEqual(
      summaries.map((s) => s.id),
      ['a'],
    );
  });

  /** Writes a temporary file of `id` as a killed writer leaves it, `ageMs` old. */
  async function leftover(id: string, suffix: string, text: string, ageMs: number): Promise<string> {
    const path = `${ctx.convFile(id)}.tmp-${suffix}`;
    await fsp.writeFile(path, text);
    const when = new Date(Date.now() - ageMs);
    await fsp.utimes(path, when, when);
    return path;
  }

  it('a complete save left before its rename (writer killed) replaces the older file once it is a minute old', async () => {
    await ctx.store.save(sample('a', 'Saved', 1000));
    await ctx.store.save(sample('b', 'Kept', 1000));
    const old = LEFTOVER_TEMP_MS + 5000;
    await leftover('a', 'aaaa1111', serializeConversation(sample('a', 'Newer, never renamed', 2000)), old);
    await leftover('a', 'aaaa2222', serializeConversation(sample('a', 'Older temp', 1500)), old);
    await leftover('a', 'aaaa3333', '{"version":1,"conversa', old);
    // As new as the file, or older: only deleted. Too young: another window may be about to rename it.
    await leftover('b', 'bbbb1111', serializeConversation(sample('b', 'Same age', 1000)), old);
    const young = await leftover(
      'b',
      'bbbb2222',
      serializeConversation(sample('b', 'In flight', 3000)),
      1000,
    );

    const reopened = ctx.reopen();
    const { summaries, problems } = await reopened.list();
    assert.deepEqual(problems, []);
    assert.equal(summaries.find((s) => s.id === 'a')?.title, 'Newer, never renamed');
    assert.equal((await reopened.load('a')).conversation?.title, 'Newer, never renamed');
    assert.equal((await reopened.load('b')).conversation?.title, 'Kept');
    assert.deepEqual(
      (await fsp.readdir(join(ctx.root, 'conversations'))).filter((n) => n.includes('.tmp-')),
      [young.split('/').at(-1)],
      'the settled temporary files are gone; the young one stays',
    );
  });

  it('leftover temporary files next to a file that does not parse (a newer format) are left alone', async () => {
    const future = JSON.stringify({ version: 2, conversation: { id: 'z' } });
    await fsp.mkdir(join(ctx.root, 'conversations'), { recursive: true });
    await fsp.writeFile(ctx.convFile('z'), future);
    const temp = await leftover(
      'z',
      'zzzz1111',
      serializeConversation(sample('z', 'Old format', 9000)),
      LEFTOVER_TEMP_MS * 2,
    );
    await ctx.reopen().list();
    assert.equal(await fsp.readFile(ctx.convFile('z'), 'utf8'), future);
    assert.ok((await fsp.readdir(join(ctx.root, 'conversations'))).includes(temp.split('/').at(-1)!));
  });

  it('a corrupt file is backed up, reported, and the other conversations still list', async () => {
    await ctx.store.save(sample('good1', 'One', 1));
    await ctx.store.save(sample('good2', 'Two', 2));
    const garbage = '{"version":1,"conversation":{"id":"bad","ti';
    await fsp.writeFile(ctx.convFile('bad'), garbage);
    const { summaries, problems } = await ctx.store.list();
    assert.deepEqual(
      summaries.map((s) => s.id),
      ['good2', 'good1'],
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0], /conversations\/bad\.json/);
    assert.match(problems[0], /not valid JSON/);
    const names = await fsp.readdir(join(ctx.root, 'conversations'));
    const backup = names.find((n) => /^bad\.json\.corrupt-\d{8}T\d{9}Z\.bak$/.test(n));
    assert.ok(backup, `backup among ${names.join(', ')}`);
    assert.ok(
      problems[0].includes(join(ctx.root, 'conversations', backup)),
      'the message says where the backup is',
    );
    assert.equal(await fsp.readFile(join(ctx.root, 'conversations', backup), 'utf8'), garbage);
    assert.ok(!names.includes('bad.json'));
    assert.deepEqual((await ctx.store.list()).problems, [], 'reported once');
  });

  it('a file listed in the index but corrupt is caught on load and leaves the list', async () => {
    await ctx.store.save(sample('a', 'A', 1));
    await ctx.store.save(sample('b', 'B', 2));
    await fsp.writeFile(
      ctx.convFile('a'),
      JSON.stringify({ version: 1, conversation: { id: 'a', turns: 'x' } }),
    );
    const { conversation, problems } = await ctx.store.load('a');
    assert.equal(conversation, undefined);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /kept as ".*a\.json\.corrupt-.*\.bak"/);
    assert.deepEqual(
      (await ctx.store.list()).summaries.map((s) => s.id),
      ['b'],
    );
  });

  it('a corrupt index is backed up and rebuilt from the conversation files', async () => {
    for (const id of ['a', 'b', 'c']) await ctx.store.save(sample(id));
    await fsp.writeFile(join(ctx.root, 'index.json'), 'not json at all');
    const { summaries, problems } = await ctx.reopen().list();
    assert.deepEqual(summaries.map((s) => s.id).sort(), ['a', 'b', 'c']);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /history index/);
    const names = await fsp.readdir(ctx.root);
    assert.ok(names.some((n) => n.startsWith('index.json.corrupt-')));
    const rebuilt = JSON.parse(await fsp.readFile(join(ctx.root, 'index.json'), 'utf8')) as {
      conversations: unknown[];
    };
    assert.equal(rebuilt.conversations.length, 3);
  });

  it('a file from a newer format version is skipped but left untouched', async () => {
    await ctx.store.save(sample('a'));
    const future = JSON.stringify({ version: 2, conversation: { id: 'z' } });
    await fsp.writeFile(ctx.convFile('z'), future);
    const { summaries, problems } = await ctx.store.list();
    assert.deepEqual(
      summaries.map((s) => s.id),
      ['a'],
    );
    assert.match(problems[0], /newer version/);
    assert.equal(await fsp.readFile(ctx.convFile('z'), 'utf8'), future);
  });
});
