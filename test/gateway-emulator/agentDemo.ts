// `npm start`'s emulator (option `agentDemo`): an Agent-mode request that names no `[[agent:…]]` script explores
// the project with the agent's read-only tools (list the root, find the TypeScript files, read the first, search a
// word of the question), then answers saying what it did and that a real model would go on from there. The tests'
// emulators leave it off: a request with tools and no marker still gets a plain answer there.
import { agentRunOf, type AgentAction, type AgentRunState } from './agentRuns';

/** The agent's own tools: VS Code's agent mode (other tool names) gets no demonstration. */
const AGENT_TOOLS = ['list_dir', 'find_files', 'read_file', 'search_text'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the request offers the agent's tools, natively or in the text protocol's system prompt. */
function offersAgentTools(body: Json, messages: Json[]): boolean {
  const native = Array.isArray(body.tools)
    ? body.tools.filter(isObject).map((t) => (isObject(t.function) ? String(t.function.name) : ''))
    : [];
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n');
  return AGENT_TOOLS.every((name) => native.includes(name) || system.includes(name));
}

/** The run's state as if the question had named the demonstration (tool results after it observed). */
function demoState(body: unknown): AgentRunState | undefined {
  if (!isObject(body) || !Array.isArray(body.messages)) return undefined;
  const messages = body.messages.filter(isObject);
  if (!offersAgentTools(body, messages)) return undefined;
  const isQuestion = (m: Json): boolean =>
    m.role === 'user' && typeof m.content === 'string' && !m.content.trimStart().startsWith('<tool_result');
  let question = messages.length - 1;
  while (question >= 0 && !isQuestion(messages[question])) question--;
  if (question < 0) return undefined;
  const marked = messages.map((m, i) =>
    i === question ? { ...m, content: `${String(m.content)} [[agent:demo]]` } : m,
  );
  return agentRunOf({ ...body, messages: marked });
}

const call = (say: string, name: string, args: Json): AgentAction => ({
  kind: 'call',
  say,
  calls: [{ name, args }],
});

/** The longest word of the question worth searching for (an identifier-like word of 4 letters or more). */
function searchWord(prompt: string): string {
  const words = prompt.replace(/\[\[[^\]]*\]\]/g, ' ').match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? [];
  return words.sort((a, b) => b.length - a.length)[0] ?? 'export';
}

/** The next step of the demonstration; undefined when the request is not one for it. */
export function demoAgentAction(body: unknown): { action: AgentAction; state: AgentRunState } | undefined {
  const state = demoState(body);
  if (!state || state.protocol === 'none') return undefined;
  const seen = state.observations;
  const file = /[\w./-]+\.ts\b/.exec(seen[1]?.content ?? '')?.[0];
  const word = searchWord(state.prompt);
  const steps: Array<() => AgentAction> = [
    () => call('Looking at the project first.', 'list_dir', { path: '.' }),
    () => call('Finding the source files.', 'find_files', { glob: 'src/**/*.ts' }),
    () =>
      file
        ? call(`Reading ${file}.`, 'read_file', { path: file })
        : call('Searching instead.', 'search_text', { query: word }),
    () => call(`Searching for \`${word}\`.`, 'search_text', { query: word }),
  ];
  const next = steps[seen.length];
  if (next) return { action: next(), state };
  return {
    state,
    action: {
      kind: 'answer',
      text:
        `This is the emulator's demonstration of Agent mode: it listed the project, found its TypeScript files` +
        `${file ? `, read ${file}` : ''} and searched for \`${word}\`. A real model goes on from here: it edits with ` +
        '`edit_file`, and the changed files are listed below for you to review, keep or undo.',
    },
  };
}
