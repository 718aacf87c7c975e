/**
 * Assembles streamed `delta.tool_calls` into whole tool calls (issue 18, agent mode): fragments are matched by
 * `index`, argument pieces are concatenated, several calls may come in one answer, and the arguments are
 * parsed once the answer is complete.
 */

import * as l10n from '@vscode/l10n';
import { MalformedResponseError } from './errors';

/** The `code` of the MalformedResponseError for a tool call that cannot be used (the agent answers it as a tool error). */
export const MALFORMED_TOOL_CALL = 'malformed_tool_call';

/** One finished tool call, arguments parsed. */
export interface AssembledToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

interface Partial {
  id?: string;
  name?: string;
  args: string;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects tool-call fragments of one answer. */
export class ToolCallAssembler {
  private readonly calls = new Map<number, Partial>();

  /** True once any fragment has arrived. */
  get pending(): boolean {
    return this.calls.size > 0;
  }

  /**
   * One `tool_calls` array of a delta (streamed) or a message (whole). Entries without an `index` take their
   * position, which is what a non-streamed message means by order.
   */
  accept(toolCalls: unknown): void {
    if (!Array.isArray(toolCalls)) return;
    toolCalls.forEach((entry: unknown, position) => {
      if (!isObject(entry)) return;
      const index = typeof entry.index === 'number' && Number.isInteger(entry.index) ? entry.index : position;
      const call = this.calls.get(index) ?? { args: '' };
      this.calls.set(index, call);
      // Ids and names come whole in the first fragment; some servers repeat them later, so the first wins.
      if (typeof entry.id === 'string' && entry.id && !call.id) call.id = entry.id;
      const fn = isObject(entry.function) ? entry.function : undefined;
      if (!fn) return;
      if (typeof fn.name === 'string' && fn.name && !call.name) call.name = fn.name;
      if (typeof fn.arguments === 'string') call.args += fn.arguments;
      // A few servers send the arguments as an object rather than a JSON string.
      else if (isObject(fn.arguments)) call.args += JSON.stringify(fn.arguments);
    });
  }

  /** The calls in index order; throws MalformedResponseError naming the model for a call that cannot be used. */
  finish(model: string): AssembledToolCall[] {
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b);
    return ordered.map(([index, call]) => {
      if (!call.name) {
        throw new MalformedResponseError(
          l10n.t(
            'The model {0} sent a tool call without a tool name. Try again, or turn tool calling off (modelGateway.lm.toolCalling).',
            model,
          ),
          { code: MALFORMED_TOOL_CALL },
        );
      }
      let input: unknown;
      try {
        input = call.args.trim() ? JSON.parse(call.args) : {};
      } catch {
        input = undefined;
      }
      if (!isObject(input)) {
        throw new MalformedResponseError(
          l10n.t(
            'The model {0} called the tool {1} with arguments that are not a JSON object. Try again.',
            model,
            call.name,
          ),
          { code: MALFORMED_TOOL_CALL },
        );
      }
      return { id: call.id ?? `call_${index}`, name: call.name, input };
    });
  }
}
