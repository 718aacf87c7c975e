// The chat's image turns on the host: `/image` from the composer, generated and saved exactly as Generate Image
// saves, shown in the webview from the saved files through webview resource URIs, and the actions on each image.
import * as vscode from 'vscode';
import { finishImageTurn, relativeLink, startImageTurn, type ImageTurnOutcome } from '../../chat/imageTurns';
import type { Conversation, ImageTurn, ImageTurnFile, ImageTurnOptions } from '../../chat/types';
import { parseSlashImage } from '../../images/slashImage';
import type { HostToWebview, ImageAction, ImageSources } from '../../protocol';
import { describeError, isUserAbort } from '../errors';
import { lastActiveTextEditor } from '../editorTracker';
import { resolveImageFolder } from '../images/imageTarget';
import { saveImages } from '../images/saveImages';
import type { ChatState } from './chatPorts';
import { uriExists } from '../uriExists';

/** What the image turns need of their session. */
export interface ImageSessionPort {
  readonly conversation: Conversation;
  post(message: HostToWebview): void;
  /** Runs work as the session's one request in flight, so Stop aborts it. */
  inFlight(work: (signal: AbortSignal) => Promise<void>): Promise<void>;
  /** The webview showing the conversation, for resource URIs. */
  readonly view: vscode.Webview | undefined;
}

/** The chat's image turns for one session. */
export class ChatImages {
  constructor(
    private readonly chat: ChatState,
    private readonly session: ImageSessionPort,
  ) {}

  /** `/image …` typed in the composer: refused with a message naming the valid values, or generated. */
  async fromComposer(text: string): Promise<void> {
    const parsed = parseSlashImage(text);
    if (!parsed.ok) {
      this.session.post({ type: 'notice', level: 'error', message: parsed.message });
      this.session.post({ type: 'restoreDraft', text });
      return;
    }
    const images = this.chat.config.current.images;
    const options: ImageTurnOptions = {
      size: parsed.overrides.size ?? images.size,
      quality: parsed.overrides.quality ?? images.quality,
      n: parsed.overrides.n ?? images.count,
      responseFormat: parsed.overrides.responseFormat ?? images.responseFormat,
    };
    await this.generate(text.trim(), parsed.prompt, options);
  }

  /** Generates a new image turn with the given prompt and options; Stop aborts it and leaves no file. */
  async generate(content: string, prompt: string, options: ImageTurnOptions): Promise<void> {
    await this.session.inFlight(async (signal) => {
      const conversation = this.session.conversation;
      const model = this.chat.config.current.images.model;
      const turn = startImageTurn(conversation, { content, prompt, model, options });
      this.session.post({ type: 'turnsAdded', turns: [turn] });
      this.chat.touched(conversation);
      this.chat.scheduleSave(conversation);
      this.chat.changed(conversation, this.session);
      try {
        const outcome = await this.run(turn, signal);
        finishImageTurn(conversation, turn.id, outcome);
        this.chat.log.info(`Chat image turn ${outcome.status} (${model}).`);
      } finally {
        if (turn.status === 'generating') finishImageTurn(conversation, turn.id, { status: 'stopped' });
        this.session.post({ type: 'imageTurn', turn, sources: await this.sourcesOf(turn) });
        await this.chat.persist(conversation);
      }
    });
  }

  private async run(turn: ImageTurn, signal: AbortSignal): Promise<ImageTurnOutcome> {
    const config = this.chat.config.current;
    if (!vscode.workspace.workspaceFolders?.length) {
      void askToOpenFolder();
      return error(
        vscode.l10n.t('No folder is open. Open a folder: the chat keeps images inside the workspace.'),
      );
    }
    const target = await resolveImageFolder(config.images.folder);
    if ('refused' in target) {
      return error(
        vscode.l10n.t("{0} Set 'modelGateway.images.folder' to a path inside the workspace.", target.refused),
      );
    }
    if (!(await this.chat.gateway.requireKey())) {
      return {
        status: 'error',
        error: {
          message: vscode.l10n.t("No API key is set. Run 'Model Gateway: Set API Key'."),
          action: 'setApiKey',
        },
      };
    }
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal.addEventListener('abort', onAbort);
    try {
      const result = await this.chat.gateway.current().generateImages(
        {
          model: config.images.model,
          prompt: turn.prompt,
          n: turn.options.n,
          size: turn.options.size,
          quality: turn.options.quality,
          response_format: turn.options.responseFormat,
        },
        { signal },
      );
      if (signal.aborted) return { status: 'stopped' };
      const saved = await saveImages({
        folder: target.folder,
        prompt: turn.prompt,
        images: result.images,
        model: config.images.model,
        size: turn.options.size,
        quality: turn.options.quality,
        writeMetadata: config.images.writeMetadata,
        token: cancel.token,
      });
      const root = vscode.workspace.getWorkspaceFolder(target.root);
      const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      const images: ImageTurnFile[] = saved.map((uri, i) => ({
        path: relativeTo(target.root, uri),
        ...(several && root ? { workspaceFolder: root.name } : {}),
        ...(result.images[i]?.revisedPrompt ? { revisedPrompt: result.images[i].revisedPrompt } : {}),
      }));
      return { status: 'complete', images };
    } catch (cause) {
      if (signal.aborted || isUserAbort(cause) || cause instanceof vscode.CancellationError)
        return { status: 'stopped' };
      if (/ENOSPC|no space left/i.test(cause instanceof Error ? cause.message : String(cause))) {
        return error(
          vscode.l10n.t('The disk is full: the images were not saved, and nothing was left behind.'),
        );
      }
      const described = describeError(cause);
      return {
        status: 'error',
        error: { ...described, message: vscode.l10n.t('{0} Nothing was saved.', described.message) },
      };
    } finally {
      signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  /** Posts the resource URIs of every image turn's files (null for a file deleted or moved since). */
  async postSources(): Promise<void> {
    const sources: ImageSources = {};
    for (const turn of this.session.conversation.turns) {
      if (turn.role === 'image' && turn.images.length) sources[turn.id] = await this.sourcesOf(turn);
    }
    if (Object.keys(sources).length) this.session.post({ type: 'imageSources', sources });
  }

  private async sourcesOf(turn: ImageTurn): Promise<Array<string | null>> {
    const webview = this.session.view;
    return Promise.all(
      turn.images.map(async (image) => {
        const uri = fileOf(image);
        if (!uri || !webview || !(await uriExists(uri))) return null;
        allowRoot(webview, vscode.Uri.joinPath(uri, '..'));
        return webview.asWebviewUri(uri).toString();
      }),
    );
  }

  /** Runs one of an image's buttons. */
  async act(turnId: string, index: number, action: ImageAction): Promise<void> {
    const turn = this.session.conversation.turns.find(
      (t): t is ImageTurn => t.id === turnId && t.role === 'image',
    );
    if (!turn) return;
    if (action === 'regenerate') return this.generate(turn.content, turn.prompt, turn.options);
    const image = turn.images[index];
    const uri = image && fileOf(image);
    if (!uri) return;
    if (!(await uriExists(uri))) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} was deleted or moved.', image.path));
      return;
    }
    switch (action) {
      case 'open':
        await vscode.commands.executeCommand('vscode.open', uri);
        return;
      case 'reveal':
        await vscode.commands.executeCommand('revealInExplorer', uri);
        return;
      case 'copyPath':
        await vscode.env.clipboard.writeText(uri.fsPath);
        return;
      case 'insertLink':
        await insertLink(uri, turn.prompt);
    }
  }
}

/** Inserts `![prompt](relative/path.png)` at the cursor of the last active editor, relative to its file. */
async function insertLink(uri: vscode.Uri, prompt: string): Promise<void> {
  const editor = lastActiveTextEditor();
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a file to insert the Markdown link into.'));
    return;
  }
  const fromDir = vscode.Uri.joinPath(editor.document.uri, '..').path;
  const alt = prompt
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[[\]\\]/g, '\\$&');
  const link = `![${alt}](${relativeLink(fromDir, uri.path)})`;
  await editor.edit((edit) => edit.replace(editor.selection, link));
}

function error(message: string): ImageTurnOutcome {
  return { status: 'error', error: { message } };
}

async function askToOpenFolder(): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Open a folder to save generated images in.'),
    vscode.l10n.t('Open Folder'),
  );
  if (choice) await vscode.commands.executeCommand('vscode.openFolder');
}

/** The file of a stored image: its path inside its workspace folder (the named one, else the first). */
function fileOf(image: ImageTurnFile): vscode.Uri | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const root = folders.find((f) => f.name === image.workspaceFolder) ?? folders[0];
  return root && vscode.Uri.joinPath(root.uri, ...image.path.split('/'));
}

function relativeTo(root: vscode.Uri, file: vscode.Uri): string {
  return file.path.slice(root.path.replace(/\/$/, '').length + 1);
}

/** Adds a folder of images to the webview's resource roots when it is not there yet (the folder only). */
function allowRoot(webview: vscode.Webview, folder: vscode.Uri): void {
  const roots = webview.options.localResourceRoots ?? [];
  if (roots.some((r) => r.toString() === folder.toString())) return;
  webview.options = { ...webview.options, localResourceRoots: [...roots, folder] };
}
