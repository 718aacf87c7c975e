import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import { requireTrust } from '../trust';
import type { ImageGenerationResult } from '../../gateway/types';
import type { ExtensionConfig } from '../config';
import { isUserAbort, showError } from '../errors';
import type { GatewayService } from '../gatewayService';
import { askImageChoices, type GenerateImageOptions, type ImageChoices } from './imageOptions';
import { resolveImageTarget } from './imageTarget';
import { saveImages } from './saveImages';

/** What the command did, returned to callers such as tests and the chat participant. */
export interface GenerateImageResult {
  status: 'saved' | 'cancelled' | 'failed';
  files: vscode.Uri[];
  revisedPrompts: string[];
  error?: string;
}

/** Registers Generate Image: generate through the gateway, then save atomically into the workspace. */
export function registerGenerateImage(
  context: vscode.ExtensionContext,
  gateway: GatewayService,
  getConfig: () => ExtensionConfig,
): void {
  context.subscriptions.push(
    registerCommand('modelGateway.generateImage', (options?: GenerateImageOptions) =>
      generateImage(gateway, getConfig(), options ?? {}),
    ),
  );
}

/** The whole flow, shared by the command and the `@gateway /image` participant command. */
export async function generateImage(
  gateway: GatewayService,
  config: ExtensionConfig,
  options: GenerateImageOptions,
): Promise<GenerateImageResult> {
  const cancelled: GenerateImageResult = { status: 'cancelled', files: [], revisedPrompts: [] };
  if (!(await requireTrust(vscode.l10n.t('Generate Image'))))
    return { ...cancelled, status: 'failed', error: vscode.l10n.t('The workspace is not trusted.') };
  const editor = vscode.window.activeTextEditor;
  const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
  const choices = await askImageChoices(config, options, selected);
  if (!choices) return cancelled;
  if (!(await gateway.requireKey()))
    return { ...cancelled, status: 'failed', error: vscode.l10n.t('No API key.') };
  const target = await resolveImageTarget(config.images.folder, options.workspaceFolder);
  if (!target)
    return { ...cancelled, status: 'failed', error: vscode.l10n.t('The images folder was refused.') };

  try {
    const files = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Model Gateway', cancellable: true }, // l10n-exempt: the product's name,
      async (progress, token) => {
        const abort = new AbortController();
        const onCancel = token.onCancellationRequested(() => abort.abort());
        const started = Date.now();
        const label =
          choices.n > 1
            ? vscode.l10n.t('Generating {0} images at {1}', choices.n, choices.size)
            : vscode.l10n.t('Generating 1 image at {0}', choices.size);
        progress.report({ message: `${label}…` });
        const ticker = setInterval(
          () =>
            progress.report({
              message: vscode.l10n.t('{0}… {1} s', label, Math.round((Date.now() - started) / 1000)),
            }),
          1000,
        );
        try {
          const result = await request(gateway, config, choices, abort.signal);
          progress.report({ message: vscode.l10n.t('Saving…') });
          const saved = await saveImages({
            folder: target.folder,
            prompt: choices.prompt,
            images: result.images,
            model: config.images.model,
            size: choices.size,
            quality: choices.quality,
            writeMetadata: config.images.writeMetadata,
            token,
          });
          return { saved, result };
        } finally {
          clearInterval(ticker);
          onCancel.dispose();
        }
      },
    );
    const revisedPrompts = files.result.images.flatMap((i) => (i.revisedPrompt ? [i.revisedPrompt] : []));
    void announce(files.saved, revisedPrompts, editor);
    return { status: 'saved', files: files.saved, revisedPrompts };
  } catch (error) {
    if (error instanceof vscode.CancellationError || isUserAbort(error)) return cancelled;
    void showError(error, vscode.l10n.t('Image generation failed; nothing was saved.'), gateway.log);
    return { ...cancelled, status: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}

function request(
  gateway: GatewayService,
  config: ExtensionConfig,
  choices: ImageChoices,
  signal: AbortSignal,
): Promise<ImageGenerationResult> {
  return gateway.current().generateImages(
    {
      model: config.images.model,
      prompt: choices.prompt,
      n: choices.n,
      size: choices.size,
      quality: choices.quality,
      response_format: choices.responseFormat,
    },
    { signal },
  );
}

/**
 * Opens the first image in the active editor group, then says what was saved in a notification with Open and
 * Reveal (and Insert Markdown link in a Markdown editor), which stays in the notification centre.
 */
async function announce(
  files: vscode.Uri[],
  revisedPrompts: string[],
  editor: vscode.TextEditor | undefined,
): Promise<void> {
  if (!files.length) return;
  await vscode.commands.executeCommand('vscode.open', files[0], {
    preview: true,
    viewColumn: vscode.ViewColumn.Active,
  });
  const names = files.map((f) => vscode.workspace.asRelativePath(f)).join(', ');
  const open = vscode.l10n.t('Open');
  const reveal = vscode.l10n.t('Reveal');
  const markdown =
    editor && editor.document.languageId === 'markdown' ? [vscode.l10n.t('Insert Markdown link')] : [];
  const saved = revisedPrompts[0]
    ? vscode.l10n.t('Saved {0}. Revised prompt: "{1}"', names, revisedPrompts[0])
    : vscode.l10n.t('Saved {0}.', names);
  const choice = await vscode.window.showInformationMessage(saved, open, reveal, ...markdown);
  if (choice === open) await vscode.commands.executeCommand('vscode.open', files[0], { preview: false });
  else if (choice === reveal) await vscode.commands.executeCommand('revealInExplorer', files[0]);
  else if (choice && editor) await insertMarkdownLinks(editor, files);
}

async function insertMarkdownLinks(editor: vscode.TextEditor, files: vscode.Uri[]): Promise<void> {
  const from = vscode.Uri.joinPath(editor.document.uri, '..').path;
  const links = files
    .map((file) => `![${file.path.split('/').pop()}](${relativePath(from, file.path)})`)
    .join('\n');
  await editor.edit((edit) => edit.insert(editor.selection.active, links));
}

function relativePath(fromDir: string, to: string): string {
  const a = fromDir.split('/').filter(Boolean);
  const b = to.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].map(encodeURIComponent).join('/');
}
