/**
 * Notices, for the `auto` protocol, a model on the native protocol that printed its tool calls as text instead
 * of making them (vLLM without a tool parser, Ollama templates, Llama's and Mistral's own formats): the host
 * then runs the calls, switches that model to the text protocol and remembers it.
 *
 * What counts, and why it does not fire on ordinary answers:
 * - `<tool_call>` blocks outside code fences naming a known tool (the tag is evidence enough);
 * - otherwise only at the very end of the answer, as the model stops after calling: a JSON call, or a list
 *   of them, bare or alone in a code fence (```json), optionally after `[TOOL_CALLS]` or `<|python_tag|>`.
 *   The JSON must be nothing but a call (`name` with `arguments` or `parameters`, or OpenAI's
 *   `{"type": "function", "function": {...}}`), name a known tool, and fit its schema: every required
 *   parameter there, no unknown one. Prose or code that mentions a tool, a JSON example followed by more
 *   text, or a package.json that happens to have a `name`, is not a call.
 */
import { TOOL_CALL_OPEN, readCallValue } from './callFormat';
import { createTextCallParser } from './textCallParser';
import type { AgentToolCall, AgentToolSpec, MalformedToolCall } from './types';

/** Calls found printed in an answer. */
export interface PrintedCalls {
  /** The calls, with ids `call_<n>` from `firstCallNumber` on. */
  calls: AgentToolCall[];
  /** `<tool_call>` blocks that could not be read: they go back to the model as tool errors. */
  malformed: MalformedToolCall[];
  /** The answer without the printed calls. */
  text: string;
}

/** How many of the last lines that open JSON are tried as the start of the trailing calls (bounds the work). */
const MAX_TAIL_STARTS = 40;
const MARKERS = ['[TOOL_CALLS]', '<|python_tag|>'];
const CALL_KEYS = new Set(['name', 'arguments', 'parameters', 'id', 'type', 'function']);

/** Finds tool calls printed in a native answer; undefined when there are none (see the module comment). */
export function findPrintedCalls(
  answer: string,
  tools: readonly AgentToolSpec[],
  firstCallNumber = 1,
): PrintedCalls | undefined {
  if (answer.includes(TOOL_CALL_OPEN)) {
    const tagged = taggedCalls(answer, tools, firstCallNumber);
    if (tagged) return tagged;
  }
  const tail = trailingCalls(answer, tools);
  if (!tail) return undefined;
  const calls = tail.calls.map((c, i) => ({ ...c, id: `call_${firstCallNumber + i}` }));
  return { calls, malformed: [], text: answer.slice(0, tail.start).trimEnd() };
}

function taggedCalls(
  answer: string,
  tools: readonly AgentToolSpec[],
  first: number,
): PrintedCalls | undefined {
  const parser = createTextCallParser({ toolNames: tools.map((t) => t.name), firstCallNumber: first });
  const result: PrintedCalls = { calls: [], malformed: [], text: '' };
  for (const event of [...parser.push(answer), ...parser.end()]) {
    if (event.type === 'text') result.text += event.text;
    else if (event.type === 'toolCall') result.calls.push(event.call);
    else if (event.type === 'malformedCall') result.malformed.push(event.call);
  }
  result.text = result.text.trim();
  return result.calls.length ? result : undefined;
}

type Call = Omit<AgentToolCall, 'id'>;

/** A call list that makes up the whole end of the answer, fenced or bare, and where it starts. */
function trailingCalls(
  answer: string,
  tools: readonly AgentToolSpec[],
): { calls: Call[]; start: number } | undefined {
  const text = answer.trimEnd();
  const fenced = trailingFence(text);
  if (fenced) {
    const calls = jsonCalls(fenced.content, tools);
    return calls ? { calls, start: fenced.start } : undefined;
  }
  // The earliest of the last few lines that open JSON, so a list of calls on several lines is taken whole.
  const starts: number[] = [];
  for (let at = 0; at !== -1; at = nextLineStart(text, at)) {
    const first = text.slice(at, at + 20).trimStart();
    if (first.startsWith('{') || first.startsWith('[') || MARKERS.some((m) => first.startsWith(m)))
      starts.push(at);
  }
  for (const start of starts.slice(-MAX_TAIL_STARTS)) {
    const calls = jsonCalls(text.slice(start), tools);
    if (calls) return { calls, start };
  }
  return undefined;
}

function nextLineStart(text: string, at: number): number {
  const br = text.indexOf('\n', at);
  return br === -1 ? -1 : br + 1;
}

/** The content of a code fence that ends the text (the nearest fence line above its last line opens it). */
function trailingFence(text: string): { content: string; start: number } | undefined {
  const lastBreak = text.lastIndexOf('\n');
  const closer = text.slice(lastBreak + 1).trim();
  if (lastBreak === -1 || !/^(`{3,}|~{3,})$/.test(closer)) return undefined;
  for (let end = lastBreak; end > 0;) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    if (text.slice(start, end).trimStart().startsWith(closer))
      return { content: text.slice(text.indexOf('\n', start) + 1, lastBreak), start };
    end = start - 1;
  }
  return undefined;
}

/** The calls that `text` consists of, JSON values separated by blanks, `,` or `;`; undefined if anything else. */
function jsonCalls(text: string, tools: readonly AgentToolSpec[]): Call[] | undefined {
  let rest = text.trim();
  const marker = MARKERS.find((m) => rest.startsWith(m));
  if (marker) rest = rest.slice(marker.length).trim();
  const calls: Call[] = [];
  let at = 0;
  while (at < rest.length) {
    const end = jsonValueEnd(rest, at);
    if (end === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(rest.slice(at, end));
    } catch {
      return undefined;
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      const call = callOf(item, tools);
      if (!call) return undefined;
      calls.push(call);
    }
    at = end;
    while (at < rest.length && /[\s,;]/.test(rest[at])) at++;
  }
  return calls.length ? calls : undefined;
}

/** Where the JSON object or array starting at `at` ends (brackets matched outside strings). */
function jsonValueEnd(text: string, at: number): number | undefined {
  if (text[at] !== '{' && text[at] !== '[') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return undefined;
}

/** The call a JSON value is, if it is nothing but a call of a known tool that fits the tool's schema. */
function callOf(value: unknown, tools: readonly AgentToolSpec[]): Call | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).some((k) => !CALL_KEYS.has(k))) return undefined;
  const inner = (
    typeof record.function === 'object' && record.function !== null ? record.function : record
  ) as Record<string, unknown>;
  if (inner.arguments === undefined && inner.parameters === undefined) return undefined;
  const read = readCallValue(
    record,
    tools.map((t) => t.name),
  );
  if (!read.ok) return undefined;
  const schema = tools.find((t) => t.name === read.name)?.parameters;
  if (!schema) return undefined;
  const keys = Object.keys(read.input);
  if ((schema.required ?? []).some((k) => !keys.includes(k))) return undefined;
  if (schema.additionalProperties === false && keys.some((k) => !(k in schema.properties))) return undefined;
  return { name: read.name, input: read.input };
}
