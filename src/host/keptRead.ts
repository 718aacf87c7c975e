/**
 * A value read once and then kept until it is invalidated: the API key, whose every read from SecretStorage is a
 * round trip to the window that holds the secrets (in code-server, the browser). Pure, so it is unit-tested in
 * plain Node.
 */
export class KeptRead<T> {
  private kept: Promise<T> | undefined;

  constructor(private readonly read: () => PromiseLike<T> | T) {}

  /**
   * The kept value, or a new read when there is none. Callers that ask while a read is in flight share it. A
   * failed read is not kept (the next call reads again); nor is a read that was invalidated while in flight.
   */
  get(): Promise<T> {
    if (this.kept) return this.kept;
    let read: Promise<T>;
    try {
      read = Promise.resolve(this.read());
    } catch (error) {
      read = Promise.reject(error);
    }
    this.kept = read;
    read.catch(() => {
      if (this.kept === read) this.kept = undefined;
    });
    return read;
  }

  /** Forgets the kept value (the secret changed, or is being changed): the next `get` reads again. */
  invalidate(): void {
    this.kept = undefined;
  }
}
