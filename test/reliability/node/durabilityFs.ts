// A real filesystem for the chat store that "dies" at a chosen step: the process is gone from then on, so
// that operation and every later one fail. At a file write it can also die halfway, leaving the first half
// of the bytes on disk, as a kill or power cut during write() would. A rename over a file is two steps, as in
// the real editor.
import { promises as fsp } from 'node:fs';
import type { StoreFs } from '../../../src/chat/store';
import type { FileStamp } from '../../../src/chat/writeGuard';

/** How the crash hits the step it lands on. */
export type CrashMode = 'before' | 'torn';

/** Thrown by every operation once the simulated process has died. */
export class SimulatedCrash extends Error {
  constructor(step: number) {
    super(`simulated crash at step ${step}`);
  }
}

/** Node's fs behind the `StoreFs` seam, counting the steps that change the disk. */
export class CrashingFs implements StoreFs {
  /** Steps that changed (or would have changed) the disk so far. */
  steps = 0;
  dead = false;
  /** Where each step went, for failure messages. */
  readonly log: string[] = [];

  /** `crashAt` 0 never crashes (a counting run). */
  constructor(
    private readonly crashAt = 0,
    private readonly mode: CrashMode = 'before',
  ) {}

  /** Counts a changing step; true when the crash happens at it. */
  private step(what: string): boolean {
    this.alive();
    this.steps++;
    this.log.push(what);
    if (this.steps !== this.crashAt) return false;
    this.dead = true;
    return true;
  }

  private alive(): void {
    if (this.dead) throw new SimulatedCrash(this.crashAt);
  }

  async readFile(path: string): Promise<Uint8Array> {
    this.alive();
    return new Uint8Array(await fsp.readFile(path));
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    if (this.step(`write ${path}`)) {
      if (this.mode === 'torn') await fsp.writeFile(path, data.subarray(0, Math.floor(data.length / 2)));
      throw new SimulatedCrash(this.crashAt);
    }
    await fsp.writeFile(path, data);
  }

  /**
   * Renames as `vscode.workspace.fs` does in the extension host: over an existing file, VS Code's disk
   * provider deletes the target first and then moves the file, so a kill between the two leaves no target.
   */
  async rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    this.alive();
    if (await this.exists(to)) {
      if (!options.overwrite) throw new Error(`EEXIST: ${to}`);
      if (this.step(`delete ${to} (rename over it)`)) throw new SimulatedCrash(this.crashAt);
      await fsp.rm(to);
    }
    if (this.step(`rename ${from} -> ${to}`)) throw new SimulatedCrash(this.crashAt);
    await fsp.rename(from, to);
  }

  async delete(path: string): Promise<void> {
    if (this.step(`delete ${path}`)) throw new SimulatedCrash(this.crashAt);
    await fsp.rm(path);
  }

  async readDirectory(path: string): Promise<string[]> {
    this.alive();
    return fsp.readdir(path);
  }

  async createDirectory(path: string): Promise<void> {
    if (this.step(`mkdir ${path}`)) throw new SimulatedCrash(this.crashAt);
    await fsp.mkdir(path, { recursive: true });
  }

  async stat(path: string): Promise<FileStamp | undefined> {
    this.alive();
    return fsp.stat(path).then(
      ({ mtimeMs, size }) => ({ mtime: Math.floor(mtimeMs), size }),
      () => undefined,
    );
  }

  async exists(path: string): Promise<boolean> {
    this.alive();
    return fsp.access(path).then(
      () => true,
      () => false,
    );
  }
}

/** A plain Node `StoreFs` (the store after the restart). */
export function restartedFs(): StoreFs {
  return new CrashingFs(0);
}
