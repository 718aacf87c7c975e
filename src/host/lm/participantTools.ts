// `@gateway` with the tools VS Code gives a chat request. The stable API (1.104) gives a participant the tools
// the user attached with `#` (request.toolReferences) and a toolInvocationToken; they are sent to the gateway
// as `tools`, and the model's calls run through vscode.lm.invokeTool so the chat shows (and confirms) them.
import * as vscode from 'vscode';
import type { ChatCompletionRequest, ChatMessage } from '../../gateway/types';
import type { GatewayService } from '../gatewayService';
import { partText, toGatewayTools } from './messageMapping';

/** At most this many model turns in one request: a model that keeps calling tools stops here. */
const MAX_ROUNDS = 8;

/** The tools the user attached to the request (`#name` references), as `vscode.lm.tools` describes them. */
export function referencedTools(request: vscode.ChatRequest): vscode.LanguageModelToolInformation[] {
  const names = new Set((request.toolReferences ?? []).map((reference) => reference.name));
  if (!names.size) return [];
  return vscode.lm.tools.filter((tool) => names.has(tool.name));
}

/**
 * Streams the answer with the tools offered; each round's tool calls are invoked with the request's token,
 * their results sent back as `tool` messages, until the model answers without calling one. Returns the text.
 */
export async function streamWithTools(
  gateway: GatewayService,
  request: ChatCompletionRequest,
  tools: readonly vscode.LanguageModelToolInformation[],
  chat: {
    stream: vscode.ChatResponseStream;
    token: vscode.CancellationToken;
    invocation: vscode.ChatRequest;
  },
): Promise<string> {
  const abort = new AbortController();
  const cancel = chat.token.onCancellationRequested(() => abort.abort());
  const messages: ChatMessage[] = [...request.messages];
  let text = '';
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const calls: Array<{ callId: string; name: string; input: Record<string, unknown> }> = [];
      let said = '';
      const body = { ...request, messages, tools: toGatewayTools(tools) };
      for await (const event of gateway.current().streamChatCompletion(body, { signal: abort.signal })) {
        if (event.type === 'text') {
          said += event.text;
          chat.stream.markdown(event.text);
        } else if (event.type === 'toolCall') calls.push(event);
      }
      text += said;
      if (!calls.length) return text;
      messages.push({
        role: 'assistant',
        content: said,
        tool_calls: calls.map((c) => ({
          id: c.callId,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.input) },
        })),
      });
      for (const call of calls) {
        messages.push({ role: 'tool', tool_call_id: call.callId, content: await invoke(call, chat) });
      }
    }
    chat.stream.markdown(`\n\n${vscode.l10n.t('Stopped after {0} rounds of tool calls.', MAX_ROUNDS)}`);
    return text;
  } finally {
    cancel.dispose();
  }
}

/** Runs one tool call; a failing tool becomes its result text, so the model can say what went wrong. */
async function invoke(
  call: { name: string; input: Record<string, unknown> },
  chat: { token: vscode.CancellationToken; invocation: vscode.ChatRequest },
): Promise<string> {
  try {
    const result = await vscode.lm.invokeTool(
      call.name,
      { input: call.input, toolInvocationToken: chat.invocation.toolInvocationToken },
      chat.token,
    );
    return result.content.map(partText).join('');
  } catch (error) {
    if (chat.token.isCancellationRequested) throw error;
    return `The tool ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`; // l10n-exempt: read by the model
  }
}
