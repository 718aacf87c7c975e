// Tool calling in the emulator (issue 18): given `tools` and a last user message that names one, it streams a
// call to that tool in the common chunked format; given a tool result, it answers with what the tool returned.
import { chunkBase, choiceChunk, type ChunkIdentity, type StreamItem } from './chunks';
import { splitText } from './streamPlan';

/** The tool-related parts of a chat body. */
export interface ToolRequest {
  tools: { name: string; parameters: Record<string, unknown> }[];
  /** The last message, with its tool fields. */
  last: { role: string; content: string; toolCallId?: string };
  /** Names of the calls made earlier in the conversation, by call id. */
  callNames: Map<string, string>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the tools and tool messages of a chat body (already known to be a valid chat body). */
export function toolRequestOf(body: unknown, lastContent: string): ToolRequest {
  const { tools, messages } = body as { tools?: unknown; messages: unknown[] };
  const defs = Array.isArray(tools) ? tools : [];
  const callNames = new Map<string, string>();
  for (const m of messages) {
    if (!isObject(m) || !Array.isArray(m.tool_calls)) continue;
    for (const call of m.tool_calls) {
      if (isObject(call) && isObject(call.function) && typeof call.id === 'string')
        callNames.set(call.id, String(call.function.name));
    }
  }
  const lastRaw = messages.at(-1) as Json;
  return {
    tools: defs.flatMap((d: unknown) =>
      isObject(d) && isObject(d.function) && typeof d.function.name === 'string'
        ? [
            {
              name: d.function.name,
              parameters: isObject(d.function.parameters) ? d.function.parameters : {},
            },
          ]
        : [],
    ),
    last: {
      role: String(lastRaw.role),
      content: lastContent,
      toolCallId: typeof lastRaw.tool_call_id === 'string' ? lastRaw.tool_call_id : undefined,
    },
    callNames,
  };
}

/**
 * Arguments from the tool's schema: each string property gets the quoted text of the prompt ("Paris"),
 * or the property's name; numbers get 1, booleans true.
 */
function argumentsFor(parameters: Json, prompt: string): Json {
  const quoted = /"([^"]{1,200})"/.exec(prompt)?.[1];
  const props = isObject(parameters.properties) ? parameters.properties : {};
  const args: Json = {};
  for (const [name, schema] of Object.entries(props)) {
    const type = isObject(schema) ? schema.type : undefined;
    args[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : (quoted ?? name);
  }
  return args;
}

/** The tool the last user message asks for (it names it), if any. */
export function requestedTool(request: ToolRequest): ToolRequest['tools'][number] | undefined {
  if (request.last.role !== 'user') return undefined;
  return request.tools.find((t) => request.last.content.includes(t.name));
}

/** The answer to a tool result: names the tool and quotes what it returned. */
export function toolResultAnswer(request: ToolRequest): string | undefined {
  if (request.last.role !== 'tool') return undefined;
  const name = request.callNames.get(request.last.toolCallId ?? '') ?? 'the tool';
  return `The tool ${name} returned: ${request.last.content.slice(0, 200)}`;
}

/** A streamed tool call: the name in the first fragment, the JSON arguments in pieces of `size` characters. */
export function planToolCall(
  tool: ToolRequest['tools'][number],
  prompt: string,
  identity: ChunkIdentity,
  size: number,
): StreamItem[] {
  const base = chunkBase(identity);
  const chunk = (delta: Json, finish: string | null = null): StreamItem => choiceChunk(base, delta, finish);
  const callId = `call_emu_${identity.id.replace(/\D/g, '')}_0`;
  const args = JSON.stringify(argumentsFor(tool.parameters, prompt));
  return [
    chunk({ role: 'assistant', content: null }),
    chunk({
      tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: tool.name, arguments: '' } }],
    }),
    ...splitText(args, Math.max(1, size)).map((piece) =>
      chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }),
    ),
    chunk({}, 'tool_calls'),
    { kind: 'done' },
  ];
}

/** A plain streamed text answer (the answer to a tool result). */
export function planText(text: string, identity: ChunkIdentity, size: number): StreamItem[] {
  const base = chunkBase(identity);
  return [
    ...splitText(text, Math.max(1, size)).map((piece) => choiceChunk(base, { content: piece })),
    choiceChunk(base, {}, 'stop'),
    { kind: 'done' },
  ];
}
