import * as vscode from 'vscode';
import { estimateTokens } from '../../chat/tokens';
import { modelNote } from '../../gateway/discovery';
import { readableModelName } from '../../gateway/modelNames';
import type { ExtensionConfig } from '../config';
import { maxTokensFor } from '../chatRequest';
import type { GatewayService } from '../gatewayService';
import type { ModelDirectory } from '../modelDirectory';
import { partText, thinkingPartClass, toGatewayMessages, toGatewayTools } from './messageMapping';
import { isGatewayError, settledReasoning } from '../../gateway';
import type { ChatCompletionRequest } from '../../gateway/types';
import { ToolSupportMemory } from './toolSupport';
import { textToolRequest, type TextToolCallReader } from './textToolCalls';

export const LM_VENDOR = 'modelgateway';

/** Exposes the gateway's models in VS Code's model picker and to `vscode.lm`. */
class GatewayLanguageModelProvider implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(
    private readonly gateway: GatewayService,
    private readonly getConfig: () => ExtensionConfig,
    private readonly directory: ModelDirectory,
    private readonly toolSupport: ToolSupportMemory,
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
      detail: model.extra ? vscode.l10n.t('Model Gateway · extra model') : 'Model Gateway', // l10n-exempt: the product's name
      tooltip: `${model.id}: ${modelNote(model)}`,
      maxInputTokens: model.contextTokens,
      maxOutputTokens: maxTokensFor(model.id, config),
      // `auto` offers tools even to a server that rejected them: they then travel by the text protocol (below).
      capabilities: { toolCalling: config.lm.toolCalling !== 'off', imageInput: false },
    }));
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    if (!(await this.gateway.requireKey())) {
      throw new Error(vscode.l10n.t("Model Gateway has no API key. Run 'Model Gateway: Set API Key'."));
    }
    const config = this.getConfig();
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const request: ChatCompletionRequest = {
      model: model.id,
      messages: toGatewayMessages(messages),
      max_tokens: maxTokensFor(model.id, config),
      temperature: config.chat.temperature,
    };
    const mode = config.lm.toolCalling;
    const tools = mode === 'off' ? [] : toGatewayTools(options.tools);
    const required = options.toolMode === vscode.LanguageModelChatToolMode.Required;
    const viaText = () => textToolRequest(request, messages, options.tools ?? [], required, progress);
    try {
      if (tools.length && mode === 'auto' && this.toolSupport.rejected(config.baseUrl, model.id)) {
        const text = viaText();
        await this.stream(text.request, progress, abort.signal, text.reader);
        return;
      }
      const native = tools.length
        ? { ...request, tools, ...(required ? { tool_choice: 'required' as const } : {}) }
        : request;
      try {
        await this.stream(native, progress, abort.signal);
      } catch (error) {
        // A 400 comes before any answer, so the retry repeats nothing the caller has seen.
        const rejectedTools =
          native.tools && mode === 'auto' && isGatewayError(error) && error.status === 400;
        if (!rejectedTools) throw error;
        await this.toolSupport.remember(config.baseUrl, model.id);
        this.gateway.log.warn(
          `The server rejected tools for ${model.id} (400); switching to the text protocol (the tools in the system prompt, calls read from the answer) for this model at ${config.baseUrl} from now on (modelGateway.lm.toolCalling is auto).`,
        );
        const text = viaText();
        await this.stream(text.request, progress, abort.signal, text.reader);
      }
    } catch (error) {
      if (token.isCancellationRequested || (isGatewayError(error) && error.kind === 'aborted')) return;
      throw isGatewayError(error) ? new Error(error.message) : error;
    } finally {
      cancel.dispose();
    }
  }

  /**
   * Streams one request's answer into `progress`: thinking, tool calls, and text, which goes through `reader`
   * under the text protocol (its call blocks become tool calls).
   */
  private async stream(
    request: ChatCompletionRequest,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    signal: AbortSignal,
    reader?: TextToolCallReader,
  ): Promise<void> {
    const Thinking = thinkingPartClass();
    // Reported parts cannot be taken back: reasoning is reported once it is known to be reasoning.
    const events = settledReasoning(this.gateway.current().streamChatCompletion(request, { signal }));
    for await (const event of events) {
      if (event.type === 'text') {
        if (reader) reader.push(event.text);
        else progress.report(new vscode.LanguageModelTextPart(event.text));
      } else if (event.type === 'reasoning' && Thinking) progress.report(new Thinking(event.text));
      else if (event.type === 'toolCall') {
        progress.report(new vscode.LanguageModelToolCallPart(event.callId, event.name, event.input));
      }
    }
    reader?.end();
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
  const toolSupport = new ToolSupportMemory(context.globalState);
  const provider = new GatewayLanguageModelProvider(gateway, getConfig, directory, toolSupport);
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, provider),
    directory.onDidChange(() => provider.refresh()),
  );
}
