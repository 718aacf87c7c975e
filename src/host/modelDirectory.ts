import * as vscode from 'vscode';
import { registerCommand } from './ourCommands';
import { normaliseBaseUrl } from '../gateway/baseUrl';
import { type DiscoveredModel, mergeModels } from '../gateway/discovery';
import { isGatewayError } from '../gateway';
import type { ModelInfo } from '../gateway/models';
import type { ApiKeyStore } from './apiKey';
import type { ConfigState } from './configState';
import { setApiKeyLabel, type GatewayService } from './gatewayService';

/** globalState key of the discovered lists, one per base URL. */
const CACHE_KEY = 'modelGateway.discoveredModels';

type Cache = Record<string, { models: DiscoveredModel[]; fetchedAt: number }>;

/** What one refresh ended with; returned by `modelGateway.refreshModels` for tests and scripts. */
export interface RefreshOutcome {
  source: 'server' | 'catalogue';
  /** How many models the server listed (0 when it was not asked or did not answer). */
  listed: number;
  /** Why the catalogue alone is used, when it is. */
  problem?: string;
}

/** The server root a list belongs to, so `http://h/v1/` and `http://h` share one cache entry. */
function cacheKey(baseUrl: string): string {
  const base = normaliseBaseUrl(baseUrl);
  return 'root' in base ? base.root : baseUrl.trim();
}

/**
 * The chat models to offer: the catalogue merged with what the server's `GET /v1/models` lists (issue 18).
 * Asks in the background at start, when the base URL or key changes and on `modelGateway.refreshModels`;
 * the last answer per base URL is kept in global state, so a reload shows it before the network answers.
 */
export class ModelDirectory implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fires when the offered list may have changed (a new answer, another base URL, other settings). */
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private baseUrl: string;
  /** Bumped per refresh: an answer for an older base URL or request is dropped. */
  private generation = 0;

  constructor(
    private readonly state: vscode.Memento,
    private readonly gateway: GatewayService,
    private readonly config: ConfigState,
    keys: ApiKeyStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.baseUrl = config.current.baseUrl;
    this.disposables.push(
      this.emitter,
      config.onDidChange((current) => {
        if (current.baseUrl !== this.baseUrl) {
          this.baseUrl = current.baseUrl;
          void this.refresh();
        }
        this.emitter.fire();
      }),
      keys.onDidChange(() => void this.refresh()),
    );
  }

  /** The offered models: catalogue, then server models, then extra ids. */
  list(): ModelInfo[] {
    const { chat, baseUrl } = this.config.current;
    return mergeModels(this.cached(baseUrl), chat.extraModels, chat.defaultContextTokens);
  }

  /** One offered model by id. */
  find(id: string): ModelInfo | undefined {
    return this.list().find((m) => m.id === id.trim());
  }

  /**
   * Asks the server for its models. Never throws and never blocks activation; failures mean the catalogue
   * alone and a log line, except a rejected key (401/403), which offers Set API Key like the chat does.
   */
  async refresh(options: { interactive?: boolean } = {}): Promise<RefreshOutcome> {
    const generation = ++this.generation;
    const baseUrl = this.config.current.baseUrl;
    if (!(await this.gatewayKey())) {
      this.log.info('Model discovery skipped: no API key is set.');
      return { source: 'catalogue', listed: 0, problem: vscode.l10n.t('No API key is set.') };
    }
    let outcome: RefreshOutcome;
    let models: DiscoveredModel[] | undefined;
    try {
      models = await this.gateway.current().listModels();
      outcome = { source: 'server', listed: models.length };
      this.log.info(`GET /v1/models listed ${models.length} model(s) at ${cacheKey(baseUrl)}.`);
    } catch (error) {
      const status = isGatewayError(error) ? error.status : undefined;
      const message = error instanceof Error ? error.message : String(error);
      outcome = { source: 'catalogue', listed: 0, problem: message };
      this.log.warn(
        `Model discovery failed${status ? ` (${status})` : ''}; using the built-in catalogue. ${message}`,
      );
      if (status === 401 || status === 403) this.offerSetKey(message);
      else if (options.interactive) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t(
            'Model Gateway: the server did not list its models, so the built-in catalogue is used. {0}',
            message,
          ),
        );
      }
    }
    // A newer refresh (another base URL) owns the answer now.
    if (generation !== this.generation) return outcome;
    await this.store(baseUrl, models);
    this.emitter.fire();
    return outcome;
  }

  private async gatewayKey(): Promise<boolean> {
    try {
      return (await this.gateway.hasKey()) === true;
    } catch {
      return false;
    }
  }

  private offerSetKey(message: string): void {
    const setKey = setApiKeyLabel();
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t("Model Gateway could not list the server's models: {0}", message),
        setKey,
      )
      .then((choice) => {
        if (choice === setKey) void vscode.commands.executeCommand('modelGateway.setApiKey');
      });
  }

  private cached(baseUrl: string): DiscoveredModel[] | undefined {
    return this.state.get<Cache>(CACHE_KEY, {})[cacheKey(baseUrl)]?.models;
  }

  private async store(baseUrl: string, models: DiscoveredModel[] | undefined): Promise<void> {
    const cache = { ...this.state.get<Cache>(CACHE_KEY, {}) };
    const key = cacheKey(baseUrl);
    if (models) cache[key] = { models, fetchedAt: Date.now() };
    else delete cache[key];
    await this.state.update(CACHE_KEY, cache);
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

/** Registers `modelGateway.refreshModels` and the first, background discovery. */
export function registerModelDiscovery(context: vscode.ExtensionContext, directory: ModelDirectory): void {
  context.subscriptions.push(
    directory,
    registerCommand('modelGateway.refreshModels', async () => {
      const outcome = await directory.refresh({ interactive: true });
      if (outcome.source === 'server') {
        vscode.window.setStatusBarMessage(
          vscode.l10n.t('Model Gateway: the server lists {0} model(s).', outcome.listed),
          5000,
        );
      }
      return outcome;
    }),
  );
  // Not awaited: activation never waits for the network; the cached list is shown meanwhile.
  setTimeout(() => void directory.refresh(), 0);
}
