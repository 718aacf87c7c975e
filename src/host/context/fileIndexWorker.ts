/**
 * The worker thread of the file index (pathRanker.ts): holds the prepared paths and answers searches. Without a
 * worker, the extension host requires this module for `RankedPaths` and ranks itself (no parent port: nothing
 * listens), so fuzzysort is never in the extension's own bundle.
 */
import { parentPort } from 'node:worker_threads';
import { RankedPaths } from '../../chat/context/rankedPaths';
import type { RankerReply, RankerRequest } from './pathRanker';

export { RankedPaths };

const ranked = new RankedPaths();

parentPort?.on('message', (request: RankerRequest) => {
  if (request.type === 'add') ranked.add(request.paths);
  else if (request.type === 'remove') ranked.remove(request.paths);
  else if (request.type === 'clear') ranked.clear();
  else {
    const reply: RankerReply = { id: request.id, paths: ranked.search(request.query, request.limit) };
    parentPort?.postMessage(reply);
  }
});
