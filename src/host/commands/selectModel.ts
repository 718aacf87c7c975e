import * as vscode from 'vscode';
import { registerCommand } from '../ourCommands';
import { formatContextSize } from '../../gateway/models';
import { modelNote } from '../../gateway/discovery';
import { readableModelName } from '../../gateway/modelNames';
import type { ExtensionConfig } from '../config';
import type { ModelDirectory } from '../modelDirectory';

/** Registers Select Model: a QuickPick of the catalogue, the server's models and extra models; the choice becomes `chat.model`. */
export function registerSelectModel(
  context: vscode.ExtensionContext,
  getConfig: () => ExtensionConfig,
  directory: ModelDirectory,
): void {
  context.subscriptions.push(
    registerCommand('modelGateway.selectModel', async (modelId?: string) => {
      const config = getConfig();
      const chosen = typeof modelId === 'string' ? modelId : await pickModel(config, directory);
      if (!chosen) return undefined;
      const settings = vscode.workspace.getConfiguration('modelGateway');
      const inspected = settings.inspect('chat.model');
      const target =
        inspected?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
      await settings.update('chat.model', chosen, target);
      return chosen;
    }),
  );
}

async function pickModel(config: ExtensionConfig, directory: ModelDirectory): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { id?: string };
  const models = directory.list();
  const items: Item[] = [];
  let group: string | undefined;
  for (const model of models) {
    const heading = model.extra
      ? vscode.l10n.t('Extra models')
      : model.group
        ? vscode.l10n.t('Group {0}', model.group)
        : vscode.l10n.t('Listed by the server');
    if (heading !== group) {
      items.push({ label: heading, kind: vscode.QuickPickItemKind.Separator });
      group = heading;
    }
    items.push({
      id: model.id,
      label: `${model.id === config.chat.model ? '$(check) ' : ''}${readableModelName(model.id)}`,
      description: model.id,
      detail: vscode.l10n.t('{0} · {1} context', modelNote(model), formatContextSize(model.contextTokens)),
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Model Gateway: Select Model (the default for new chats and editor commands)'),
    placeHolder: vscode.l10n.t(
      'Default now: {0}. An open chat keeps its own model (its Model menu).',
      readableModelName(config.chat.model),
    ),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.id;
}
