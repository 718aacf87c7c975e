import * as vscode from 'vscode';
import { createGatewayClient } from '../gateway';
import type { GatewayClient } from '../gateway/types';
import type { ApiKeyStore } from './apiKey';
import type { ExtensionConfig } from './config';
import { setApiKeyLabel } from './errors';
import { logRequest } from './log';

/** Builds the gateway client from the current settings and key, rebuilding it when settings change. */
export class GatewayService implements vscode.Disposable {
  private client: GatewayClient | undefined;
  private clientConfig: ExtensionConfig | undefined;
  private readonly succeeded = new vscode.EventEmitter<void>();
  /** Fires when a request to the gateway got a successful answer (the walkthrough's connection step). */
  readonly onDidSucceed = this.succeeded.event;

  constructor(
    private readonly getConfig: () => ExtensionConfig,
    private readonly keys: ApiKeyStore,
    /** The "Model Gateway" log channel. */
    readonly log: vscode.LogOutputChannel,
    private readonly userAgent: string,
  ) {}

  /** The client for the current settings (the key is read per request, so a new key applies at once). */
  current(): GatewayClient {
    const config = this.getConfig();
    if (this.client && this.clientConfig === config) return this.client;
    // A changed setting must not break answers already streaming: the old client closes when they end.
    void this.client?.retire();
    this.clientConfig = config;
    const names = Object.keys(config.headers);
    // Names only: header values can be credentials.
    if (names.length) this.log.info(`Custom headers sent with every request: ${names.join(', ')}`);
    this.client = createGatewayClient({
      baseUrl: config.baseUrl,
      apiKey: () => this.keys.get(),
      proxy: config.proxy,
      userAgent: this.userAgent,
      headers: config.headers,
      retry: { maxRetries: config.retries },
      timeouts: {
        firstByteMs: config.firstByteTimeoutMs,
        idleMs: config.idleTimeoutMs,
        imageFirstByteMs: config.images.timeoutMs,
      },
      onRequestLog: (entry) => {
        logRequest(this.log, entry);
        if (!entry.error && entry.status !== undefined && entry.status < 300) this.succeeded.fire();
      },
    });
    return this.client;
  }

  /** True when a key is set; shows nothing (background work that needs a key checks first). */
  async hasKey(): Promise<boolean> {
    return (await this.keys.get()) !== undefined;
  }

  /** Resolves the key, or shows the "no key" message with a Set API Key button and resolves undefined. */
  async requireKey(): Promise<string | undefined> {
    const key = await this.keys.get();
    if (key) return key;
    const setKey = setApiKeyLabel();
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t(
          'Model Gateway has no API key. Set one to use the gateway (it is kept in VS Code SecretStorage).',
        ),
        setKey,
      )
      .then((choice) => {
        if (choice === setKey) void vscode.commands.executeCommand('modelGateway.setApiKey');
      });
    return undefined;
  }

  dispose(): void {
    this.succeeded.dispose();
    void this.client?.close();
    this.client = undefined;
  }
}

export { setApiKeyLabel };
