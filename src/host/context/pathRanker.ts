import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RankedPaths } from '../../chat/context/rankedPaths';

/** What the file index asks of the thread that ranks its paths. */
export type RankerRequest =
  | { type: 'add'; paths: string[] }
  | { type: 'remove'; paths: string[] }
  | { type: 'clear' }
  | { type: 'search'; id: number; query: string; limit: number };

/** The ranking thread's answer to a search. */
export interface RankerReply {
  id: number;
  paths: string[];
}

/** The file index's ranked paths, kept in a worker thread; changes apply in the order they are made. */
export interface PathRanker {
  add(paths: string[]): void;
  remove(paths: string[]): void;
  clear(): void;
  search(query: string, limit: number): Promise<string[]>;
  dispose(): void;
}

/** The worker's script: next to this module's bundle (dist/) or its compiled copy (out/). */
export const RANKER_WORKER_FILE = join(__dirname, 'fileIndexWorker.js');

/**
 * A ranker in a worker thread. Preparing 50,000 paths for fuzzy ranking keeps about 70 MB of small objects
 * alive, and the young-generation collections that copy them paused the extension host for 100-250 ms however
 * the work was sliced; in a worker those pauses stop only the worker. If the worker cannot run, the ranker
 * continues in this thread from `current()` (the index's own list), so the picker keeps working.
 */
export class WorkerRanker implements PathRanker {
  private worker: Worker | undefined;
  private local: RankedPaths | undefined;
  private nextId = 0;
  private disposed = false;
  private readonly pending = new Map<number, { query: string; limit: number; resolve(p: string[]): void }>();

  constructor(
    private readonly current: () => Iterable<string>,
    private readonly onFailure: (error: unknown) => void,
    file = RANKER_WORKER_FILE,
  ) {
    try {
      const worker = new Worker(file);
      worker.unref();
      worker.on('message', (reply: RankerReply) => this.answered(reply));
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => {
        if (this.worker) this.fail(new Error(`the file index's worker exited with code ${code}`));
      });
      this.worker = worker;
    } catch (error) {
      this.fail(error);
    }
  }

  add(paths: string[]): void {
    if (paths.length) this.send({ type: 'add', paths }, (r) => r.add(paths));
  }

  remove(paths: string[]): void {
    if (paths.length) this.send({ type: 'remove', paths }, (r) => r.remove(paths));
  }

  clear(): void {
    this.send({ type: 'clear' }, (r) => r.clear());
  }

  search(query: string, limit: number): Promise<string[]> {
    if (this.disposed) return Promise.resolve([]);
    if (!this.worker) return Promise.resolve(this.fallback().search(query, limit));
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.pending.set(id, { query, limit, resolve });
      this.worker?.postMessage({ type: 'search', id, query, limit } satisfies RankerRequest);
    });
  }

  dispose(): void {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    for (const { resolve } of this.pending.values()) resolve([]);
    this.pending.clear();
    this.local = undefined;
  }

  private send(request: RankerRequest, locally: (r: RankedPaths) => void): void {
    if (this.worker) this.worker.postMessage(request);
    // Without the worker the list is rebuilt from the index's own on the next search: nothing to mirror.
    else if (this.local) locally(this.local);
  }

  private answered(reply: RankerReply): void {
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    waiting?.resolve(reply.paths);
  }

  private fail(error: unknown): void {
    if (this.disposed) return;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.onFailure(error);
    for (const { query, limit, resolve } of this.pending.values())
      resolve(this.fallback().search(query, limit));
    this.pending.clear();
  }

  /** The ranker in this thread, built from the index's list when first needed. */
  private fallback(): RankedPaths {
    if (!this.local) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { RankedPaths } = require('./fileIndexWorker') as typeof import('./fileIndexWorker');
      this.local = new RankedPaths();
      this.local.add([...this.current()]);
    }
    return this.local;
  }
}
