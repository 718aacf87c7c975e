import * as vscode from 'vscode';
import { prepareIndex, rankPrepared, type PathIndex } from '../../chat/context';

/** Folders that hold tools' files, never the user's: left out of the picker even when files.exclude keeps them. */
const SKIPPED_SEGMENTS = /(^|\/)(node_modules|\.git|\.hg|\.svn)\//;
const MAX_FILES = 200_000;
/**
 * Longest stretch of listing work between two yields to the event loop. Counted in time, not paths: a path's
 * cost (placing it in its folder, two fuzzy preparations) varies with the machine and its load.
 */
const SLICE_MS = 8;

type Entry = PathIndex['entries'][number];

/**
 * The workspace's file list for the `#` picker: listed once (in the background, on first use), kept current
 * by a file watcher, and ranked in memory, so a query on 50,000 files answers in milliseconds.
 */
export class FileIndex implements vscode.Disposable {
  private readonly files = new Map<string, { uri: vscode.Uri; entry: Entry }>();
  /** The index over `files`, rebuilt (without preparing again) after the list changed. */
  private index: PathIndex | undefined;
  private listed = false;
  private listing: Promise<void> | undefined;
  private readonly watcher: vscode.FileSystemWatcher;
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
    this.watcher = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    this.disposables.push(
      this.watcher,
      this.watcher.onDidCreate((uri) => this.added(uri)),
      this.watcher.onDidDelete((uri) => this.removed(uri)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.listing = undefined;
        this.listed = false;
        this.files.clear();
        this.index = undefined;
      }),
    );
  }

  /** True once the first listing has finished. */
  get ready(): boolean {
    return this.listed;
  }

  /** Starts (or joins) the first listing. */
  load(): Promise<void> {
    this.listing ??= (async () => {
      const found = await vscode.workspace.findFiles('**/*', undefined, MAX_FILES);
      // Prepared in slices of a few milliseconds with a yield between them, so a 50,000-file workspace never
      // holds the extension host for long (the chat, edits and other extensions share its thread).
      const folders = folderPrefixes();
      let sliceStart = performance.now();
      for (const uri of found) {
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          sliceStart = performance.now();
        }
        this.added(uri, folders);
      }
      this.listed = true;
    })();
    return this.listing;
  }

  /** The best `limit` files for `query` (relative paths with their URIs). */
  search(query: string, limit: number): Array<{ path: string; uri: vscode.Uri }> {
    if (!this.index) {
      const entries = [...this.files.values()].map((f) => f.entry);
      this.index = { paths: entries.map((e) => e.path), entries };
    }
    return rankPrepared(query, this.index, limit).map((path) => ({ path, uri: this.files.get(path)!.uri }));
  }

  /** The URI of a listed relative path. */
  uriOf(path: string): vscode.Uri | undefined {
    return this.files.get(path)?.uri;
  }

  private added(uri: vscode.Uri, folders = folderPrefixes()): void {
    const path = relative(uri, folders);
    if (path === undefined || SKIPPED_SEGMENTS.test(path) || this.files.has(path)) return;
    this.files.set(path, { uri, entry: prepareIndex([path]).entries[0] });
    this.index = undefined;
  }

  private removed(uri: vscode.Uri): void {
    const path = relative(uri, folderPrefixes());
    if (path === undefined) return;
    // A deleted folder arrives as one event: drop everything under it.
    if (this.files.delete(path)) {
      this.index = undefined;
      return;
    }
    const folder = path + '/';
    for (const key of this.files.keys()) if (key.startsWith(folder)) this.files.delete(key);
    this.index = undefined;
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
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
