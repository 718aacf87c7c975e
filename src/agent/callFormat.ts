/**
 * The JSON inside a call: `{"name": "read_file", "arguments": {...}}`. Shared by the text protocol (blocks the
 * model writes on purpose) and the detection of calls a model printed instead of making them natively, so both
 * read a call the same way and give the same reasons.
 */

export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';

/** A call read from its JSON, or why it could not be read (in words the model can act on). */
export type ReadCall =
  { ok: true; name: string; input: Record<string, unknown> } | { ok: false; name?: string; reason: string };

const EXAMPLE = '{"name": "tool_name", "arguments": {...}}';

/** One call block as the text protocol writes it; the parser reads it back to the same name and input. */
export function formatCallBlock(name: string, input: Record<string, unknown>): string {
  return `${TOOL_CALL_OPEN}\n${JSON.stringify({ name, arguments: input })}\n${TOOL_CALL_CLOSE}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A code fence some models put around the JSON even inside a block: harmless, so it is taken off. */
function withoutFence(text: string): string {
  const opener = /^(`{3,}|~{3,})/.exec(text)?.[1];
  const firstBreak = text.indexOf('\n');
  if (!opener || firstBreak === -1 || !text.endsWith(opener)) return text;
  const lastBreak = text.lastIndexOf('\n');
  if (lastBreak <= firstBreak || text.slice(lastBreak + 1).trim() !== opener) return text;
  return text.slice(firstBreak + 1, lastBreak).trim();
}

/** Reads the text between `<tool_call>` and `</tool_call>`. */
export function readCallText(body: string, toolNames?: readonly string[]): ReadCall {
  const text = withoutFence(body.trim());
  if (!text)
    return { ok: false, reason: `The <tool_call> block is empty. Put one JSON object in it: ${EXAMPLE}.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      name: nameIn(text),
      reason: `The call is not valid JSON (${detail}). Write one JSON object, ${EXAMPLE}, with quotes, backslashes and line breaks inside strings escaped.`,
    };
  }
  return readCallValue(value, toolNames);
}

/**
 * Reads a parsed call. Besides `{"name", "arguments"}` it takes what models trained on other formats write:
 * `parameters` for `arguments`, arguments as a JSON string (OpenAI's wire form), and the OpenAI wrapper
 * `{"type": "function", "function": {...}}`. Missing arguments are `{}` (tools without required input).
 */
export function readCallValue(value: unknown, toolNames?: readonly string[]): ReadCall {
  if (Array.isArray(value))
    return { ok: false, reason: `A block holds one call, not a list: write one <tool_call> block per call.` };
  if (!isPlainObject(value)) return { ok: false, reason: `The call must be a JSON object: ${EXAMPLE}.` };
  const call = isPlainObject(value.function) && value.name === undefined ? value.function : value;
  const name = call.name;
  if (typeof name !== 'string' || !name.trim())
    return { ok: false, reason: `The call has no "name". Write ${EXAMPLE}.` };
  if (toolNames && !toolNames.includes(name))
    return {
      ok: false,
      name,
      reason: `There is no tool named "${name}". The tools are: ${toolNames.join(', ')}.`,
    };
  let args = call.arguments !== undefined ? call.arguments : call.parameters;
  if (args === undefined) args = {};
  if (typeof args === 'string') {
    try {
      args = args.trim() ? JSON.parse(args) : {};
    } catch {
      // Reported below as arguments that are not an object.
    }
  }
  if (!isPlainObject(args))
    return {
      ok: false,
      name,
      reason: `The "arguments" of ${name} must be a JSON object of its parameters, e.g. {"path": "src/app.ts"}.`,
    };
  return { ok: true, name, input: args };
}

/** The tool name in a call too broken to parse, for the transcript. */
export function nameIn(text: string): string | undefined {
  return /"name"\s*:\s*"([^"\\\n]{1,100})"/.exec(text)?.[1];
}
