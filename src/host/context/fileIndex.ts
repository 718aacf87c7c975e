import * as vscode from 'vscode';
import { prepareIndex, rankPrepared, type PathIndex } from '../../chat/context';

/** Folders that hold tools' files, never the user's: left out of the picker even when files.exclude keeps them. */
const SKIPPED_SEGMENTS = /(^|\/)(node_modules|\.git|\.hg|\.svn)\//;
const MAX_FILES = 200_000;
/** Paths prepared between two yields to the event loop while listing (about 2 µs each: a few ms a slice). */
const SLICE = 2000;

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
      // Prepared in slices with a yield between them, so a 50,000-file workspace never holds the extension
      // host for long (the chat, edits and other extensions share its thread).
      for (let start = 0; start < found.length; start += SLICE) {
        if (start > 0) await new Promise((resolve) => setTimeout(resolve, 0));
        for (const uri of found.slice(start, start + SLICE)) this.added(uri);
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

  private added(uri: vscode.Uri): void {
    const path = relative(uri);
    if (path === undefined || SKIPPED_SEGMENTS.test(path) || this.files.has(path)) return;
    this.files.set(path, { uri, entry: prepareIndex([path]).entries[0] });
    this.index = undefined;
  }

  private removed(uri: vscode.Uri): void {
    const path = relative(uri);
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
function relative(uri: vscode.Uri): string | undefined {
  if (!vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}
