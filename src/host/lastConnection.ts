import * as vscode from 'vscode';

/** A successful Test Connection: where, how long it took, and when. */
export interface ConnectionSuccess {
  baseUrl: string;
  ms: number;
  at: Date;
}

/** The last successful Test Connection of this session, so the status bar can keep showing it after the toast. */
export class LastConnection implements vscode.Disposable {
  private value: ConnectionSuccess | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** The last success, if any. */
  get current(): ConnectionSuccess | undefined {
    return this.value;
  }

  /** Records a success and tells listeners. */
  set(success: ConnectionSuccess): void {
    this.value = success;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** "HH:MM" in local time, as the tooltip shows it. */
export function clockTime(at: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
