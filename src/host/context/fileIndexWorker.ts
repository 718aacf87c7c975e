/** The worker thread of the file index (pathRanker.ts): holds the prepared paths and answers searches. */
import { parentPort } from 'node:worker_threads';
import { RankedPaths } from '../../chat/context';
import type { RankerReply, RankerRequest } from './pathRanker';

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
