/**
 * Shared types of the agent's pure core: tools as the model sees them, the calls it makes, and the events
 * one model step yields, whichever tool protocol (native `tools` or the text protocol) carried them.
 */

/** A JSON Schema object describing a tool's input (the subset the tools use). */
export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  additionalProperties?: boolean;
}

/** A tool as offered to the model. */
export interface AgentToolSpec {
  /** Name the model calls, e.g. `read_file` or `server.tool` (MCP). */
  name: string;
  /** One or two sentences the model reads. */
  description: string;
  parameters: JsonSchemaObject;
  /** True when the tool never changes the workspace (allowed in Plan mode). */
  readOnly: boolean;
  /** Which end of a long result the loop keeps: the head (reads, the default) or the tail (command output). */
  keep?: 'head' | 'tail';
}

/** One call the model made, input parsed. */
export interface AgentToolCall {
  /** The server's id (native), or one the text-protocol parser made up (`call_1`, …). */
  id: string;
  name: string;
  input: Record<string, unknown>;
  /**
   * Set for a call that could not be read (a MalformedToolCall kept in the assistant message so that its
   * tool error has a call to answer): its raw text as the model wrote it; `input` is then empty.
   */
  raw?: string;
}

/** A call that could not be read: bad JSON, no name, a block that never closed. */
export interface MalformedToolCall {
  id: string;
  /** The tool name when it could be read. */
  name?: string;
  /** Why it could not be used, in words the model can act on. */
  reason: string;
  /** The raw text of the call, as the model wrote it (for the transcript). */
  raw: string;
}

/** Which way tool calls travel: `tools` in the request, or a format in the system prompt and the text. */
export type ToolProtocol = 'native' | 'text';

/** Token accounting of one step, as the server reported it (or estimated). */
export interface StepUsage {
  promptTokens: number;
  completionTokens: number;
}

/** What one model step yields, in order. */
export type ModelStepEvent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'toolCall'; call: AgentToolCall }
  | { type: 'malformedCall'; call: MalformedToolCall }
  | { type: 'usage'; usage: StepUsage }
  | { type: 'finish'; reason: string };

/**
 * A message of the agent's conversation, protocol-neutral. The native protocol sends it as OpenAI
 * messages (`tool_calls`, `role: 'tool'`); the text protocol folds calls and results into plain
 * `role`/`content` messages.
 */
export type AgentMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: AgentToolCall[] }
  | { role: 'tool'; callId: string; name: string; content: string; isError?: boolean };

/** What a tool returns to the loop. */
export interface ToolResult {
  /** Text the model reads (already cut to size by the tool or the loop). */
  content: string;
  /** True when the call failed: the model gets the reason and may retry. */
  isError?: boolean;
  /** One line for the tool row, e.g. "Read src/app.ts:1-120" or "Searched `parseConfig`: 7 results". */
  summary?: string;
}
