import * as vscode from 'vscode';
import { AuthError } from '../../gateway/errors';

/** Failures in a row before the status bar says so (an auth failure says so at once: it will not heal). */
const FAILURES_SHOWN = 3;

/** The status bar toggle of inline completions; it also shows repeated failures, with the fix as its action. */
export class CompletionStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'modelGateway.completions',
    vscode.StatusBarAlignment.Right,
    99,
  );
  private enabled = false;
  private failures = 0;
  private problem: { message: string; command: string; action: string } | undefined;

  constructor() {
    this.item.name = vscode.l10n.t('Model Gateway Completions');
    this.render();
    this.item.show();
  }

  /** Shows whether completions are on; turning them on or off forgets a shown failure. */
  setEnabled(enabled: boolean): void {
    if (enabled !== this.enabled) this.problem = undefined;
    this.enabled = enabled;
    this.failures = 0;
    this.render();
  }

  /** A request failed: after several in a row (or one auth failure), the item shows it once. */
  failed(error: unknown): void {
    this.failures++;
    if (this.problem) return;
    const auth = error instanceof AuthError;
    if (!auth && this.failures < FAILURES_SHOWN) return;
    const detail = error instanceof Error ? error.message : String(error);
    this.problem = auth
      ? { message: detail, command: 'modelGateway.setApiKey', action: vscode.l10n.t('Set API Key') }
      : { message: detail, command: 'modelGateway.showLog', action: vscode.l10n.t('Show Log') };
    this.render();
  }

  /** A request succeeded: any failure shown is over. */
  succeeded(): void {
    this.failures = 0;
    if (!this.problem) return;
    this.problem = undefined;
    this.render();
  }

  /** What the item shows, for tests: its text, tooltip and command id. */
  get state(): { text: string; tooltip: string; command: string } {
    const tooltip = this.item.tooltip;
    return {
      text: this.item.text,
      tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
      command: typeof this.item.command === 'string' ? this.item.command : (this.item.command?.command ?? ''),
    };
  }

  private render(): void {
    if (this.problem) {
      this.item.text = vscode.l10n.t('$(warning) Completions');
      this.item.tooltip = vscode.l10n.t(
        'Model Gateway inline completions are failing: {0}\nClick to {1}.',
        this.problem.message,
        this.problem.action,
      );
      this.item.command = this.problem.command;
      this.item.accessibilityInformation = {
        label: vscode.l10n.t('Model Gateway completions are failing. {0}.', this.problem.action),
      };
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      return;
    }
    this.item.backgroundColor = undefined;
    this.item.text = this.enabled
      ? vscode.l10n.t('$(sparkle) Completions')
      : vscode.l10n.t('$(circle-slash) Completions');
    this.item.tooltip = this.enabled
      ? vscode.l10n.t(
          'Model Gateway inline completions are on (each suggestion is a gateway request). Click to turn them off.',
        )
      : vscode.l10n.t(
          'Model Gateway inline completions are off. Click to turn them on (each suggestion is a gateway request).',
        );
    this.item.command = 'modelGateway.toggleCompletions';
    this.item.accessibilityInformation = {
      label: this.enabled
        ? vscode.l10n.t('Model Gateway completions on. Toggle completions.')
        : vscode.l10n.t('Model Gateway completions off. Toggle completions.'),
    };
  }

  dispose(): void {
    this.item.dispose();
  }
}
