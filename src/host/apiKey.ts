import * as vscode from 'vscode';
import { KeptRead } from './keptRead';

const SECRET_KEY = 'modelGateway.apiKey';
const API_KEY_ENV = 'MODEL_GATEWAY_API_KEY';

/** The API key: kept only in SecretStorage, with the MODEL_GATEWAY_API_KEY environment variable as fallback. */
export class ApiKeyStore {
  readonly onDidChange: vscode.Event<void>;
  private readonly emitter = new vscode.EventEmitter<void>();
  /**
   * SecretStorage's value, read once and then kept until the secret changes. Each read is a round trip to the
   * window that holds the secrets (in code-server, the browser), and a chat send needed three of them before its
   * request went out (the attachment check, the "no key" check, the request's header).
   */
  private readonly stored: KeptRead<string | undefined>;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.onDidChange = this.emitter.event;
    this.stored = new KeptRead(() => secrets.get(SECRET_KEY));
    secrets.onDidChange((e) => {
      if (e.key !== SECRET_KEY) return;
      this.stored.invalidate();
      this.emitter.fire();
    });
  }

  /** The stored key, else the environment's, else undefined. */
  async get(): Promise<string | undefined> {
    const stored = await this.stored.get();
    if (stored) return stored;
    const fromEnv = this.env[API_KEY_ENV]?.trim();
    return fromEnv || undefined;
  }

  /** Where the current key comes from. */
  async source(): Promise<'secretStorage' | 'environment' | 'none'> {
    if (await this.stored.get()) return 'secretStorage';
    return this.env[API_KEY_ENV]?.trim() ? 'environment' : 'none';
  }

  async set(key: string): Promise<void> {
    // Forgotten before (a get meanwhile reads again) and after (a read made meanwhile may hold the old value).
    this.stored.invalidate();
    try {
      await this.secrets.store(SECRET_KEY, key);
    } finally {
      this.stored.invalidate();
    }
  }

  async clear(): Promise<void> {
    // Forgotten before (a get meanwhile reads again) and after (a read made meanwhile may hold the old value).
    this.stored.invalidate();
    try {
      await this.secrets.delete(SECRET_KEY);
    } finally {
      this.stored.invalidate();
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
