/**
 * Durable chat history over an injected filesystem (`vscode.workspace.fs` in the extension, Node fs in tests).
 *
 * The conversation files are the truth; `index.json` is only a cache of their summaries so the
 * history list opens without reading hundreds of files. `list()` reconciles the cache with the
 * directory, so a crash between the two writes, or a second VS Code window sharing the folder,
 * costs at most a few extra reads. Every write goes to a temporary file that is then renamed over
 * the target, so a crash leaves either the old or the new file, never half of one.
 */
import * as l10n from '@vscode/l10n';
import { Coalescer } from './coalescer';
import { newId, summarize } from './conversation';
import {
  CONVERSATION_FILE_END,
  conversationFileStart,
  isValidConversationId,
  parseConversationFile,
  parseIndex,
  serializeIndex,
  turnsJson,
} from './storeFormat';
import {
  backUpCorrupt,
  errorText,
  noop,
  recoverInterruptedRenames,
  settleLeftoverTemps,
  tempFilesOf,
  writeFileAtomic,
  type ConversationStoreOptions,
  type ListResult,
  type LoadResult,
  type StoreFs,
} from './storeFs';
import type { Conversation, ConversationSummary, Turn } from './types';
import { keepsEverythingOf, sameStamp, type FileStamp } from './writeGuard';

export type { ConversationStoreOptions, ListResult, LoadResult, StoreFs } from './storeFs';

const encoder = new TextEncoder();

/**
 * The bytes of `conv`'s file, in parts: its turns are `joined`, the UTF-8 of a run of turn JSON (`turnsJson`)
 * that an earlier save encoded, followed by `more`, the JSON of the turns after them (either run possibly
 * empty). Parts, not one array: the file system writes them in one call, and a 300 KB copy is not made.
 */
function fileParts(conv: Conversation, joined: Uint8Array, more: string): Uint8Array[] {
  const start = encoder.encode(conversationFileStart(conv));
  const end = encoder.encode(`${joined.length && more ? ',' : ''}${more}${CONVERSATION_FILE_END}`);
  return [start, joined, end];
}

type IndexMap = Map<string, ConversationSummary>;

const decoder = new TextDecoder();
const invalidId = (id: string): Error => new Error(`Invalid conversation id "${id}".`);
const FILE_PATTERN = /^([A-Za-z0-9_-]{1,128})\.json$/;

/** Saved conversations under `rootPath`: `conversations/<id>.json` files and an `index.json` cache. */
export class ConversationStore {
  private readonly dir: string;
  private readonly indexPath: string;
  private readonly now: () => number;
  private readonly saveIntervalMs: number;
  /** Tail of the write chain of each conversation, so writes of one file never interleave. */
  private readonly chains = new Map<string, Promise<void>>();
  private indexChain: Promise<void> = Promise.resolve();
  private readonly scheduled: Coalescer<Conversation>;
  /** Summary last written to the index per id, to skip index writes while only text streams in. */
  private readonly indexed = new Map<string, string>();
  /** Problems met by background writes, handed out by the next `list()`. */
  private readonly laterProblems: string[] = [];
  private dirsReady: Promise<void> | undefined;
  /** When the last save of each conversation started (monotonic ms), for the leading save of `scheduleSave`. */
  private readonly lastSaveAt = new Map<string, number>();
  /**
   * The version of each conversation file this store last read or wrote, and the copy it was read into or
   * written from (held weakly: a conversation no chat shows any more is not kept alive by it): a save from
   * another copy or over another writer's version (another window, an extension host that outlived its
   * window) checks the file first.
   */
  private readonly known = new Map<string, { stamp: FileStamp; copy: WeakRef<Conversation> }>();
  /**
   * Each conversation object's turns but the last at its last full serialisation (by identity), and the UTF-8 of
   * their JSON joined (`turnsJson`): the leading save of `scheduleSave` serialises and encodes only the last of
   * those turns (the one a stream or an agent run changes in place) and the turns added since (see
   * `appendedParts`).
   */
  private readonly serialized = new WeakMap<Conversation, { turns: readonly Turn[]; joined: Uint8Array }>();

  /** A store rooted at `rootPath` (e.g. the extension's global storage folder). */
  constructor(
    private readonly fs: StoreFs,
    rootPath: string,
    private readonly options: ConversationStoreOptions = {},
  ) {
    const root = rootPath.replace(/\/+$/, '');
    this.dir = `${root}/conversations`;
    this.indexPath = `${root}/index.json`;
    this.saveIntervalMs = options.saveIntervalMs ?? 500;
    this.scheduled = new Coalescer(
      this.saveIntervalMs,
      (_id, conv) => this.save(conv),
      (error, id) => this.reportBackground(error, id),
    );
    this.now = options.now ?? Date.now;
  }

  /** Whether any conversation was ever saved (one directory read, no file parsed): a chat was used. */
  async hasAny(): Promise<boolean> {
    const onDisk = (await this.fs.exists(this.dir)) ? await this.fs.readDirectory(this.dir) : [];
    return onDisk.some((name) => FILE_PATTERN.test(name));
  }

  /** Summaries of every readable conversation, newest first. */
  async list(): Promise<ListResult> {
    const problems = this.laterProblems.splice(0);
    const onDisk = (await this.fs.exists(this.dir)) ? await this.fs.readDirectory(this.dir) : [];
    const busy = (id: string): boolean => this.chains.has(id) || this.scheduled.peek(id) !== undefined;
    const recovered = await recoverInterruptedRenames(this.fs, this.dir, onDisk, busy);
    const replaced = await settleLeftoverTemps(this.fs, this.dir, onDisk, busy, this.now());
    const ids = [...onDisk.flatMap((name) => FILE_PATTERN.exec(name)?.[1] ?? []), ...recovered];
    const index = await this.readIndex(problems);
    for (const [id, s] of index) this.indexed.set(id, JSON.stringify(s));
    const summaries: ConversationSummary[] = [];
    const found: ConversationSummary[] = [];
    for (const id of ids) {
      // The index may predate a file put back or replaced.
      const cached = recovered.includes(id) || replaced.includes(id) ? undefined : index.get(id);
      if (cached) {
        summaries.push(cached);
        continue;
      }
      const { conversation } = await this.readConversation(id, problems);
      if (conversation) found.push(summarize(conversation));
    }
    summaries.push(...found);
    const present = new Set(ids);
    const stale = [...index.keys()].filter((id) => !present.has(id));
    if (found.length > 0 || stale.length > 0) {
      await this.updateIndex((map) => {
        for (const s of found) map.set(s.id, s);
        for (const id of stale) map.delete(id);
      });
    }
    summaries.sort((a, b) => b.updatedAt - a.updatedAt);
    return { summaries, problems };
  }

  /** Reads one conversation after any queued write of it. A corrupt file is backed up and reported. */
  async load(id: string): Promise<LoadResult> {
    const problems: string[] = [];
    if (!isValidConversationId(id)) return { conversation: undefined, problems: [invalidId(id).message] };
    await this.flushOne(id).catch((error: unknown) => {
      problems.push(l10n.t('Saving conversation {0} failed: {1}', id, errorText(error)));
    });
    await this.chains.get(id);
    // Taken before the read: a write between the two makes the stamp look stale, which costs one more read.
    const stamp = await this.fs.stat(this.fileOf(id));
    const { conversation, corrupt } = await this.readConversation(id, problems);
    if (conversation && stamp) this.known.set(id, { stamp, copy: new WeakRef(conversation) });
    if (corrupt) await this.updateIndex((map) => map.delete(id));
    return { conversation, problems };
  }

  /**
   * Writes a conversation now (snapshotted at call time) and updates the index when its summary changed. When
   * another writer changed the file since this store last read or wrote it, and this copy does not keep all
   * of it, the copy is saved as a new conversation instead (see `ConversationStoreOptions.onFork`).
   */
  save(conv: Conversation): Promise<void> {
    return this.write(conv, () => this.fullParts(conv));
  }

  /** The file of `conv`, every turn serialised; all but the last turn's bytes remembered for `appendedParts`. */
  private fullParts(conv: Conversation): Uint8Array[] {
    const settled = conv.turns.slice(0, -1);
    const joined = encoder.encode(turnsJson(settled));
    this.serialized.set(conv, { turns: settled, joined });
    return fileParts(conv, joined, turnsJson(conv.turns.slice(settled.length)));
  }

  /**
   * The file of `conv` from the bytes its last full serialisation gave its turns but the last, when they are
   * still its first turns, with the others serialised now; else `fullParts`. Such a turn changed in place since
   * keeps its older JSON here (the last one is serialised again: a stream or an agent run changes it): only the
   * leading save uses this, and the save it schedules (a full one, within the save interval) writes the change.
   */
  private appendedParts(conv: Conversation): Uint8Array[] {
    const known = this.serialized.get(conv);
    const turns = conv.turns;
    if (!known || known.turns.length > turns.length || known.turns.some((turn, i) => turns[i] !== turn))
      return this.fullParts(conv);
    return fileParts(conv, known.joined, turnsJson(turns.slice(known.turns.length)));
  }

  /** `save`, with the file's bytes made by `parts` once the id is known to be valid. */
  private write(conv: Conversation, parts: () => Uint8Array[]): Promise<void> {
    this.scheduled.take(conv.id);
    if (!isValidConversationId(conv.id)) return Promise.reject(invalidId(conv.id));
    const id = conv.id;
    this.lastSaveAt.set(id, performance.now());
    const file = parts();
    const summary = summarize(conv);
    return this.enqueue(id, async () => {
      // Forked by an earlier save in this queue: this one belongs to the new conversation's queue.
      if (conv.id !== id) return this.save(conv);
      if (await this.changedByAnotherWriter(conv)) return this.fork(conv);
      await this.writeAtomic(this.fileOf(id), file);
      const stamp = await this.fs.stat(this.fileOf(id));
      if (stamp) this.known.set(id, { stamp, copy: new WeakRef(conv) });
      const key = JSON.stringify(summary);
      if (this.indexed.get(id) !== key) await this.updateIndex((map) => map.set(summary.id, summary));
    });
  }

  /**
   * True when the file holds a version that `conv` was not read from or written as (another writer's, or this
   * store's from another copy), with something `conv` lacks.
   */
  private async changedByAnotherWriter(conv: Conversation): Promise<boolean> {
    const path = this.fileOf(conv.id);
    const stamp = await this.fs.stat(path);
    const known = this.known.get(conv.id);
    if (!stamp || (known?.copy.deref() === conv && sameStamp(stamp, known.stamp))) return false;
    const parsed = parseConversationFile(decoder.decode(await this.fs.readFile(path)), conv.id);
    // An unreadable file has nothing to keep; `load` backs such files up, a save replaces them.
    return parsed.ok && !keepsEverythingOf(conv, parsed.value);
  }

  /** Saves `conv` under a new id (the file it came from stays as the other writer left it). */
  private async fork(conv: Conversation): Promise<void> {
    const fromId = conv.id;
    conv.id = newId();
    conv.title = l10n.t('{0} (copy)', conv.title).slice(0, 200);
    this.options.onFork?.(conv, fromId);
    await this.save(conv);
  }

  /** Deletes a conversation's file and its index entry; a pending scheduled save of it is dropped. */
  delete(id: string): Promise<void> {
    this.scheduled.take(id);
    this.lastSaveAt.delete(id);
    this.known.delete(id);
    if (!isValidConversationId(id)) return Promise.reject(invalidId(id));
    return this.enqueue(id, async () => {
      const path = this.fileOf(id);
      // Temporary files first: left after the file, list() would put the conversation back.
      const names = (await this.fs.exists(this.dir)) ? await this.fs.readDirectory(this.dir) : [];
      for (const name of tempFilesOf(names, id)) await this.fs.delete(`${this.dir}/${name}`);
      if (await this.fs.exists(path)) await this.fs.delete(path);
      await this.updateIndex((map) => map.delete(id));
    });
  }

  /**
   * Renames a conversation and saves it; returns it, or undefined when it does not exist.
   * When a save of it is scheduled, that (live) object is renamed, so the next save keeps the title;
   * otherwise the host must also retitle any copy it holds, or its next save restores the old title.
   */
  async rename(id: string, title: string): Promise<Conversation | undefined> {
    const clean = title.replace(/\s+/g, ' ').trim().slice(0, 200);
    if (!clean) throw new Error('A conversation title cannot be empty.');
    const conv = this.scheduled.peek(id) ?? (await this.load(id)).conversation;
    if (!conv) return undefined;
    conv.title = clean;
    await this.save(conv);
    return conv;
  }

  /**
   * Saves `conv` now when it was not saved within the interval, then at most once per interval; repeated
   * calls within it only refresh what will be saved.
   */
  scheduleSave(conv: Conversation): void {
    const last = this.lastSaveAt.get(conv.id);
    const idle = last === undefined || performance.now() - last >= this.saveIntervalMs;
    // The first request of a burst is the question just sent (or a new chat's first turn): waiting an
    // interval for it meant a crash within it lost the question, and the restarted chat then showed an
    // older conversation as the newest, the lost one gone from history (found by the crash trials).
    // Nothing is pending, so the changes made since the last save were saved: the earlier turns' bytes are reused
    // and only the last saved turn and the new ones are serialised (a 400-turn conversation took 1.4 ms here,
    // between Enter and the request). The save scheduled below serialises everything again.
    if (idle && !this.scheduled.peek(conv.id)) {
      this.write(conv, () => this.appendedParts(conv)).catch((error: unknown) =>
        this.reportBackground(error, conv.id),
      );
    }
    // Still scheduled, so a rename meanwhile changes this live object and later text is saved in time.
    this.scheduled.schedule(conv.id, conv);
  }

  /** Saves every scheduled conversation now and waits for all writes; rejects with the first failure. */
  async flush(): Promise<void> {
    const saves = this.scheduled.keys().map((id) => this.flushOne(id));
    const results = await Promise.allSettled([...saves, ...this.chains.values(), this.indexChain]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private flushOne(id: string): Promise<void> {
    const conv = this.scheduled.take(id);
    return conv ? this.save(conv) : Promise.resolve();
  }

  private reportBackground(error: unknown, id: string): void {
    if (this.options.onError) this.options.onError(error, id);
    else this.laterProblems.push(l10n.t('Saving conversation {0} failed: {1}', id, errorText(error)));
  }

  private fileOf(id: string): string {
    return `${this.dir}/${id}.json`;
  }

  /** Runs `task` after every earlier write of the same conversation has settled. */
  private enqueue(id: string, task: () => Promise<void>): Promise<void> {
    const run = (this.chains.get(id) ?? Promise.resolve()).then(task);
    const settled = run.then(noop, noop);
    this.chains.set(id, settled);
    void settled.then(() => {
      if (this.chains.get(id) === settled) this.chains.delete(id);
    });
    return run;
  }

  /** Read-modify-write of the index, serialised; re-reads the file so changes from other windows survive. */
  private updateIndex(change: (map: IndexMap) => void): Promise<void> {
    const run = this.indexChain.then(async () => {
      const map = await this.readIndex(this.laterProblems);
      change(map);
      await this.writeAtomic(this.indexPath, serializeIndex(map.values()));
      this.indexed.clear();
      for (const [id, s] of map) this.indexed.set(id, JSON.stringify(s));
    });
    this.indexChain = run.then(noop, noop);
    return run;
  }

  private async readIndex(problems: string[]): Promise<IndexMap> {
    if (!(await this.fs.exists(this.indexPath))) return new Map();
    const bytes = await this.fs.readFile(this.indexPath);
    const parsed = parseIndex(decoder.decode(bytes));
    if (parsed.ok) return new Map(parsed.value.map((s) => [s.id, s]));
    // The index is only a cache: keep the bad copy for diagnosis, then rebuild it from the files.
    if (parsed.newer) return new Map();
    problems.push(
      await backUpCorrupt(
        this.fs,
        this.indexPath,
        bytes,
        parsed.reason,
        l10n.t('The history index'),
        this.now(),
      ),
    );
    return new Map();
  }

  private async readConversation(
    id: string,
    problems: string[],
  ): Promise<{ conversation: Conversation | undefined; corrupt: boolean }> {
    const path = this.fileOf(id);
    if (!(await this.fs.exists(path))) return { conversation: undefined, corrupt: false };
    const bytes = await this.fs.readFile(path);
    const parsed = parseConversationFile(decoder.decode(bytes), id);
    if (parsed.ok) return { conversation: parsed.value, corrupt: false };
    if (parsed.newer) {
      problems.push(
        l10n.t('Skipped conversation file "{0}": {1}. It was left untouched.', path, parsed.reason),
      );
      return { conversation: undefined, corrupt: false };
    }
    problems.push(
      await backUpCorrupt(this.fs, path, bytes, parsed.reason, l10n.t('Conversation file'), this.now()),
    );
    return { conversation: undefined, corrupt: true };
  }

  private async writeAtomic(path: string, data: string | readonly Uint8Array[]): Promise<void> {
    this.dirsReady ??= this.fs.createDirectory(this.dir).catch((error: unknown) => {
      this.dirsReady = undefined; // let the next write try again
      throw error;
    });
    await this.dirsReady;
    await writeFileAtomic(this.fs, path, data);
  }
}
