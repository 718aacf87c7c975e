// Where agent checkpoints live: one JSON file per conversation in the extension's global storage, never in the
// workspace or its git repository. Loaded on first use and written (atomically) after every record.
import * as vscode from 'vscode';
import { Checkpoints, parseCheckpoints, serializeCheckpoints } from '../../agent/checkpoint';
import { writeFileAtomic } from './atomicWrite';

/** The checkpoints of every conversation, each in its own file. */
export class CheckpointStore {
  private readonly loaded = new Map<string, Promise<Checkpoints>>();

  constructor(
    private readonly folder: vscode.Uri,
    private readonly log: { warn(message: string): void },
  ) {}

  /** The checkpoints of a conversation (empty when it has none, or when its file cannot be read). */
  of(conversationId: string): Promise<Checkpoints> {
    let found = this.loaded.get(conversationId);
    if (!found) {
      found = this.read(conversationId);
      this.loaded.set(conversationId, found);
    }
    return found;
  }

  /** Writes a conversation's checkpoints to disk. */
  async save(conversationId: string): Promise<void> {
    const checkpoints = await this.of(conversationId);
    await vscode.workspace.fs.createDirectory(this.folder);
    await writeFileAtomic(
      this.file(conversationId),
      new TextEncoder().encode(serializeCheckpoints(checkpoints)),
    );
  }

  private file(conversationId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${conversationId.replace(/[^\w-]/g, '_')}.json`);
  }

  private async read(conversationId: string): Promise<Checkpoints> {
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(this.file(conversationId)));
    } catch {
      return new Checkpoints();
    }
    const parsed = parseCheckpoints(text);
    if (parsed.ok) return parsed.value;
    this.log.warn(`Agent checkpoints of conversation ${conversationId} could not be read: ${parsed.reason}.`);
    return new Checkpoints();
  }
}
