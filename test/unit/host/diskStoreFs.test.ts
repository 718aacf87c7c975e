import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationStore, type StoreFs } from '../../../src/chat/store';
import fc from 'fast-check';
import { bytesAfter, diskStoreFs } from '../../../src/host/diskStoreFs';
import { joinBytes } from '../../../src/chat/storeFs';
import { addUserTurn, appendToTurn } from '../../../src/chat/conversation';
import { sample } from '../chat/storeFixtures';

/**
 * How `workspace.fs.rename(…, { overwrite: true })` replaces a file from a code-server (or remote) extension host:
 * the window's file service deletes the target, creates the folder, then moves the file, each step a request.
 */
function deleteThenMove(fs: StoreFs): StoreFs {
  return {
    ...fs,
    rename: async (from, to, options) => {
      if (options.overwrite && (await fs.exists(to))) await fs.delete(to);
      await new Promise((resolve) => setTimeout(resolve, 1)); // the next request's round trip
      await fs.rename(from, to, { overwrite: false });
    },
  };
}

/** Saves one conversation `times` times as an answer streams, and counts the polls that found its file missing. */
async function missingWhileSaving(fs: StoreFs, root: string, times: number): Promise<number> {
  const store = new ConversationStore(fs, root);
  const conv = sample('streamed');
  await store.save(conv);
  const file = join(root, 'conversations', 'streamed.json');
  let missing = 0;
  let saving = true;
  const poll = (async () => {
    while (saving) {
      if (!existsSync(file)) missing++;
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  for (let i = 0; i < times; i++) {
    appendToTurn(conv, conv.turns[1].id, { text: ` more ${i}` });
    await store.save(conv);
  }
  saving = false;
  await poll;
  return missing;
}

describe('diskStoreFs (the chat store on the extension host disk)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-diskstore-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a conversation saved again and again is never missing from its folder', async () => {
    assert.equal(await missingWhileSaving(diskStoreFs(), dir, 40), 0);
  });

  it('whereas a rename that deletes the target first (workspace.fs in the window) leaves it missing between', async () => {
    // The check above can fail: this is the replace the crash trials caught cut between its halves.
    assert.ok((await missingWhileSaving(deleteThenMove(diskStoreFs()), dir, 40)) > 0);
  });

  it('a rename without overwrite never replaces an existing file and keeps the source', async () => {
    const fs = diskStoreFs();
    writeFileSync(join(dir, 'a.json'), 'kept');
    writeFileSync(join(dir, 'a.json.tmp-1'), 'newer');
    await assert.rejects(fs.rename(join(dir, 'a.json.tmp-1'), join(dir, 'a.json'), { overwrite: false }), {
      code: 'EEXIST',
    });
    assert.equal(readFileSync(join(dir, 'a.json'), 'utf8'), 'kept');
    assert.equal(readFileSync(join(dir, 'a.json.tmp-1'), 'utf8'), 'newer');
    await fs.rename(join(dir, 'a.json.tmp-1'), join(dir, 'b.json'), { overwrite: false });
    assert.equal(readFileSync(join(dir, 'b.json'), 'utf8'), 'newer');
    assert.ok(!existsSync(join(dir, 'a.json.tmp-1')), 'moved, not copied');
  });

  it('stat says undefined for a missing file and tells two versions apart', async () => {
    const fs = diskStoreFs();
    const file = join(dir, 'c.json');
    assert.equal(await fs.stat(file), undefined);
    writeFileSync(file, 'one');
    const first = await fs.stat(file);
    writeFileSync(file, 'three');
    assert.notDeepEqual(await fs.stat(file), first);
  });

  it('writes parts as one file, emptying what was there; bytesAfter leaves what a short write did not write', async () => {
    const fs = diskStoreFs();
    const file = join(dir, 'parts.json');
    writeFileSync(file, 'an older and much longer file');
    const enc = new TextEncoder();
    await fs.writeFileParts!(file, [enc.encode('{"a":'), new Uint8Array(0), enc.encode('"ü"}')]);
    assert.equal(readFileSync(file, 'utf8'), '{"a":"ü"}');
    const part = fc.uint8Array({ maxLength: 6 });
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), fc.nat(40), (parts, count) => {
        const whole = joinBytes(parts);
        assert.deepEqual(joinBytes(bytesAfter(parts, count)), whole.subarray(Math.min(count, whole.length)));
        assert.ok(bytesAfter(parts, count).every((p) => p.length > 0));
      }),
    );
  });

  it('the store saves through it a file that reads back whole, the leading save too', async () => {
    const store = new ConversationStore(diskStoreFs(), dir, { saveIntervalMs: 0 });
    const conv = sample('parts', 'Grüße 👋');
    await store.save(conv);
    addUserTurn(conv, 'Next — “quoted”', undefined, 9000);
    store.scheduleSave(conv);
    await store.flush();
    const saved = JSON.parse(readFileSync(join(dir, 'conversations', 'parts.json'), 'utf8')) as {
      conversation: unknown;
    };
    assert.deepEqual(saved.conversation, JSON.parse(JSON.stringify(conv)));
  });
});
