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
    this.item.name = 'Model Gateway Completions';
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
      ? { message: detail, command: 'modelGateway.setApiKey', action: 'Set API Key' }
      : { message: detail, command: 'modelGateway.showLog', action: 'Show Log' };
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
      this.item.text = '$(warning) Completions';
      this.item.tooltip = `Model Gateway inline completions are failing: ${this.problem.message}\nClick to ${this.problem.action}.`;
      this.item.command = this.problem.command;
      this.item.accessibilityInformation = {
        label: `Model Gateway completions are failing. ${this.problem.action}.`,
      };
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      return;
    }
    this.item.backgroundColor = undefined;
    this.item.text = this.enabled ? '$(sparkle) Completions' : '$(circle-slash) Completions';
    this.item.tooltip = this.enabled
      ? 'Model Gateway inline completions are on (each suggestion is a gateway request). Click to turn them off.'
      : 'Model Gateway inline completions are off. Click to turn them on (each suggestion is a gateway request).';
    this.item.command = 'modelGateway.toggleCompletions';
    this.item.accessibilityInformation = {
      label: `Model Gateway completions ${this.enabled ? 'on' : 'off'}. Toggle completions.`,
    };
  }

  dispose(): void {
    this.item.dispose();
  }
}
