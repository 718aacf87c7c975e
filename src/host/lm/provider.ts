import * as vscode from 'vscode';
import { estimateTokens } from '../../chat/tokens';
import { modelNote } from '../../gateway/discovery';
import { readableModelName } from '../../gateway/modelNames';
import type { ExtensionConfig } from '../config';
import { maxTokensFor } from '../chatRequest';
import type { GatewayService } from '../gatewayService';
import type { ModelDirectory } from '../modelDirectory';
import { partText, thinkingPartClass, toGatewayMessages } from './messageMapping';
import { isGatewayError } from '../../gateway';

export const LM_VENDOR = 'modelgateway';

/** Exposes the gateway's models in VS Code's model picker and to `vscode.lm`. */
class GatewayLanguageModelProvider implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(
    private readonly gateway: GatewayService,
    private readonly getConfig: () => ExtensionConfig,
    private readonly directory: ModelDirectory,
  ) {}

  /** Tells VS Code the model list changed (settings edited, or the server's list arrived). */
  refresh(): void {
    this.changed.fire();
  }

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    const config = this.getConfig();
    return this.directory.list().map((model) => ({
      id: model.id,
      name: readableModelName(model.id),
      family: model.id.replace(/-\d{8}(-thinking)?$/, '$1'),
      version: /-(\d{8})/.exec(model.id)?.[1] ?? 'latest',
      detail: model.extra ? 'Model Gateway · extra model' : 'Model Gateway',
      tooltip: `${model.id}: ${modelNote(model)}`,
      maxInputTokens: model.contextTokens,
      maxOutputTokens: maxTokensFor(model.id, config),
      capabilities: { toolCalling: false, imageInput: false },
    }));
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    _options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    if (!(await this.gateway.requireKey())) {
      throw new Error("Model Gateway has no API key. Run 'Model Gateway: Set API Key'.");
    }
    const config = this.getConfig();
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const Thinking = thinkingPartClass();
    try {
      const stream = this.gateway.current().streamChatCompletion(
        {
          model: model.id,
          messages: toGatewayMessages(messages),
          max_tokens: maxTokensFor(model.id, config),
          temperature: config.chat.temperature,
        },
        { signal: abort.signal },
      );
      for await (const event of stream) {
        if (event.type === 'text') progress.report(new vscode.LanguageModelTextPart(event.text));
        else if (event.type === 'reasoning' && Thinking) progress.report(new Thinking(event.text));
      }
    } catch (error) {
      if (token.isCancellationRequested || (isGatewayError(error) && error.kind === 'aborted')) return;
      throw isGatewayError(error) ? new Error(error.message) : error;
    } finally {
      cancel.dispose();
    }
  }

  /** Estimate: about four characters a token for ASCII text, one a token for CJK (see src/chat/tokens.ts). */
  async provideTokenCount(
    _model: vscode.LanguageModelChatInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
  ): Promise<number> {
    return estimateTokens(typeof text === 'string' ? text : text.content.map(partText).join(''));
  }
}

/** Registers the provider under the `modelgateway` vendor. */
export function registerLanguageModelProvider(
  context: vscode.ExtensionContext,
  gateway: GatewayService,
  getConfig: () => ExtensionConfig,
  directory: ModelDirectory,
): void {
  if (typeof vscode.lm?.registerLanguageModelChatProvider !== 'function') return;
  const provider = new GatewayLanguageModelProvider(gateway, getConfig, directory);
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, provider),
    directory.onDidChange(() => provider.refresh()),
  );
}
