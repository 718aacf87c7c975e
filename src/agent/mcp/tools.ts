/**
 * MCP tools as the model sees them: named `<server>.<tool>`, with the server's JSON schema and a description cut
 * to a sane length, and their results as text (images dropped with a note, `isError` as a tool error).
 */
import type { AgentToolSpec, JsonSchemaObject, ToolResult } from '../types';

/** A description longer than this is cut: some servers send pages of text, and every request carries it. */
export const MCP_DESCRIPTION_CHARS = 600;
/** Names longer than this are cut: OpenAI-compatible servers reject longer function names. */
export const MCP_NAME_CHARS = 64;

/** A tool as `tools/list` describes it (the fields the agent uses). */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean; title?: string };
}

/** A name part with only the characters function names allow (letters, digits, `_` and `-`). */
function namePart(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** The name the model calls: `<server>.<tool>`, cut to MCP_NAME_CHARS. */
export function mcpToolName(server: string, tool: string): string {
  return `${namePart(server)}.${namePart(tool)}`.slice(0, MCP_NAME_CHARS);
}

/** The server's input schema as an object schema the loop can check (a missing or odd one accepts any object). */
export function mcpInputSchema(schema: unknown): JsonSchemaObject {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return { type: 'object', properties: {} };
  const s = schema as Record<string, unknown>;
  const properties =
    typeof s.properties === 'object' && s.properties !== null && !Array.isArray(s.properties)
      ? (s.properties as Record<string, object>)
      : {};
  return { ...s, type: 'object', properties } as JsonSchemaObject;
}

/** The spec the model reads for one server tool. */
export function mcpToolSpec(server: string, tool: McpToolInfo): AgentToolSpec {
  const text = (tool.description ?? tool.annotations?.title ?? '').trim().replace(/\s+\n/g, '\n');
  const description =
    text.length > MCP_DESCRIPTION_CHARS ? `${text.slice(0, MCP_DESCRIPTION_CHARS - 1)}…` : text;
  return {
    name: mcpToolName(server, tool.name),
    description: description || `Tool "${tool.name}" of the MCP server "${server}".`,
    parameters: mcpInputSchema(tool.inputSchema),
    readOnly: tool.annotations?.readOnlyHint === true,
  };
}

/** The specs of one server's tools, with the server's tool name behind each; names that collide are reported. */
export function mcpToolSpecs(
  server: string,
  tools: readonly McpToolInfo[],
  taken: ReadonlySet<string>,
): { specs: Array<{ spec: AgentToolSpec; tool: string }>; problems: string[] } {
  const specs: Array<{ spec: AgentToolSpec; tool: string }> = [];
  const problems: string[] = [];
  const seen = new Set(taken);
  for (const tool of tools) {
    const spec = mcpToolSpec(server, tool);
    if (seen.has(spec.name)) {
      problems.push(
        `MCP server "${server}": tool "${tool.name}" is left out, its name ${spec.name} is taken.`,
      );
      continue;
    }
    seen.add(spec.name);
    specs.push({ spec, tool: tool.name });
  }
  return { specs, problems };
}

/** One item of a `tools/call` result's content (the kinds of the MCP specification). */
interface ContentItem {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** A `tools/call` result as the loop's tool result: the text parts in order, notes for what the model cannot read. */
export function mcpResultToToolResult(
  name: string,
  result: { content?: unknown; structuredContent?: unknown; isError?: unknown },
): ToolResult {
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const parts: string[] = [];
  let dropped = 0;
  for (const item of items) {
    if (item?.type === 'text' && typeof item.text === 'string') parts.push(item.text);
    else if (item?.type === 'image' || item?.type === 'audio') {
      dropped++;
      parts.push(`[${item.type} (${item.mimeType ?? 'unknown type'}) dropped: the agent passes only text]`);
    } else if (item?.type === 'resource' && typeof item.resource?.text === 'string')
      parts.push(item.resource.text);
    else if (item?.type === 'resource')
      parts.push(`[binary resource ${item.resource?.uri ?? ''} dropped: the agent passes only text]`);
    else if (item?.type === 'resource_link')
      parts.push(`[resource link: ${item.name ?? ''} ${item.uri ?? ''}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  const isError = result.isError === true;
  const content = parts.join('\n') || (isError ? 'The tool failed without saying why.' : '(no output)');
  const summary = `${name}${isError ? ': failed' : ''}${dropped ? ` (${dropped} image(s) dropped)` : ''}`;
  return { content, summary, ...(isError ? { isError: true } : {}) };
}
