import * as vscode from 'vscode';
import type { Attachment } from '../../chat/context';
import type { ContextHostMessage, PickerItem, PickerMode } from '../../contextProtocol';
import type { ContextWebviewMessage } from '../../protocol';
import { lastActiveTextEditor } from '../editorTracker';
import {
  fileItem,
  problemsItem,
  selectionItem,
  symbolItem,
  terminalItem,
  type Made,
  type PendingItem,
} from './contextItems';
import type { ContextSettings } from './contextSettings';
import type { ReadEnv } from './readers';
import type { TerminalCapture } from './terminalCapture';
import type { WorkspaceFiles } from './lazyFileIndex';

/** What every chat's context shares: the file index, the terminal capture and the key to refuse. */
export interface ContextServices {
  files: WorkspaceFiles;
  terminals: TerminalCapture;
  apiKey(): Promise<string | undefined>;
  /** The context settings as last read (read again when a setting changes). */
  settings(): ContextSettings;
}

/** The picker's fixed rows: kinds first, as the `#` picker shows them before any search (in the display language). */
function kinds(): PickerItem[] {
  return [
    {
      key: 'mode:files',
      label: vscode.l10n.t('Files…'),
      detail: vscode.l10n.t('search the workspace'),
      icon: 'file',
    },
    {
      key: 'kind:selection',
      label: vscode.l10n.t('Selection'),
      detail: vscode.l10n.t('the active editor’s selection'),
      icon: 'selection',
    },
    {
      key: 'kind:current',
      label: vscode.l10n.t('Current File'),
      detail: vscode.l10n.t('the active editor’s file'),
      icon: 'file-code',
    },
    {
      key: 'kind:editors',
      label: vscode.l10n.t('Open Editors'),
      detail: vscode.l10n.t('every visible editor'),
      icon: 'files',
    },
    {
      key: 'kind:problems-file',
      label: vscode.l10n.t('Problems in Current File'),
      detail: vscode.l10n.t('errors and warnings'),
      icon: 'warning',
    },
    {
      key: 'kind:problems',
      label: vscode.l10n.t('Problems in Workspace'),
      detail: vscode.l10n.t('errors and warnings'),
      icon: 'warning',
    },
    {
      key: 'kind:terminal',
      label: vscode.l10n.t('Terminal Output'),
      detail: vscode.l10n.t('the last command in the active terminal'),
      icon: 'terminal',
    },
    {
      key: 'mode:symbols',
      label: vscode.l10n.t('Symbols…'),
      detail: vscode.l10n.t('functions, classes…'),
      icon: 'symbol-class',
    },
  ];
}
const FILE_RESULTS = 30;
const SYMBOL_RESULTS = 30;

/**
 * The attachments of one chat's composer: the chips waiting to be sent, the suggested current file, and the
 * `#` picker's searches. Chips are read again when the message is sent ({@link snapshot}).
 */
export class ChatContext implements vscode.Disposable {
  private items: PendingItem[] = [];
  private suggestion: PendingItem | undefined;
  /** The file the user dismissed as a suggestion; not offered again until another editor becomes active. */
  private dismissedUri: string | undefined;
  private latestQuery = 0;
  private readonly symbols = new Map<string, vscode.SymbolInformation>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly services: ContextServices,
    private readonly post: (message: ContextHostMessage) => void,
    private readonly contextTokens: () => number,
  ) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        // Focus moving to the chat leaves no active editor while the file is still open: keep the suggestion
        // then, and drop it only when no editor is left.
        if (editor || vscode.window.visibleTextEditors.length === 0) void this.suggest(editor);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('modelGateway.chat.suggestCurrentFile'))
          void this.suggest(lastActiveTextEditor());
      }),
    );
    void this.suggest(lastActiveTextEditor());
  }

  /** Posts the chips (after the webview was (re)loaded or the model changed). */
  postChips(clearNotice = false): void {
    this.post({
      type: 'contextChips',
      chips: this.items.map((i) => i.chip),
      suggestion: this.suggestion?.chip,
      contextTokens: this.contextTokens(),
      ...(clearNotice ? { clearNotice } : {}),
    });
  }

  /** Adds workspace files (commands, drops); each refusal is reported. */
  async addUris(uris: readonly vscode.Uri[]): Promise<void> {
    const env = await this.env();
    await this.add(await Promise.all(uris.map((uri) => fileItem(uri, env))));
  }

  /** Adds the selection of `editor`. */
  async addSelection(editor: vscode.TextEditor): Promise<void> {
    await this.add([await selectionItem(editor, await this.env())]);
  }

  /** Handles a context message from the webview. */
  async handle(message: ContextWebviewMessage): Promise<void> {
    switch (message.type) {
      case 'contextQuery':
        return this.query(message.requestId, message.mode, message.query);
      case 'addContext':
        return this.pick(message.key);
      case 'removeContext':
        this.items = this.items.filter((i) => i.chip.id !== message.id);
        return this.postChips();
      case 'openContext':
        return (this.items.find((i) => i.chip.id === message.id) ?? this.suggestionIf(message.id))?.open();
      case 'acceptSuggestion': {
        const accepted = this.suggestion;
        this.suggestion = undefined;
        if (accepted && !this.items.some((i) => i.key === accepted.key)) this.items.push(accepted);
        return this.postChips();
      }
      case 'dismissSuggestion':
        this.dismissedUri = this.suggestion?.key;
        this.suggestion = undefined;
        return this.postChips();
      case 'dropFiles':
        return this.addUris(parseUris(message.uris));
      case 'openAttachment':
        return; // Handled by the session, which owns the transcript.
    }
  }

  /**
   * Reads every chip again for sending. A chip that cannot be read (deleted, renamed, now binary) fails the
   * whole send with its name, so nothing goes out without what the user attached.
   */
  async snapshot(): Promise<{ ok: true; attachments: Attachment[] } | { ok: false; message: string }> {
    if (!this.items.length) return { ok: true, attachments: [] };
    const env = await this.env();
    // Read side by side: one after another, each file's checks and read (realpath, stat, read) added up.
    const items = [...this.items];
    const reads = await Promise.all(items.map((item) => item.resolve(env)));
    const attachments: Attachment[] = [];
    for (const [i, read] of reads.entries()) {
      if (!read.ok)
        return {
          ok: false,
          message: vscode.l10n.t(
            'Not sent: {0} could not be attached. {1}',
            items[i].chip.name,
            read.message,
          ),
        };
      attachments.push(read.attachment);
    }
    return { ok: true, attachments };
  }

  /** Empties the composer's chips (after a send). */
  clear(): void {
    this.items = [];
    this.postChips();
    // The file that was attached may be the active one: it is offered again for the next question, once the
    // send that cleared the chips has had its turn (reading the file meanwhile delayed the request).
    setImmediate(() => void this.suggest(lastActiveTextEditor()));
  }

  /** The estimated tokens of the waiting chips. */
  get pendingTokens(): number {
    return this.items.reduce((sum, i) => sum + i.chip.tokens, 0);
  }

  private suggestionIf(id: string): PendingItem | undefined {
    return this.suggestion?.chip.id === id ? this.suggestion : undefined;
  }

  private async env(): Promise<ReadEnv> {
    return { settings: this.services.settings(), apiKey: await this.services.apiKey() };
  }

  private async add(results: readonly Made[]): Promise<void> {
    let refused = false;
    for (const result of results) {
      if (!result.ok) {
        refused = true;
        this.post({ type: 'notice', level: result.info ? 'info' : 'error', message: result.message });
        continue;
      }
      if (this.items.some((i) => i.key === result.item.key)) continue;
      this.items.push(result.item);
      if (this.suggestion?.key === result.item.key) this.suggestion = undefined;
    }
    // A refusal from an earlier try ("No terminal is open") must not stay beside the chip that now worked.
    this.postChips(!refused && results.length > 0);
  }

  private async suggest(editor: vscode.TextEditor | undefined): Promise<void> {
    const settings = this.services.settings();
    const uri = editor?.document.uri;
    const key = uri && `file:${uri.toString()}`;
    if (
      !settings.suggestCurrentFile ||
      !uri ||
      uri.scheme === 'output' ||
      !vscode.workspace.getWorkspaceFolder(uri)
    ) {
      if (this.suggestion) {
        this.suggestion = undefined;
        this.postChips();
      }
      return;
    }
    if (key !== this.dismissedUri) this.dismissedUri = undefined;
    if (key === this.dismissedUri || this.items.some((i) => i.key === key) || this.suggestion?.key === key)
      return;
    const made = await fileItem(uri, await this.env());
    this.suggestion = made.ok ? made.item : undefined;
    this.postChips();
  }

  private async query(requestId: number, mode: PickerMode, query: string): Promise<void> {
    this.latestQuery = requestId;
    const q = query.trim().toLowerCase();
    if (mode === 'symbols') return this.querySymbols(requestId, query.trim());
    const rows = mode === 'all' ? kinds().filter((k) => !q || k.label.toLowerCase().includes(q)) : [];
    const files = this.services.files;
    const withFiles = mode === 'files' || q !== '';
    if (withFiles && !files.ready) {
      this.post({ type: 'contextResults', requestId, mode, items: rows, pending: true });
      await files.load();
      if (requestId !== this.latestQuery) return; // The user typed on: that search answers instead.
    }
    const found = withFiles ? await files.search(query.trim(), FILE_RESULTS) : [];
    if (withFiles && requestId !== this.latestQuery) return; // The user typed on while the worker searched.
    const items = [...rows, ...found.map(({ path }) => fileRow(path))];
    this.post({ type: 'contextResults', requestId, mode, items, pending: false });
  }

  private async querySymbols(requestId: number, query: string): Promise<void> {
    this.post({ type: 'contextResults', requestId, mode: 'symbols', items: [], pending: true });
    let found: vscode.SymbolInformation[] = [];
    try {
      found =
        (await vscode.commands.executeCommand<vscode.SymbolInformation[]>(
          'vscode.executeWorkspaceSymbolProvider',
          query,
        )) ?? [];
    } catch {
      // No symbol provider answered: an empty list says so.
    }
    if (requestId !== this.latestQuery) return;
    this.symbols.clear();
    const items: PickerItem[] = [];
    for (const symbol of found.slice(0, SYMBOL_RESULTS)) {
      const key = `symbol:${items.length}`;
      this.symbols.set(key, symbol);
      const where = vscode.workspace.asRelativePath(symbol.location.uri);
      items.push({
        key,
        label: symbol.name,
        detail: `${where}:${symbol.location.range.start.line + 1}`,
        icon: 'symbol-method',
      });
    }
    this.post({ type: 'contextResults', requestId, mode: 'symbols', items, pending: false });
  }

  private async pick(key: string): Promise<void> {
    const env = await this.env();
    const editor = lastActiveTextEditor();
    const noEditor: Made = { ok: false, message: vscode.l10n.t('Open a file in an editor first.') };
    if (key.startsWith('file:')) {
      const uri = this.services.files.uriOf(key.slice(5));
      return this.add([
        uri
          ? await fileItem(uri, env)
          : { ok: false, message: vscode.l10n.t('{0} is not in the workspace.', key.slice(5)) },
      ]);
    }
    if (key.startsWith('symbol:')) {
      const symbol = this.symbols.get(key);
      if (symbol) await this.add([await symbolItem(symbol, env)]);
      return;
    }
    switch (key) {
      case 'kind:selection':
        return this.add([editor ? await selectionItem(editor, env) : noEditor]);
      case 'kind:current':
        return this.add([editor ? await fileItem(editor.document.uri, env) : noEditor]);
      case 'kind:editors': {
        const uris = uniqueUris(vscode.window.visibleTextEditors.map((e) => e.document.uri));
        return this.add(uris.length ? await Promise.all(uris.map((u) => fileItem(u, env))) : [noEditor]);
      }
      case 'kind:problems-file':
        return this.add([editor ? await problemsItem(editor.document.uri, env) : noEditor]);
      case 'kind:problems':
        return this.add([await problemsItem(undefined, env)]);
      case 'kind:terminal':
        return this.add([await terminalItem(this.services.terminals, env)]);
    }
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

function fileRow(path: string): PickerItem {
  const slash = path.lastIndexOf('/');
  return {
    key: `file:${path}`,
    label: path.slice(slash + 1),
    detail: slash > 0 ? path.slice(0, slash) : '',
    icon: 'file',
  };
}

function uniqueUris(uris: readonly vscode.Uri[]): vscode.Uri[] {
  const seen = new Map<string, vscode.Uri>();
  for (const uri of uris)
    if (uri.scheme === 'file' || uri.scheme === 'vscode-remote') seen.set(uri.toString(), uri);
  return [...seen.values()];
}

/** Dropped `text/uri-list` entries; anything that is not a URI is ignored. */
function parseUris(values: readonly string[]): vscode.Uri[] {
  const uris: vscode.Uri[] = [];
  for (const value of values.slice(0, 100)) {
    try {
      uris.push(vscode.Uri.parse(value, true));
    } catch {
      // Not a URI.
    }
  }
  return uris;
}
