import * as vscode from 'vscode';
import { readConfig, type ExtensionConfig } from './config';

/** Holds the validated settings, re-read on change; warns once about each invalid value. */
export class ConfigState implements vscode.Disposable {
  private config: ExtensionConfig;
  private warned = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<ExtensionConfig>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.config = this.load();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('modelGateway') && !e.affectsConfiguration('http.proxy')) return;
      this.config = this.load();
      this.emitter.fire(this.config);
    });
  }

  /** The current settings (a new object after every change). */
  get current(): ExtensionConfig {
    return this.config;
  }

  private load(): ExtensionConfig {
    const { config, problems } = readConfig();
    const fresh = problems.filter((p) => !this.warned.has(p));
    this.warned = new Set(problems);
    for (const problem of fresh) {
      this.log.warn(`Setting problem: ${problem}`);
      void vscode.window
        .showWarningMessage(vscode.l10n.t('Model Gateway: {0}', problem), vscode.l10n.t('Open Settings'))
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway');
        });
    }
    return config;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
