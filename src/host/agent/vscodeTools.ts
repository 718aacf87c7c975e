// The tools other extensions register with VS Code (`vscode.lm.tools`), offered to an agent run when the user
// turns them on in the Tools picker, and called through `vscode.lm.invokeTool` with their own confirmations.
import * as vscode from 'vscode';
import type { AgentTool } from '../../agent/loopTypes';
import type { AgentToolSpec, JsonSchemaObject, ToolResult } from '../../agent/types';

/** A registered tool's input schema as the model's `parameters`: an object schema, or an empty object. */
function parametersOf(schema: object | undefined): JsonSchemaObject {
  const s = schema as Partial<JsonSchemaObject> | undefined;
  return s?.type === 'object' && typeof s.properties === 'object' && s.properties !== null
    ? (s as JsonSchemaObject)
    : { type: 'object', properties: {} };
}

/** The registered tools as the model would see them, except those named like one of `taken`. */
export function vscodeToolSpecs(taken: ReadonlySet<string>): AgentToolSpec[] {
  return vscode.lm.tools
    .filter((tool) => !taken.has(tool.name))
    .map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: parametersOf(tool.inputSchema),
      // Another extension's tool may do anything: never offered where only reading is allowed.
      readOnly: false,
    }));
}

/** The text of a tool's result; parts that are not text (images, prompt elements) are named, not sent. */
export function resultText(result: vscode.LanguageModelToolResult): string {
  const out: string[] = [];
  let dropped = 0;
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) out.push(part.value);
    else dropped++;
  }
  // l10n-exempt: the model reads this note.
  if (dropped) out.push(`[${dropped} part(s) of the result were not text and were left out]`);
  return out.join('\n');
}

/** `spec` as a run's tool: each call goes through `vscode.lm.invokeTool`, cancelled on Stop. */
export function vscodeTool(spec: AgentToolSpec): AgentTool {
  return {
    spec,
    async run(input: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = (): void => cancel.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await vscode.lm.invokeTool(
          spec.name,
          { input, toolInvocationToken: undefined },
          cancel.token,
        );
        return { content: resultText(result), summary: `${spec.name}` };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          content: `Error: ${spec.name} failed: ${message}`,
          isError: true,
          summary: `${spec.name}: failed`,
        };
      } finally {
        signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  };
}
