// The language-model provider's text protocol (issue 26): for a server that rejects `tools`, the tools travel in
// the system prompt and the model's `<tool_call>` blocks come back as LanguageModelToolCallParts, so VS Code's
// agent mode keeps its tools. The pure work is in src/agent (lmTextProtocol.ts, textCallParser.ts).
import * as vscode from 'vscode';
import { nextCallNumber, textProtocolMessages, toolSpecsOf } from '../../agent/lmTextProtocol';
import { createTextCallParser, type TextCallParser } from '../../agent/textCallParser';
import type { ModelStepEvent } from '../../agent/types';
import type { ChatCompletionRequest } from '../../gateway/types';
import { toAgentMessages } from './messageMapping';

/** A text-protocol request and the reader of its answer. */
export interface TextToolRequest {
  /** The request to send: no `tools`, the tools in the system prompt, calls and results as blocks. */
  request: ChatCompletionRequest;
  /** Reports the answer's text and calls as response parts. */
  reader: TextToolCallReader;
}

/** Builds the text-protocol form of a request from VS Code's messages and tools. */
export function textToolRequest(
  base: ChatCompletionRequest,
  messages: readonly vscode.LanguageModelChatRequestMessage[],
  tools: readonly vscode.LanguageModelChatTool[],
  callRequired: boolean,
  progress: vscode.Progress<vscode.LanguageModelResponsePart>,
): TextToolRequest {
  const specs = toolSpecsOf(tools);
  const conversation = toAgentMessages(messages);
  const request: ChatCompletionRequest = { ...base };
  delete request.tools;
  delete request.tool_choice;
  request.messages = textProtocolMessages(conversation, specs, callRequired);
  const parser = createTextCallParser({
    toolNames: specs.map((s) => s.name),
    firstCallNumber: nextCallNumber(conversation),
  });
  return { request, reader: new TextToolCallReader(parser, progress) };
}

/**
 * Feeds the streamed text to the parser and reports what it yields: text as text parts, calls as tool call
 * parts. A call that cannot be read is reported as its own text followed by a note with the reason: the
 * provider has no way to hand VS Code a tool error, and dropping it silently would hide why nothing ran.
 */
export class TextToolCallReader {
  constructor(
    private readonly parser: TextCallParser,
    private readonly progress: vscode.Progress<vscode.LanguageModelResponsePart>,
  ) {}

  /** The next piece of the answer's text. */
  push(text: string): void {
    this.report(this.parser.push(text));
  }

  /** The answer ended: releases held-back text and reports a block left open. */
  end(): void {
    this.report(this.parser.end());
  }

  private report(events: readonly ModelStepEvent[]): void {
    for (const event of events) {
      if (event.type === 'text') this.progress.report(new vscode.LanguageModelTextPart(event.text));
      else if (event.type === 'toolCall') {
        const { id, name, input } = event.call;
        this.progress.report(new vscode.LanguageModelToolCallPart(id, name, input));
      } else if (event.type === 'malformedCall') {
        const note = vscode.l10n.t('(Model Gateway could not run this tool call: {0})', event.call.reason);
        this.progress.report(new vscode.LanguageModelTextPart(`${event.call.raw}\n\n${note}\n\n`));
      }
    }
  }
}
