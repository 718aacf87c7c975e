import * as vscode from 'vscode';
import { type PathRanker, WorkerRanker } from './pathRanker';

/** Folders that hold tools' files, never the user's: left out of the picker even when files.exclude keeps them. */
const SKIPPED_SEGMENTS = /(^|\/)(node_modules|\.git|\.hg|\.svn)\//;
const MAX_FILES = 200_000;
/** Longest stretch of listing work between two yields to the event loop (placing paths in their folders). */
const SLICE_MS = 8;

/** What the listing must not undo: watcher events that arrived while it ran (its list is older than they are). */
interface ListingRun {
  touched: Set<string>;
  droppedFolders: string[];
  cancel: vscode.CancellationTokenSource;
}

/**
 * The workspace's file list for the `#` picker: listed once (in the background, on first use), kept current
 * by a file watcher, and ranked in a worker thread (pathRanker.ts), so a query on 50,000 files answers in
 * milliseconds and preparing them never holds the extension host.
 */
export class FileIndex implements vscode.Disposable {
  /** Relative path → URI, in the order listed: the list the ranker mirrors. */
  private readonly files = new Map<string, vscode.Uri>();
  private ranker: PathRanker | undefined;
  private listed = false;
  private listing: Promise<void> | undefined;
  private run: ListingRun | undefined;
  private disposed = false;
  /** Created entries being looked at (file or folder?), by path: the event's number, so a delete can drop it. */
  private readonly creating = new Map<string, number>();
  private events = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log?: Pick<vscode.LogOutputChannel, 'warn'>) {
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
    const found = await this.rank().search(query, limit);
    // A path deleted while the worker searched is left out.
    return found.flatMap((path) => {
      const uri = this.files.get(path);
      return uri ? [{ path, uri }] : [];
    });
  }

  /** The URI of a listed relative path. */
  uriOf(path: string): vscode.Uri | undefined {
    return this.files.get(path);
  }

  dispose(): void {
    this.disposed = true;
    this.run?.cancel.cancel();
    this.run = undefined;
    this.ranker?.dispose();
    vscode.Disposable.from(...this.disposables).dispose();
  }

  private async list(): Promise<void> {
    const run: ListingRun = {
      touched: new Set(),
      droppedFolders: [],
      cancel: new vscode.CancellationTokenSource(),
    };
    this.run = run;
    try {
      const found = await vscode.workspace.findFiles('**/*', undefined, MAX_FILES, run.cancel.token);
      if (this.run !== run) return; // Disposed, or the workspace's folders changed: a new listing follows.
      // Reviving 50,000 URIs from findFiles' answer already held the thread: the first slice waits a turn.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.run !== run) return;
      const folders = folderPrefixes();
      const ranker = this.rank();
      // Paths are placed in slices of a few milliseconds with a yield between them, and each slice is handed
      // to the worker at once: the extension host's thread only compares strings.
      let batch: string[] = [];
      let sliceStart = performance.now();
      for (const uri of found) {
        if (performance.now() - sliceStart > SLICE_MS) {
          ranker.add(batch);
          batch = [];
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (this.run !== run) return; // Disposed, or the workspace's folders changed: a new listing follows.
          sliceStart = performance.now();
        }
        const path = relative(uri, folders);
        if (path === undefined || run.touched.has(path)) continue;
        if (run.droppedFolders.length && run.droppedFolders.some((folder) => path.startsWith(folder)))
          continue;
        if (this.place(path, uri)) batch.push(path);
      }
      ranker.add(batch);
      this.listed = true;
    } finally {
      if (this.run === run) this.run = undefined;
      run.cancel.dispose();
    }
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
  private place(path: string, uri: vscode.Uri): boolean {
    if (SKIPPED_SEGMENTS.test(path) || this.files.has(path)) return false;
    this.files.set(path, uri);
    return true;
  }

  private created(uri: vscode.Uri): void {
    const path = relative(uri, folderPrefixes());
    if (path === undefined || SKIPPED_SEGMENTS.test(`${path}/`)) return;
    this.run?.touched.add(path);
    const event = ++this.events;
    this.creating.set(path, event);
    void this.placeCreated(uri, path, event);
  }

  /**
   * A created entry is a file or a folder, and a folder that appears with its contents (moved in, unpacked,
   * checked out) arrives as one event: its files are listed. Dropped when a delete came meanwhile.
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
    } else if (this.place(path, uri)) added = [path];
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
    this.run?.cancel.cancel();
    this.run = undefined;
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
