import * as vscode from 'vscode';

const SECRET_KEY = 'modelGateway.apiKey';
const API_KEY_ENV = 'MODEL_GATEWAY_API_KEY';

/** The API key: kept only in SecretStorage, with the MODEL_GATEWAY_API_KEY environment variable as fallback. */
export class ApiKeyStore {
  readonly onDidChange: vscode.Event<void>;
  private readonly emitter = new vscode.EventEmitter<void>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.onDidChange = this.emitter.event;
    secrets.onDidChange((e) => {
      if (e.key === SECRET_KEY) this.emitter.fire();
    });
  }

  /** The stored key, else the environment's, else undefined. */
  async get(): Promise<string | undefined> {
    const stored = await this.secrets.get(SECRET_KEY);
    if (stored) return stored;
    const fromEnv = this.env[API_KEY_ENV]?.trim();
    return fromEnv || undefined;
  }

  /** Where the current key comes from. */
  async source(): Promise<'secretStorage' | 'environment' | 'none'> {
    if (await this.secrets.get(SECRET_KEY)) return 'secretStorage';
    return this.env[API_KEY_ENV]?.trim() ? 'environment' : 'none';
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(SECRET_KEY, key);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(SECRET_KEY);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
