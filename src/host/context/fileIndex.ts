import * as vscode from 'vscode';
import type { RipgrepEnv } from '../search/ripgrep';
import { TOOL_FOLDERS } from './fileListArgs';
import { type PathRanker, WorkerRanker } from './pathRanker';
import { type ListedChunk, ListedFolder, listWorkspace } from './workspaceListing';

/** Paths inside the tools' folders: left out of the picker even when files.exclude keeps them. */
const SKIPPED_SEGMENTS = new RegExp(
  `(^|/)(${TOOL_FOLDERS.map((name) => name.replace('.', '\\.')).join('|')})/`,
);
const MAX_FILES = 200_000;
/** Longest stretch of listing work between two yields to the event loop (placing paths in their folders). */
const SLICE_MS = 8;
/**
 * A listing this old is made again, in the background, when the picker searches: a file watcher can miss events
 * (one that starts while files are written, an overloaded machine, `files.watcherExclude`), and the index then
 * catches up with the disk.
 */
const RELIST_AFTER_MS = 30_000;

/** What the listing must not undo: watcher events that arrived while it ran (its list is older than they are). */
interface ListingRun {
  touched: Set<string>;
  droppedFolders: string[];
  /** findFiles' cancellation. */
  cancel: vscode.CancellationTokenSource;
  /** ripgrep's: aborting kills it. */
  abort: AbortController;
  /** A listing made again: every path it listed, so that files gone from the disk leave at its end. */
  seen?: Set<string>;
}

/** Where a listed file is: its own URI (findFiles, the watcher), or the folder ripgrep listed it in. */
type FileLocation = vscode.Uri | ListedFolder;

/**
 * The workspace's file list for the `#` picker: listed once (in the background, on first use; by VS Code's
 * ripgrep, streamed, or by findFiles: workspaceListing.ts), kept current by a file watcher, and ranked in a worker
 * thread (pathRanker.ts), so a query on 50,000 files answers in milliseconds and preparing them never holds the
 * extension host.
 */
export class FileIndex implements vscode.Disposable {
  /** Relative path → where it is, in the order listed: the list the ranker mirrors. */
  private readonly files = new Map<string, FileLocation>();
  private ranker: PathRanker | undefined;
  private listed = false;
  /** When the last listing ended (performance.now()). */
  private listedAt = 0;
  private listing: Promise<void> | undefined;
  private run: ListingRun | undefined;
  private disposed = false;
  /** Created entries being looked at (file or folder?), by path: the event's number, so a delete can drop it. */
  private readonly creating = new Map<string, number>();
  private events = 0;
  /** Created entries being placed: a listing ends once those it skipped as news are in. */
  private readonly placing = new Set<Promise<void>>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Messages logged already: which way the workspace is listed is said once, not on every listing. */
  private readonly logged = new Set<string>();

  /**
   * `ripgrep`: where ripgrep is instead of VS Code's own (tests inject a missing path to force findFiles);
   * `relistAfterMs`: how old a listing is before a search makes it again; `hidden`: whether files.exclude hides a
   * created file, which a listing leaves out (given by the extension's bundle, which has the glob matcher).
   */
  constructor(
    private readonly log?: Pick<vscode.LogOutputChannel, 'warn' | 'info'>,
    private readonly ripgrep: RipgrepEnv = {},
    private readonly relistAfterMs = RELIST_AFTER_MS,
    private readonly hidden: (file: vscode.Uri) => boolean = () => false,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => this.created(uri)),
      watcher.onDidDelete((uri) => this.removed(uri)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()),
    );
  }

  /** True once the first listing has finished. */
  get ready(): boolean {
    return this.listed;
  }

  /** Starts (or joins) the first listing; resolves early, with what was listed, when disposed meanwhile. */
  load(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.listing ??= this.list();
    return this.listing;
  }

  /** The best `limit` files for `query` (relative paths with their URIs). */
  async search(query: string, limit: number): Promise<Array<{ path: string; uri: vscode.Uri }>> {
    if (this.listed && !this.run && performance.now() - this.listedAt > this.relistAfterMs) {
      this.listedAt = performance.now();
      void this.list(true);
    }
    const found = await this.rank().search(query, limit);
    // A path deleted while the worker searched is left out.
    return found.flatMap((path) => {
      const uri = this.uriOf(path);
      return uri ? [{ path, uri }] : [];
    });
  }

  /** The URI of a listed relative path. */
  uriOf(path: string): vscode.Uri | undefined {
    const location = this.files.get(path);
    return location instanceof ListedFolder ? location.uriOf(path) : location;
  }

  dispose(): void {
    this.disposed = true;
    this.stopListing();
    this.ranker?.dispose();
    vscode.Disposable.from(...this.disposables).dispose();
  }

  /** Lists the workspace; `again`: over the index as it is, dropping at the end the files no longer listed. */
  private async list(again = false): Promise<void> {
    const run: ListingRun = {
      touched: new Set(),
      droppedFolders: [],
      cancel: new vscode.CancellationTokenSource(),
      abort: new AbortController(),
      ...(again ? { seen: new Set<string>() } : {}),
    };
    this.run = run;
    const log = {
      info: (message: string) => this.logOnce('info', message),
      warn: (message: string) => this.logOnce('warn', message),
    };
    const env = { ...this.ripgrep, log };
    try {
      // Leaving this loop (a return below) stops the listing, ripgrep included.
      for await (const chunk of listWorkspace(env, MAX_FILES, run.cancel.token, run.abort.signal)) {
        if (this.run !== run) return; // Disposed, or the workspace's folders changed: a new listing follows.
        if (!(await this.placeChunk(run, chunk))) return;
      }
      if (this.run !== run) return;
      // The watcher's creates it skipped (newer than its list) are placed by now: a search then finds them.
      await Promise.all(this.placing);
      if (this.run !== run) return;
      if (run.seen && run.seen.size < MAX_FILES) this.dropUnlisted(run, run.seen);
      this.listed = true;
      this.listedAt = performance.now();
    } finally {
      if (this.run === run) this.run = undefined;
      run.cancel.dispose();
    }
  }

  /**
   * Places a chunk's paths in slices of a few milliseconds with a yield between them, each slice handed to the
   * worker at once: the extension host's thread only compares strings. False when the run ended meanwhile.
   */
  private async placeChunk(run: ListingRun, chunk: ListedChunk): Promise<boolean> {
    const yieldTurn = async (): Promise<boolean> => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return this.run === run;
    };
    // Reviving findFiles' URIs (all of them at once) already held the thread: the first slice waits a turn.
    if (chunk.kind === 'uris' && !(await yieldTurn())) return false;
    const folders = folderPrefixes();
    const [count, pathAt, locationAt]: [
      number,
      (i: number) => string | undefined,
      (i: number) => FileLocation,
    ] =
      chunk.kind === 'uris'
        ? [chunk.uris.length, (i) => relative(chunk.uris[i], folders), (i) => chunk.uris[i]]
        : [chunk.paths.length, (i) => chunk.paths[i], () => chunk.folder];
    const ranker = this.rank();
    let batch: string[] = [];
    let sliceStart = performance.now();
    for (let i = 0; i < count; i++) {
      if (performance.now() - sliceStart > SLICE_MS) {
        ranker.add(batch);
        batch = [];
        if (!(await yieldTurn())) return false;
        sliceStart = performance.now();
      }
      const path = pathAt(i);
      if (path === undefined) continue;
      run.seen?.add(path);
      if (run.touched.has(path)) continue;
      if (run.droppedFolders.length && run.droppedFolders.some((folder) => path.startsWith(folder))) continue;
      if (this.place(path, locationAt(i))) batch.push(path);
    }
    ranker.add(batch);
    return true;
  }

  /** After a listing made again: the files it did not list are gone, unless the watcher saw them meanwhile. */
  private dropUnlisted(run: ListingRun, seen: Set<string>): void {
    const gone = [...this.files.keys()].filter((path) => !seen.has(path) && !run.touched.has(path));
    for (const path of gone) this.files.delete(path);
    this.ranker?.remove(gone);
  }

  /** Logs `message` the first time it comes up. */
  private logOnce(level: 'info' | 'warn', message: string): void {
    if (this.logged.has(message)) return;
    this.logged.add(message);
    this.log?.[level](message);
  }

  /** Cancels the listing under way (findFiles' search, ripgrep's process). */
  private stopListing(): void {
    this.run?.cancel.cancel();
    this.run?.abort.abort();
    this.run = undefined;
  }

  /** The ranker, started on first use with what the watcher has added so far. */
  private rank(): PathRanker {
    if (!this.ranker) {
      this.ranker = new WorkerRanker(
        () => this.files.keys(),
        (error) => this.log?.warn(`File index: ranking in the extension host's thread (${String(error)})`),
      );
      this.ranker.add([...this.files.keys()]);
    }
    return this.ranker;
  }

  /** Records a listed or created file; false when it is skipped or already known. */
  private place(path: string, location: FileLocation): boolean {
    if (SKIPPED_SEGMENTS.test(path) || this.files.has(path)) return false;
    this.files.set(path, location);
    return true;
  }

  private created(uri: vscode.Uri): void {
    const path = relative(uri, folderPrefixes());
    if (path === undefined || SKIPPED_SEGMENTS.test(`${path}/`)) return;
    this.run?.touched.add(path);
    const event = ++this.events;
    this.creating.set(path, event);
    const placing = this.placeCreated(uri, path, event)
      .catch((error: unknown) => this.log?.warn(`File index: ${path} could not be added (${String(error)})`))
      .finally(() => this.placing.delete(placing));
    this.placing.add(placing);
  }

  /**
   * A created entry is a file or a folder, and a folder that appears with its contents (moved in, unpacked,
   * checked out) arrives as one event: its files are listed (findFiles applies files.exclude). A file that
   * files.exclude hides is left out, as a listing leaves it out. Dropped when a delete came meanwhile.
   */
  private async placeCreated(uri: vscode.Uri, path: string, event: number): Promise<void> {
    let type: vscode.FileType;
    try {
      type = (await vscode.workspace.fs.stat(uri)).type;
    } catch {
      return; // Gone already: its delete event follows or came.
    }
    if (this.creating.get(path) !== event || this.disposed) return;
    let added: string[] = [];
    if (type & vscode.FileType.Directory) {
      const inside = await vscode.workspace.findFiles(
        new vscode.RelativePattern(uri, '**/*'),
        undefined,
        MAX_FILES,
      );
      if (this.creating.get(path) !== event || this.disposed) return;
      const folders = folderPrefixes();
      added = inside.flatMap((file) => {
        const inner = relative(file, folders);
        return inner !== undefined && this.place(inner, file) ? [inner] : [];
      });
    } else if (!this.hidden(uri) && this.place(path, uri)) added = [path];
    this.creating.delete(path);
    this.ranker?.add(added);
  }

  private removed(uri: vscode.Uri): void {
    const path = relative(uri, folderPrefixes());
    if (path === undefined) return;
    for (const key of this.creating.keys())
      if (key === path || key.startsWith(`${path}/`)) this.creating.delete(key);
    const gone: string[] = [];
    if (this.files.delete(path)) gone.push(path);
    else {
      // A deleted folder arrives as one event: drop everything under it.
      const folder = path + '/';
      for (const key of this.files.keys())
        if (key.startsWith(folder)) {
          this.files.delete(key);
          gone.push(key);
        }
    }
    if (this.run) {
      this.run.touched.add(path);
      this.run.droppedFolders.push(path + '/');
    }
    this.ranker?.remove(gone);
  }

  private reset(): void {
    this.stopListing();
    this.listing = undefined;
    this.listed = false;
    this.files.clear();
    this.creating.clear();
    this.ranker?.clear();
  }
}

/** The path shown and ranked: relative to its folder, prefixed with the folder's name in a multi-root workspace. */
function relative(uri: vscode.Uri, folders: readonly FolderPrefix[]): string | undefined {
  const key = uri.toString();
  for (const folder of folders) {
    if (key.startsWith(folder.prefix))
      return folder.name + decodeURIComponent(key.slice(folder.prefix.length));
  }
  return undefined;
}

/** A workspace folder as a URI prefix, and the name its paths start with (only in a multi-root workspace). */
interface FolderPrefix {
  prefix: string;
  name: string;
}

/** Computed once per listing: comparing URI strings is much cheaper than asking VS Code for each path. */
function folderPrefixes(): FolderPrefix[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.map((folder) => ({
    prefix: folder.uri.toString().replace(/\/?$/, '/'),
    name: folders.length > 1 ? `${folder.name}/` : '',
  }));
}
