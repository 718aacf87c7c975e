/** A `StoreFs` over Node's fs for tests, with hooks to count calls and inject failures or delays. */
import { promises as fsp } from 'node:fs';
import type { StoreFs } from '../../../src/chat/store';
import type { FileStamp } from '../../../src/chat/writeGuard';

/** Operations a hook can observe. */
export type FsOp =
  'readFile' | 'writeFile' | 'rename' | 'delete' | 'readDirectory' | 'createDirectory' | 'exists' | 'stat';

/** Node-backed store filesystem; `before` runs ahead of every call and may throw or wait. */
export class NodeStoreFs implements StoreFs {
  readonly calls: Array<{ op: FsOp; path: string }> = [];
  before: (op: FsOp, path: string) => void | Promise<void> = () => undefined;

  /** How many calls of `op` touched a path containing `pathPart`. */
  count(op: FsOp, pathPart = ''): number {
    return this.calls.filter((c) => c.op === op && c.path.includes(pathPart)).length;
  }

  private async hook(op: FsOp, path: string): Promise<void> {
    this.calls.push({ op, path });
    await this.before(op, path);
  }

  async readFile(path: string): Promise<Uint8Array> {
    await this.hook('readFile', path);
    return new Uint8Array(await fsp.readFile(path));
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    await this.hook('writeFile', path);
    await fsp.writeFile(path, data);
  }

  async rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    await this.hook('rename', from);
    if (!options.overwrite && (await this.exists(to))) throw new Error(`EEXIST: ${to}`);
    await fsp.rename(from, to);
  }

  async delete(path: string): Promise<void> {
    await this.hook('delete', path);
    await fsp.rm(path);
  }

  async readDirectory(path: string): Promise<string[]> {
    await this.hook('readDirectory', path);
    return fsp.readdir(path);
  }

  async createDirectory(path: string): Promise<void> {
    await this.hook('createDirectory', path);
    await fsp.mkdir(path, { recursive: true });
  }

  async exists(path: string): Promise<boolean> {
    await this.hook('exists', path);
    return fsp.access(path).then(
      () => true,
      () => false,
    );
  }

  async stat(path: string): Promise<FileStamp | undefined> {
    await this.hook('stat', path);
    return fsp.stat(path).then(
      ({ mtimeMs, size }) => ({ mtime: Math.floor(mtimeMs), size }),
      () => undefined,
    );
  }
}
