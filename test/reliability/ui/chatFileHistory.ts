// The history of the conversation files as the durability tests see it from outside the editor: every change
// inotify reports in the conversations folder, with what the file held right then (its turns and their lengths)
// and which extension hosts were alive. A crash trial that finds an older copy on disk after the restart then
// says when that copy appeared and which hosts could have written it.
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { parseConversationFile } from '../../../src/chat/storeFormat';
import { chatsDir, extensionHostPids, readIfPresent } from './durabilityFiles';

/** One change seen in the conversations folder. */
interface FileEvent {
  at: number;
  name: string;
  /** What the file held when the event was handled: turns and lengths, "gone", or "unreadable". */
  held: string;
  hosts: number[];
}

const CONVERSATION_FILE = /^([A-Za-z0-9_-]{1,128})\.json(\.tmp-[A-Za-z0-9-]+)?$/;

/** `3 turns [52, 456, 40]`: a conversation's shape, enough to tell two versions of it apart. */
function shapeOf(text: string | undefined, id: string): string {
  if (text === undefined) return 'gone';
  const parsed = parseConversationFile(text, id);
  if (!parsed.ok) return `unreadable (${text.length} B)`;
  const lengths = parsed.value.turns.map((t) => t.content.length);
  return `${lengths.length} turns [${lengths.join(', ')}] updated ${parsed.value.updatedAt}`;
}

/** Records the changes of the conversation files under `userDataDir` until `close()` (bounded to `limit`). */
export class ChatFileHistory {
  private readonly events: FileEvent[] = [];
  /** Conversation files seen on disk, and the moments one was found missing after that (never deleted here). */
  private readonly present = new Set<string>();
  private readonly gaps: Array<{ at: number; id: string }> = [];
  private watcher: FSWatcher | undefined;
  private readonly started = Date.now();

  constructor(
    private readonly userDataDir: string,
    private readonly pgid: number,
    private readonly limit = 4000,
  ) {}

  /** Starts watching (the folder must exist: call again after the first save otherwise). */
  start(): void {
    if (this.watcher) return;
    const dir = join(chatsDir(this.userDataDir), 'conversations');
    try {
      this.watcher = watch(dir, (_type, name) => name && this.record(dir, String(name)));
    } catch {
      this.watcher = undefined; // not created yet
    }
  }

  /** Notes an event of the test itself (a kill, a restart) in the history. */
  mark(text: string): void {
    this.push({ at: Date.now(), name: '--', held: text, hosts: extensionHostPids(this.pgid) });
  }

  /** The events about conversation `id` (every one when undefined) and the test's marks since `since`, one a line. */
  describe(id: string | undefined, since: number): string {
    return this.events
      .filter((e) => e.at >= since && (!id || e.name === '--' || e.name.startsWith(`${id}.json`)))
      .map((e) => `${e.at - this.started} ms ${e.name}: ${e.held} (hosts ${e.hosts.join(', ')})`)
      .join('\n');
  }

  /**
   * Conversations whose file was missing at some moment since `since` after it had been seen: a replace that is
   * not atomic (delete, then move), which a kill or a window reload can cut between its halves.
   */
  missingSince(since: number): Array<{ at: number; id: string }> {
    return this.gaps.filter((g) => g.at >= since);
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private record(dir: string, name: string): void {
    const id = CONVERSATION_FILE.exec(name)?.[1];
    if (!id) return;
    let held: string;
    try {
      const text = readIfPresent(join(dir, name));
      held = shapeOf(text, id);
      if (name === `${id}.json`) this.notePresence(id, text !== undefined);
    } catch (error) {
      held = `not read: ${(error as Error).message}`;
    }
    this.push({ at: Date.now(), name, held, hosts: extensionHostPids(this.pgid) });
  }

  private notePresence(id: string, there: boolean): void {
    if (there) this.present.add(id);
    else if (this.present.has(id)) this.gaps.push({ at: Date.now(), id });
  }

  private push(event: FileEvent): void {
    this.events.push(event);
    if (this.events.length > this.limit) this.events.splice(0, this.events.length - this.limit);
  }
}
