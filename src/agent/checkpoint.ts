/**
 * Checkpoints of agent runs, one per user turn: for each file a turn's run changed, its bytes before the
 * turn's first change to it, or 'absent' when the run created it. That is enough to put every file back
 * byte for byte (line endings included) without a shadow repository, and it holds only the touched files.
 *
 * The host records a file just before it writes, creates or deletes it (`needsRecord` tells it whether it
 * must read the file first); Undo and Restore Checkpoint follow `restorePlan`. The records are kept in the
 * extension's storage as JSON (`serializeCheckpoints` / `parseCheckpoints`), never in the workspace.
 */
import * as v from 'valibot';
import { BASE64, type ParseResult, parseVersioned, uniqueBy } from './stored';

/** A file's state before a turn changed it: its bytes, or 'absent' when the turn created it. */
export type FileBefore = Uint8Array | 'absent';

/** One step of a restore: write these bytes back, or delete a file a run created. */
export type RestoreStep =
  { path: string; action: 'write'; bytes: Uint8Array } | { path: string; action: 'delete' };

interface TurnRecord {
  turnId: string;
  /** By path (the host's key for a file, e.g. its URI), in the order of first change. */
  files: Map<string, FileBefore>;
}

const FORMAT_VERSION = 1;

/** The checkpoints of one conversation, oldest turn first. */
export class Checkpoints {
  private readonly turns: TurnRecord[] = [];

  /** Starts the record of a user turn; turns must begin in conversation order. Beginning the latest turn again does nothing. */
  beginTurn(turnId: string): void {
    if (this.turns.at(-1)?.turnId === turnId) return;
    if (this.indexOf(turnId) >= 0) throw new Error(`turn ${turnId} already has an earlier checkpoint`);
    this.turns.push({ turnId, files: new Map() });
  }

  /** The turns recorded, oldest first. */
  turnIds(): string[] {
    return this.turns.map((t) => t.turnId);
  }

  /** True when `path` has no record yet in this turn: the host must read it before its first change. */
  needsRecord(turnId: string, path: string): boolean {
    return !this.turn(turnId).files.has(path);
  }

  /** Records the file's state before the turn's first change to it; later calls for the same path are ignored. */
  record(turnId: string, path: string, before: FileBefore): boolean {
    const files = this.turn(turnId).files;
    if (files.has(path)) return false;
    files.set(path, before === 'absent' ? 'absent' : before.slice());
    return true;
  }

  /** The file's state before the turn changed it, if the turn did. */
  before(turnId: string, path: string): FileBefore | undefined {
    const found = this.turn(turnId).files.get(path);
    return found === undefined || found === 'absent' ? found : found.slice();
  }

  /** The paths the turn changed, in the order it first changed them. */
  changedPaths(turnId: string): string[] {
    return [...this.turn(turnId).files.keys()];
  }

  /**
   * What puts the workspace back as it was before `turnId`: every file changed by that turn or a later one
   * gets the state recorded by the earliest of them (bytes to write, or delete for a file they created).
   */
  restorePlan(turnId: string): RestoreStep[] {
    const from = this.indexOfKnown(turnId);
    const earliest = new Map<string, FileBefore>();
    for (const turn of this.turns.slice(from))
      for (const [path, before] of turn.files) if (!earliest.has(path)) earliest.set(path, before);
    return [...earliest].map(([path, before]) =>
      before === 'absent' ? { path, action: 'delete' } : { path, action: 'write', bytes: before.slice() },
    );
  }

  /** Forgets `turnId` and every later turn (after a restore removed those turns). */
  dropFrom(turnId: string): void {
    this.turns.splice(this.indexOfKnown(turnId));
  }

  private indexOf(turnId: string): number {
    return this.turns.findIndex((t) => t.turnId === turnId);
  }

  private indexOfKnown(turnId: string): number {
    const index = this.indexOf(turnId);
    if (index < 0) throw new Error(`no checkpoint for turn ${turnId}`);
    return index;
  }

  private turn(turnId: string): TurnRecord {
    return this.turns[this.indexOfKnown(turnId)];
  }

  /** @internal For serialisation. */
  records(): readonly TurnRecord[] {
    return this.turns;
  }
}

/** The JSON text of the checkpoints, bytes in base64. */
export function serializeCheckpoints(checkpoints: Checkpoints): string {
  return JSON.stringify({
    version: FORMAT_VERSION,
    turns: checkpoints.records().map((turn) => ({
      turnId: turn.turnId,
      files: [...turn.files].map(([path, before]) =>
        before === 'absent'
          ? { path, kind: 'absent' }
          : {
              path,
              kind: 'bytes',
              bytes: Buffer.from(before.buffer, before.byteOffset, before.byteLength).toString('base64'),
            },
      ),
    })),
  });
}

const nonEmpty = v.pipe(v.string(), v.nonEmpty());
const fileSchema = v.variant('kind', [
  v.object({ path: nonEmpty, kind: v.literal('absent') }),
  v.object({
    path: nonEmpty,
    kind: v.literal('bytes'),
    bytes: v.pipe(v.string(), v.regex(BASE64, 'not base64')),
  }),
]);
const turnSchema = v.object({
  turnId: nonEmpty,
  files: v.pipe(
    v.array(fileSchema),
    v.check((files) => uniqueBy(files, (f) => f.path), 'a path is recorded twice'),
  ),
});
const rootSchema = v.object({
  version: v.literal(FORMAT_VERSION),
  turns: v.pipe(
    v.array(turnSchema),
    v.check((turns) => uniqueBy(turns, (t) => t.turnId), 'a turn is recorded twice'),
  ),
});

/** Reads checkpoints written by `serializeCheckpoints`, refusing anything malformed with the reason. */
export function parseCheckpoints(text: string): ParseResult<Checkpoints> {
  const parsed = parseVersioned(text, FORMAT_VERSION, rootSchema);
  if (!parsed.ok) return parsed;
  const checkpoints = new Checkpoints();
  for (const turn of parsed.value.turns) {
    checkpoints.beginTurn(turn.turnId);
    for (const file of turn.files)
      checkpoints.record(
        turn.turnId,
        file.path,
        file.kind === 'absent' ? 'absent' : new Uint8Array(Buffer.from(file.bytes, 'base64')),
      );
  }
  return { ok: true, value: checkpoints };
}
