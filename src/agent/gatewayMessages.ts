/**
 * The agent's conversation as gateway messages, for either tool protocol.
 *
 * Both conversions are deterministic and append-only, so each step's request starts with the previous step's
 * messages byte for byte and a gateway's prompt cache can hit: every message converts on its own, except that
 * the text protocol gathers consecutive tool results into one user message (templates such as Gemma's and
 * Llama 2's reject two user messages in a row). Adding a result to that message only appends to its content,
 * and a step's request never ends halfway through a step's results.
 */
import type { ChatMessage, WireToolCall } from '../gateway/types';
import { formatCallBlock } from './callFormat';
import type { AgentMessage, AgentToolCall, ToolProtocol } from './types';

/** Converts the conversation for `protocol`: OpenAI tool messages (native), or plain role/content (text). */
export function toGatewayMessages(messages: readonly AgentMessage[], protocol: ToolProtocol): ChatMessage[] {
  return protocol === 'native' ? toNativeMessages(messages) : toTextMessages(messages);
}

/**
 * Native: an assistant message carries `tool_calls` (its content is '' when it said nothing, which the client
 * sends as null), and each result is a `tool` message. A failed call's result starts with "Error: ".
 */
export function toNativeMessages(messages: readonly AgentMessage[]): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'assistant':
        return m.toolCalls?.length
          ? { role: 'assistant', content: m.content || null, tool_calls: m.toolCalls.map(wireCall) }
          : { role: 'assistant', content: m.content };
      case 'tool':
        return {
          role: 'tool',
          tool_call_id: m.callId,
          content: m.isError ? `Error: ${m.content}` : m.content,
        };
      default:
        return { role: m.role, content: m.content };
    }
  });
}

/**
 * The name a call that could not be read goes out under when the model gave none (the gateway only reports that
 * a streamed call was malformed): servers reject a tool call without a name, and the call must stay in the
 * assistant message so that its error result answers it.
 */
export const UNREADABLE_CALL_NAME = 'unreadable_tool_call';

function wireCall(call: AgentToolCall): WireToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.name || UNREADABLE_CALL_NAME, arguments: JSON.stringify(call.input) },
  };
}

/**
 * Text: an assistant message is its text followed by its calls as `<tool_call>` blocks, exactly as the parser
 * reads them; results are `<tool_result>` blocks in user messages, consecutive ones in the same message.
 */
export function toTextMessages(messages: readonly AgentMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let previous: AgentMessage | undefined;
  for (const m of messages) {
    if (m.role === 'tool') {
      const block = resultBlock(m);
      const last = out[out.length - 1];
      if (previous?.role === 'tool' && last) last.content += `\n${block}`;
      else out.push({ role: 'user', content: block });
    } else if (m.role === 'assistant')
      out.push({ role: 'assistant', content: assistantText(m.content, m.toolCalls) });
    else out.push({ role: m.role, content: m.content });
    previous = m;
  }
  return out;
}

/** The assistant's text, then one block per call, each on its own lines. */
export function assistantText(content: string, calls: readonly AgentToolCall[] | undefined): string {
  if (!calls?.length) return content;
  const blocks = calls.map((c) => formatCallBlock(c.name, c.input));
  const text = content.trimEnd();
  return (text ? [text, ...blocks] : blocks).join('\n');
}

/** One result, wrapped so the model can tell it from the user's words and match it to its call. */
export function resultBlock(m: Extract<AgentMessage, { role: 'tool' }>): string {
  const name = m.name ? ` name="${attribute(m.name)}"` : '';
  const error = m.isError ? ' error="true"' : '';
  return `<tool_result${name} id="${attribute(m.callId)}"${error}>\n${m.content}\n</tool_result>`;
}

function attribute(value: string): string {
  return value.replace(/[&"<>\n]/g, (c) => `&#${c.charCodeAt(0)};`);
}
