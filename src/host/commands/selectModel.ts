import * as vscode from 'vscode';
import { listChatModels } from '../../gateway/models';
import { readableModelName } from '../../gateway/modelNames';
import type { ExtensionConfig } from '../config';

/** Registers Select Model: a QuickPick of the catalogue plus extra models; the choice becomes `chat.model`. */
export function registerSelectModel(
  context: vscode.ExtensionContext,
  getConfig: () => ExtensionConfig,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('modelGateway.selectModel', async (modelId?: string) => {
      const config = getConfig();
      const chosen = typeof modelId === 'string' ? modelId : await pickModel(config);
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

async function pickModel(config: ExtensionConfig): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { id?: string };
  const models = listChatModels(config.chat.extraModels);
  const items: Item[] = [];
  let group: string | undefined;
  for (const model of models) {
    const heading = model.extra ? 'Extra models' : `Group ${model.group}`;
    if (heading !== group) {
      items.push({ label: heading, kind: vscode.QuickPickItemKind.Separator });
      group = heading;
    }
    items.push({
      id: model.id,
      label: `${model.id === config.chat.model ? '$(check) ' : ''}${readableModelName(model.id)}`,
      description: model.id,
      detail: model.note,
    });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Model Gateway: Select Model (the default for new chats and editor commands)',
    placeHolder: `Default now: ${readableModelName(config.chat.model)}. An open chat keeps its own model (its Model menu).`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.id;
}
