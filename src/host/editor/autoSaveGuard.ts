import * as vscode from 'vscode';
import {
  AUTO_SAVE_NOTE_KEY as NOTE_KEY,
  AUTO_SAVE_OFF,
  planSuspension,
  shouldRestore,
  type AutoSaveSuspension,
  type AutoSaveValues,
  type SettingLevel,
} from '../../review/autoSave';

/** A suspension written to the settings: for which language, and for which folder at that level. */
interface Held extends AutoSaveSuspension {
  languageId: string;
  folder?: string;
}

const TARGETS: Record<SettingLevel, vscode.ConfigurationTarget> = {
  global: vscode.ConfigurationTarget.Global,
  workspace: vscode.ConfigurationTarget.Workspace,
  workspaceFolder: vscode.ConfigurationTarget.WorkspaceFolder,
};

/**
 * Keeps VS Code's auto-save off for the document an edit is proposed in (rules in review/autoSave.ts), so the
 * proposal stays in the editor until the user decides; saving by hand still saves. Changes are queued, one
 * at a time; `hold` and `release` never reject.
 */
export class AutoSaveGuard implements vscode.Disposable {
  private wanted: vscode.TextDocument | undefined;
  private held: Held | undefined;
  private memento: vscode.Memento | undefined;
  private queue: Promise<void> = Promise.resolve();
  private warned = false;
  // Another window ending its own suspension, or the user, can turn auto-save back on: turn it off again.
  private readonly subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (this.wanted && e.affectsConfiguration('files.autoSave', this.wanted)) void this.sync();
  });

  /** Notes suspensions in `memento` from now on, and ends one that a session before this one left behind. */
  recover(memento: vscode.Memento): Promise<void> {
    this.memento = memento;
    const left = memento.get<Held>(NOTE_KEY);
    if (left && !this.held) this.held = left;
    return this.sync();
  }

  /** Turns auto-save off for `document`'s language; resolves once the setting is in force. */
  hold(document: vscode.TextDocument): Promise<void> {
    this.wanted = document;
    return this.sync();
  }

  /** Puts auto-save back as it was. */
  release(): Promise<void> {
    this.wanted = undefined;
    return this.sync();
  }

  private sync(): Promise<void> {
    this.queue = this.queue.then(
      () => this.apply(),
      () => this.apply(),
    );
    return this.queue.catch((error: unknown) => this.warn(error));
  }

  private async apply(): Promise<void> {
    const wanted = this.wanted?.isUntitled ? undefined : this.wanted;
    const held = this.held;
    if (held && (!wanted || wanted.languageId !== held.languageId || folderOf(wanted) !== held.folder)) {
      const scope = scopeOf(held);
      if (shouldRestore(held, inspect(scope))) await write(scope, held.level, held.previous);
      this.held = undefined;
      await this.memento?.update(NOTE_KEY, undefined);
    }
    if (!wanted) return;
    const scope = { uri: wanted.uri, languageId: wanted.languageId };
    const plan = planSuspension(inspect(scope));
    if (!plan) return;
    // Turned on again while held: the value to put back stays the one from before the review.
    const previous = this.held?.level === plan.level ? this.held.previous : plan.previous;
    this.held = { level: plan.level, previous, languageId: wanted.languageId, folder: folderOf(wanted) };
    // The note goes to the window before the settings write, which is enough: the window keeps it as it arrives,
    // and its acknowledgement promises no more (the window's storage is written to disk later either way).
    // Waiting for that acknowledgement first held back the review's first write by a round trip, 75-145 ms in
    // code-server. A memento sends its changes on a 0 ms timer: the settings write starts a timer later.
    const noted = this.memento?.update(NOTE_KEY, this.held);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([noted, write(scope, plan.level, AUTO_SAVE_OFF)]);
  }

  private warn(error: unknown): void {
    if (this.warned) return;
    this.warned = true;
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Model Gateway could not pause auto-save while an edit is under review ({0}): the proposed code may be saved before you review it.',
        error instanceof Error ? error.message : String(error),
      ),
    );
  }

  dispose(): void {
    this.subscription.dispose();
    void this.release();
  }
}

type Scope = { uri?: vscode.Uri; languageId: string };

function folderOf(document: vscode.TextDocument): string | undefined {
  return vscode.workspace.getWorkspaceFolder(document.uri)?.uri.toString();
}

function scopeOf(held: Held): Scope {
  return { languageId: held.languageId, ...(held.folder ? { uri: vscode.Uri.parse(held.folder) } : {}) };
}

function inspect(scope: Scope): AutoSaveValues {
  return vscode.workspace.getConfiguration('files', scope).inspect<string>('autoSave') ?? {};
}

function write(scope: Scope, level: SettingLevel, value: string | undefined): Thenable<void> {
  return vscode.workspace.getConfiguration('files', scope).update('autoSave', value, TARGETS[level], true);
}
