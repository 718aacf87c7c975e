import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
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
