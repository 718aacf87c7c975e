import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { RankedPaths } from '../../../../src/chat/context/rankedPaths';
import { WorkerRanker } from '../../../../src/host/context/pathRanker';
import { workspacePaths } from '../../../bench/contextWorkspace';

const QUERIES = ['invoiceServ', 'sessionTok', 'api/order', 'billing pay', 'test schema', 'zzzz', ''];

// The worker is the compiled src/host/context/fileIndexWorker.ts next to the compiled pathRanker (out/), as
// dist/fileIndexWorker.js is next to the extension's bundle.
describe('host/context/pathRanker (a real worker thread)', function () {
  this.timeout(60_000);
  const paths = workspacePaths(8000);

  it('answers as the same changes made in this thread, applied in order', async () => {
    const failures: unknown[] = [];
    const worker = new WorkerRanker(
      () => [],
      (error) => failures.push(error),
    );
    const here = new RankedPaths();
    try {
      for (let start = 0; start < paths.length; start += 1500) {
        worker.add(paths.slice(start, start + 1500));
        here.add(paths.slice(start, start + 1500));
      }
      const gone = paths.filter((_, i) => i % 7 === 0);
      worker.remove(gone);
      here.remove(gone);
      for (const query of QUERIES)
        assert.deepEqual(await worker.search(query, 25), here.search(query, 25), query);
      worker.clear();
      worker.add(paths.slice(0, 10));
      assert.deepEqual(await worker.search('', 50), paths.slice(0, 10));
      assert.deepEqual(failures, []);
    } finally {
      worker.dispose();
    }
  });

  it('after dispose, answers nothing, also to a search that was waiting', async () => {
    const worker = new WorkerRanker(
      () => [],
      () => undefined,
    );
    worker.add(paths);
    const waiting = worker.search('invoice', 10);
    worker.dispose();
    assert.deepEqual(await waiting, []);
    assert.deepEqual(await worker.search('invoice', 10), []);
  });

  it('without its worker, says so and ranks in this thread from the index list', async () => {
    const failures: unknown[] = [];
    const listed = paths.slice(0, 3000);
    const worker = new WorkerRanker(
      () => listed,
      (error) => failures.push(error),
      join(__dirname, 'no-such-worker.js'),
    );
    try {
      const found = await worker.search('invoiceServ', 10);
      assert.equal(failures.length, 1);
      const here = new RankedPaths();
      here.add(listed);
      assert.deepEqual(found, here.search('invoiceServ', 10));
      worker.add(['packages/core/src/late/invoiceServiceLate.ts']);
      assert.ok(
        (await worker.search('invoiceServiceLate', 5)).includes(
          'packages/core/src/late/invoiceServiceLate.ts',
        ),
      );
    } finally {
      worker.dispose();
    }
  });
});
