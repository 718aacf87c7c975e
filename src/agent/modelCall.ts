// One model step of an agent run over the gateway, on either tool protocol: native `tools` with streamed
// `tool_calls`, or the text protocol (the tools in the system prompt, calls parsed from the streamed text).
// `auto` starts native and switches to text, for that model and base URL, when the server rejects `tools` with a
// 400 or the model prints its call as text instead of making it; the switch is remembered and logged.
import { nativeToolDefinitions } from './builtinTools';
import { toGatewayMessages } from './gatewayMessages';
import { findPrintedCalls } from './printedCalls';
import { createTextCallParser } from './textCallParser';
import { textProtocolSystemPrompt } from './textProtocol';
import type { AgentMessage, AgentToolSpec, ModelStepEvent, ToolProtocol } from './types';
import { isGatewayError } from '../gateway/errors';
import { MALFORMED_TOOL_CALL } from '../gateway/toolCalls';
import type { ChatCompletionRequest, ChatMessage, GatewayClient, StreamEvent } from '../gateway/types';

/** The agent's tool protocol setting. */
export type ToolProtocolSetting = 'auto' | ToolProtocol;

/** Where the `auto` choice is remembered (per model and base URL). */
export interface ProtocolMemory {
  rejected(baseUrl: string, model: string): boolean;
  remember(baseUrl: string, model: string): Promise<void>;
}

/** What a run's model calls share. */
export interface ModelCallOptions {
  client: () => GatewayClient;
  /** The request fields besides messages and tools (model, temperature, max_tokens…). */
  request: Omit<ChatCompletionRequest, 'messages' | 'tools'>;
  tools: readonly AgentToolSpec[];
  setting: ToolProtocolSetting;
  baseUrl: string;
  memory: ProtocolMemory;
  log: { info(message: string): void; warn(message: string): void };
  /** Told when the protocol of the run changes (the turn records it). */
  onProtocol?(protocol: ToolProtocol): void;
}

/** The protocol the next step uses. */
export function chooseProtocol(options: ModelCallOptions): ToolProtocol {
  if (options.setting !== 'auto') return options.setting;
  return options.memory.rejected(options.baseUrl, options.request.model) ? 'text' : 'native';
}

/**
 * The system prompt's text-protocol part is appended to the first system message (or added as one), so each
 * request still starts with the previous request's messages byte for byte.
 */
function withTextProtocol(messages: ChatMessage[], tools: readonly AgentToolSpec[]): ChatMessage[] {
  const protocol = textProtocolSystemPrompt(tools);
  const [first, ...rest] = messages;
  if (first?.role === 'system')
    return [{ role: 'system', content: `${first.content}\n\n${protocol}` }, ...rest];
  return [{ role: 'system', content: protocol }, ...messages];
}

/** The gateway request of one step under `protocol`. */
export function stepRequest(
  options: ModelCallOptions,
  messages: readonly AgentMessage[],
  protocol: ToolProtocol,
): ChatCompletionRequest {
  const wire = toGatewayMessages(messages, protocol);
  return protocol === 'native'
    ? { ...options.request, messages: wire, tools: nativeToolDefinitions(options.tools) }
    : { ...options.request, messages: withTextProtocol(wire, options.tools) };
}

/** Makes the loop's `callModel`: one gateway request per step, its stream turned into step events. */
export function modelCaller(
  options: ModelCallOptions,
): (messages: readonly AgentMessage[], signal: AbortSignal) => AsyncIterable<ModelStepEvent> {
  let callNumber = 1;
  const switchToText = async (reason: string): Promise<void> => {
    if (options.setting !== 'auto') return;
    await options.memory.remember(options.baseUrl, options.request.model);
    options.log.warn(
      `Agent: ${reason} for ${options.request.model} at ${options.baseUrl}; using the text protocol for it from now on (modelGateway.agent.toolProtocol is auto).`,
    );
    options.onProtocol?.('text');
  };
  return async function* callModel(messages, signal) {
    let protocol = chooseProtocol(options);
    options.onProtocol?.(protocol);
    if (protocol === 'native') {
      const events: ModelStepEvent[] = [];
      let answer = '';
      let madeCalls = false;
      try {
        const stream = options
          .client()
          .streamChatCompletion(stepRequest(options, messages, 'native'), { signal });
        for await (const event of stream) {
          if (event.type === 'text') answer += event.text;
          if (event.type === 'toolCall') madeCalls = true;
          const step = nativeEvent(event, () => `call_${callNumber++}`);
          if (step) yield step;
        }
      } catch (error) {
        const rejected =
          options.setting === 'auto' && isGatewayError(error) && error.status === 400 && !answer;
        if (isGatewayError(error) && error.code === MALFORMED_TOOL_CALL) {
          // The text came through; the call that could not be read goes back to the model as a tool error.
          yield {
            type: 'malformedCall',
            call: { id: `call_${callNumber++}`, reason: error.message, raw: '' },
          };
          return;
        }
        if (!rejected) throw error;
        // A 400 comes before any answer, so the same step goes again on the text protocol.
        await switchToText('the server rejected `tools` (400)');
        protocol = 'text';
      }
      if (protocol === 'native') {
        if (!madeCalls && options.setting === 'auto') {
          const printed = findPrintedCalls(answer, options.tools, callNumber);
          if (printed && (printed.calls.length || printed.malformed.length)) {
            await switchToText('the model printed its tool call as text instead of making it');
            callNumber += printed.calls.length + printed.malformed.length;
            for (const call of printed.calls) events.push({ type: 'toolCall', call });
            for (const call of printed.malformed) events.push({ type: 'malformedCall', call });
          }
        }
        yield* events;
        return;
      }
    }
    const parser = createTextCallParser({
      toolNames: options.tools.map((t) => t.name),
      firstCallNumber: callNumber,
    });
    try {
      for await (const event of options
        .client()
        .streamChatCompletion(stepRequest(options, messages, 'text'), {
          signal,
        })) {
        if (event.type === 'text') yield* parser.push(event.text);
        else {
          const step = nativeEvent(event, () => `call_${callNumber++}`);
          if (step) yield step;
        }
      }
      yield* parser.end();
    } finally {
      callNumber = Math.max(callNumber, parser.nextCallNumber);
    }
  };
}

/** A gateway stream event as a step event (text goes through the text parser on the text protocol instead). */
function nativeEvent(event: StreamEvent, newId: () => string): ModelStepEvent | undefined {
  switch (event.type) {
    case 'text':
      return { type: 'text', text: event.text };
    case 'reasoning':
      return { type: 'reasoning', text: event.text };
    case 'toolCall':
      return {
        type: 'toolCall',
        call: { id: event.callId || newId(), name: event.name, input: event.input },
      };
    case 'usage':
      return {
        type: 'usage',
        usage: { promptTokens: event.usage.prompt_tokens, completionTokens: event.usage.completion_tokens },
      };
    case 'finish':
      return { type: 'finish', reason: event.reason };
    default:
      return undefined;
  }
}
