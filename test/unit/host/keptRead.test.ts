import * as assert from 'node:assert/strict';
import { KeptRead } from '../../../src/host/keptRead';

/** A read whose every call is counted and answered when the test says so. */
function controlledRead<T>(): {
  read: () => Promise<T>;
  calls: () => number;
  resolve(value: T): void;
  reject(error: Error): void;
} {
  const pending: Array<{ resolve(value: T): void; reject(error: Error): void }> = [];
  let calls = 0;
  return {
    read: () => {
      calls++;
      return new Promise<T>((resolve, reject) => pending.push({ resolve, reject }));
    },
    calls: () => calls,
    resolve: (value) => pending.shift()!.resolve(value),
    reject: (error) => pending.shift()!.reject(error),
  };
}

describe('KeptRead (the API key cache)', () => {
  it('reads once and answers later calls from the kept value', async () => {
    let calls = 0;
    const kept = new KeptRead(() => {
      calls++;
      return Promise.resolve('key-1');
    });
    assert.equal(await kept.get(), 'key-1');
    assert.equal(await kept.get(), 'key-1');
    assert.equal(await kept.get(), 'key-1');
    assert.equal(calls, 1);
  });

  it('shares one read between callers that ask while it is in flight', async () => {
    const source = controlledRead<string>();
    const kept = new KeptRead(source.read);
    const a = kept.get();
    const b = kept.get();
    assert.equal(source.calls(), 1);
    source.resolve('key-1');
    assert.deepEqual(await Promise.all([a, b]), ['key-1', 'key-1']);
  });

  it('reads again after invalidate (the secret changed, was set or cleared)', async () => {
    let value: string | undefined = 'key-1';
    let calls = 0;
    const kept = new KeptRead(() => {
      calls++;
      return Promise.resolve(value);
    });
    assert.equal(await kept.get(), 'key-1');
    value = 'key-2';
    assert.equal(await kept.get(), 'key-1', 'kept until invalidated');
    kept.invalidate();
    assert.equal(await kept.get(), 'key-2');
    value = undefined;
    kept.invalidate();
    assert.equal(await kept.get(), undefined);
    assert.equal(await kept.get(), undefined, 'an absent key is kept too');
    assert.equal(calls, 3);
  });

  it('does not keep a failed read: the next call reads again', async () => {
    let calls = 0;
    const kept = new KeptRead(() => {
      calls++;
      return calls === 1 ? Promise.reject(new Error('secret storage unavailable')) : Promise.resolve('key-1');
    });
    await assert.rejects(kept.get(), /unavailable/);
    assert.equal(await kept.get(), 'key-1');
    assert.equal(calls, 2);
  });

  it('turns a read that throws at once into a rejection, not kept', async () => {
    let calls = 0;
    const kept = new KeptRead<string>(() => {
      calls++;
      if (calls === 1) throw new Error('no storage');
      return 'key-1';
    });
    await assert.rejects(kept.get(), /no storage/);
    assert.equal(await kept.get(), 'key-1');
  });

  it('does not keep a read invalidated while in flight: its callers get it, later callers read again', async () => {
    const source = controlledRead<string>();
    const kept = new KeptRead(source.read);
    const before = kept.get();
    kept.invalidate();
    const after = kept.get();
    assert.equal(source.calls(), 2);
    source.resolve('old-key');
    source.resolve('new-key');
    assert.equal(await before, 'old-key');
    assert.equal(await after, 'new-key');
    assert.equal(await kept.get(), 'new-key');
    assert.equal(source.calls(), 2);
  });

  it('a failure of an invalidated read does not drop the newer kept value', async () => {
    const source = controlledRead<string>();
    const kept = new KeptRead(source.read);
    const before = kept.get();
    kept.invalidate();
    const after = kept.get();
    source.reject(new Error('late failure'));
    source.resolve('new-key');
    await assert.rejects(before, /late failure/);
    assert.equal(await after, 'new-key');
    assert.equal(await kept.get(), 'new-key');
    assert.equal(source.calls(), 2);
  });
});
