import * as vscode from 'vscode';

const SECRET_KEY = 'modelGateway.apiKey';
const API_KEY_ENV = 'MODEL_GATEWAY_API_KEY';

/** The API key: kept only in SecretStorage, with the MODEL_GATEWAY_API_KEY environment variable as fallback. */
export class ApiKeyStore {
  readonly onDidChange: vscode.Event<void>;
  private readonly emitter = new vscode.EventEmitter<void>();
  /**
   * The last read of SecretStorage, kept until the secret changes. Each read is a round trip to the window that
   * holds the secrets (in code-server, the browser), and a chat send needed three of them before its request went
   * out (the attachment check, the "no key" check, the request's header).
   */
  private stored: Promise<string | undefined> | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.onDidChange = this.emitter.event;
    secrets.onDidChange((e) => {
      if (e.key !== SECRET_KEY) return;
      this.stored = undefined;
      this.emitter.fire();
    });
  }

  /** The stored key, else the environment's, else undefined. */
  async get(): Promise<string | undefined> {
    const stored = await this.readStored();
    if (stored) return stored;
    const fromEnv = this.env[API_KEY_ENV]?.trim();
    return fromEnv || undefined;
  }

  /** Where the current key comes from. */
  async source(): Promise<'secretStorage' | 'environment' | 'none'> {
    if (await this.readStored()) return 'secretStorage';
    return this.env[API_KEY_ENV]?.trim() ? 'environment' : 'none';
  }

  async set(key: string): Promise<void> {
    this.stored = undefined;
    try {
      await this.secrets.store(SECRET_KEY, key);
    } finally {
      this.stored = undefined;
    }
  }

  async clear(): Promise<void> {
    this.stored = undefined;
    try {
      await this.secrets.delete(SECRET_KEY);
    } finally {
      this.stored = undefined;
    }
  }

  /** SecretStorage's value, read once and then kept until it changes; a failed read is not kept. */
  private readStored(): Promise<string | undefined> {
    const read = (this.stored ??= Promise.resolve(this.secrets.get(SECRET_KEY)));
    read.catch(() => {
      if (this.stored === read) this.stored = undefined;
    });
    return read;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
