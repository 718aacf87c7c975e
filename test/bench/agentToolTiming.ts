/**
 * Wraps the built-in tools of every agent run a chat session starts, from outside, so the agent benches can time
 * a tool's runs on the extension host's clock without a hook in the product.
 */

/** A built-in tool as the runner lists it. */
export type BenchHostTool = (
  input: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<{ content: string }>;

interface RunnerInside {
  /** The built-in tools by name, before the run adds MCP and other extensions' tools. */
  builtinTools(): Record<string, BenchHostTool>;
}
interface ChatAgentInside {
  runner(turn: unknown, userTurnId: string): RunnerInside;
}

/** The extension host's clock, the one the emulator in the same process stamps its records with. */
export const clock = (): number => performance.timeOrigin + performance.now();

/**
 * Times the runs of the built-in tools `names` (every one when omitted) of the session's agent: each run calls
 * `record` with when it began, when it ended and its result's content.
 */
export function timeBuiltinTools(
  agent: unknown,
  record: (run: { name: string; began: number; done: number; content: string }) => void,
  names?: readonly string[],
): void {
  const inside = agent as ChatAgentInside;
  if (typeof inside.runner !== 'function') throw new Error('the chat agent has no runner() to wrap');
  const make = inside.runner.bind(inside);
  inside.runner = (turn, userTurnId) => {
    const runner = make(turn, userTurnId);
    if (typeof runner.builtinTools !== 'function')
      throw new Error('the runner has no builtinTools() to wrap');
    const builtin = runner.builtinTools.bind(runner);
    runner.builtinTools = () => {
      const tools = builtin();
      for (const name of names ?? Object.keys(tools)) {
        const tool = tools[name];
        if (!tool) throw new Error(`no ${name} tool`);
        tools[name] = async (input, signal) => {
          const began = clock();
          const result = await tool(input, signal);
          record({ name, began, done: clock(), content: result.content });
          return result;
        };
      }
      return tools;
    };
    return runner;
  };
}
