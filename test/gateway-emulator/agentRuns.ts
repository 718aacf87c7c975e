// Scripted agent runs (issue 26): a user message with `[[agent:NAME]]` starts a fixed plan of tool calls that
// reacts to the results it receives, over either tool protocol: native `tools` (streamed `tool_calls`) or the
// text protocol (a `<tool_call>` block in the streamed text, results back as `<tool_result>` in user messages).
import { chunkBase, choiceChunk, type ChunkIdentity, type StreamItem } from './chunks';
import { splitText } from './streamPlan';

const AGENT_MARKER = /\[\[agent:([a-z-]+)\]\]/;
/** The message "Start with Agent" sends after a plan (issue 27): it starts the `carry-out` script. */
const CARRY_OUT = /^Carry out this plan\b/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A tool result the script has seen since its marker. */
export interface Observation {
  name: string;
  content: string;
  /** The result reads as an error (the loop's error results start with "Error"). */
  error: boolean;
}

/** What the script does next: call tools (after a short text), answer, or hold the stream (Stop tests). */
export type AgentAction =
  | { kind: 'call'; say: string; calls: Array<{ name: string; args: Json }>; malformed?: boolean }
  | { kind: 'answer'; text: string }
  | { kind: 'stall'; say: string };

/** How the request offers tools: natively, in the text protocol's system prompt, or not at all. */
export type OfferedProtocol = 'native' | 'text' | 'none';

/** The state of a scripted run read from a chat body: which script, how tools travel, what came back. */
export interface AgentRunState {
  script: string;
  /** The text of the user message that named the script (a script may read a path from it). */
  prompt: string;
  protocol: OfferedProtocol;
  observations: Observation[];
  /** The text of the assistant message just before the script's user message (a plan, for `carry-out`). */
  previous: string;
}

const isErrorText = (text: string): boolean => /^\s*(error|tool error)\b/i.test(text);

/** Reads `[[agent:NAME]]` and the tool results after it from a chat body; undefined when no script applies. */
export function agentRunOf(body: unknown): AgentRunState | undefined {
  if (!isObject(body) || !Array.isArray(body.messages)) return undefined;
  const messages = body.messages.filter(isObject);
  const text = (m: Json): string => (typeof m.content === 'string' ? m.content : '');
  const starts = (m: Json): boolean =>
    m.role === 'user' && (AGENT_MARKER.test(text(m)) || CARRY_OUT.test(text(m)));
  let start = messages.length - 1;
  while (start >= 0 && !starts(messages[start])) start--;
  if (start < 0) return undefined;
  const script = CARRY_OUT.test(text(messages[start]))
    ? 'carry-out'
    : (AGENT_MARKER.exec(text(messages[start]))?.[1] ?? '');
  const before = messages.slice(0, start).reverse();
  const previous = text(before.find((m) => m.role === 'assistant') ?? {});
  const system = messages
    .filter((m) => m.role === 'system')
    .map(text)
    .join('\n');
  const native = Array.isArray(body.tools) && body.tools.length > 0;
  const protocol: OfferedProtocol = native ? 'native' : system.includes('<tool_call>') ? 'text' : 'none';
  const names = new Map<string, string>();
  const observations: Observation[] = [];
  for (const m of messages.slice(start + 1)) {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls))
      for (const call of m.tool_calls)
        if (isObject(call) && isObject(call.function) && typeof call.id === 'string')
          names.set(call.id, String(call.function.name));
    if (m.role === 'tool') {
      const content = text(m);
      const name = names.get(String(m.tool_call_id)) ?? 'unknown';
      observations.push({ name, content, error: isErrorText(content) });
    }
    if (m.role === 'user')
      for (const match of text(m).matchAll(/<tool_result\b([^>]*)>([\s\S]*?)<\/tool_result>/g)) {
        const name = /name="([^"]*)"/.exec(match[1])?.[1] ?? 'unknown';
        const error = /error="true"|status="error"/.test(match[1]) || isErrorText(match[2].trim());
        observations.push({ name, content: match[2].trim(), error });
      }
  }
  return { script, prompt: text(messages[start]), protocol, observations, previous };
}

const SAMPLE = 'src/sample.ts';
const GREET_OLD = '  return `Hello, ${name}!`;';
const GREET_NEW = '  return `Hello, ${name.trim()}!`;';
const README_OLD = 'so they may edit these files freely.';
const README_NEW = 'so they may edit these files freely.\n\n`greet` trims the name it is given.';

/** The answer that ends `edit-two`: tests wait for it. */
export const EDIT_TWO_ANSWER =
  'Done: I read src/sample.ts, searched for `greet`, and edited src/sample.ts (greet trims the name) and README.md (says so).';

/** How `edit-hunks` starts its answer: tests wait for it. */
export const EDIT_HUNKS_ANSWER = 'Edited both ends.';

/** How `weather` starts its answer, before the result it received. */
export const WEATHER_ANSWER_PREFIX = 'The weather tool said: ';

/** The numbered plan that ends `plan`: tests wait for it, and `carry-out` looks for it in the history. */
export const PLAN_ANSWER = [
  'Plan:',
  '',
  '1. In src/sample.ts, make `greet` trim the name it is given.',
  '2. Check the callers that `search_text` found still pass a string.',
  '3. Mention the trimming in README.md.',
].join('\n');

/** The answer that ends `carry-out` once it found the plan and made its edit. */
export const CARRY_OUT_ANSWER = 'Carried out the plan: src/sample.ts now trims the name in greet.';

/** How `carry-out` answers when the request does not carry the plan before its message. */
export const NO_PLAN_ANSWER = 'I see no plan in this conversation to carry out.';
/** The commands the `command-*` scripts run (tests look for them on the wire and in `ps`). */
export const COMMANDS = {
  print: 'node -e "console.log(6*7)"',
  fail: 'node -e "console.error(\'boom: no such test\'); process.exit(3)"',
  long: 'node -e "setTimeout(()=>{},600000)"',
  chained: 'node -e "console.log(1)" && node -e "console.log(2)"',
  /**
   * Makes VS Code's bash shell integration stop reporting commands after this one (whose end it still reports
   * once), as when the integration breaks mid-session: later commands run with no start or end reported.
   */
  untrack:
    "__vsc_command_output_start() { :; }; __vsc_command_complete() { builtin printf '\\e]633;D;0\\a'; __vsc_command_complete() { :; }; }",
} as const;

/** How the `command-*` scripts start their answer, before the result they received. */
export const COMMAND_ANSWER_PREFIX = 'The command said: ';

/** One command, then an answer that quotes its result (or reacts to a failure). */
function commandScript(command: string): (seen: Observation[]) => AgentAction {
  return (seen) => {
    if (seen.length === 0) return call('Running it.', 'run_command', { command });
    const result = seen[0].content;
    const failed = /\[exit code [1-9]\d*\]/.test(result);
    return {
      kind: 'answer',
      text: `${failed ? 'It failed. ' : ''}${COMMAND_ANSWER_PREFIX}${result}`,
    };
  };
}

const call = (say: string, name: string, args: Json): AgentAction => ({
  kind: 'call',
  say,
  calls: [{ name, args }],
});

/** The MCP fixture server's name in the tests' mcp.json (test/fixtures/mcp-server): its tools are `fixture.<tool>`. */
export const MCP_FIXTURE_SERVER = 'fixture';
/** How `mcp` starts its answer, before the results it received. */
export const MCP_ANSWER_PREFIX = 'The MCP tools said: ';

/** The plan of each script, step by step, from what it has seen so far. */
const SCRIPTS: Record<string, (seen: Observation[], prompt: string, previous: string) => AgentAction> = {
  // Plan mode: read, search, then a numbered plan (no edits).
  plan: (seen) => {
    if (seen.length === 0) return call('Reading the file first.', 'read_file', { path: SAMPLE });
    if (seen.length === 1) return call('And where `greet` is used.', 'search_text', { query: 'greet' });
    return { kind: 'answer', text: PLAN_ANSWER };
  },
  // Plan mode, a model that tries an edit anyway: the result it gets (an error) is quoted in its plan.
  'plan-edit': (seen) => {
    if (seen.length === 0)
      return call('Editing right away.', 'edit_file', {
        path: SAMPLE,
        edits: [{ oldText: GREET_OLD, newText: GREET_NEW }],
      });
    return { kind: 'answer', text: `${PLAN_ANSWER}\n\n(The edit got: ${seen[0].content.slice(0, 160)})` };
  },
  // "Carry out this plan" after `plan`: with the plan in the history, read and edit as it says, then answer.
  'carry-out': (seen, _prompt, previous) => {
    if (!previous.includes(PLAN_ANSWER)) return { kind: 'answer', text: NO_PLAN_ANSWER };
    if (seen.length === 0) return call('Following step 1.', 'read_file', { path: SAMPLE });
    if (!seen.some((o) => o.name === 'edit_file'))
      return call('Trimming the name.', 'edit_file', {
        path: SAMPLE,
        edits: [{ oldText: GREET_OLD, newText: GREET_NEW }],
      });
    return { kind: 'answer', text: CARRY_OUT_ANSWER };
  },
  // Read, search, edit two files (retrying an edit that did not match with more context), answer.
  'edit-two': (seen) => {
    const last = seen.at(-1);
    if (seen.length === 0) return call('I will read the file first.', 'read_file', { path: SAMPLE });
    if (seen.length === 1) return call('Now where `greet` is used.', 'search_text', { query: 'greet' });
    const edits = seen.filter((o) => o.name === 'edit_file');
    if (edits.length === 0)
      // Too little context on purpose: two lines of the file start with `  return`.
      return call('Editing greet.', 'edit_file', {
        path: SAMPLE,
        edits: [{ oldText: '  return', newText: '  return /* trimmed */' }],
      });
    if (edits.length === 1 && last?.error)
      return call('That matched twice; with the whole line this time.', 'edit_file', {
        path: SAMPLE,
        edits: [{ oldText: GREET_OLD, newText: GREET_NEW }],
      });
    if (!seen.some((o) => o.name === 'edit_file' && o.content.includes('README')) && edits.length < 3)
      return call('And the README.', 'edit_file', {
        path: 'README.md',
        edits: [{ oldText: README_OLD, newText: README_NEW }],
      });
    return { kind: 'answer', text: EDIT_TWO_ANSWER };
  },
  // A call the loop cannot read, then the same call written correctly.
  malformed: (seen) => {
    if (seen.length === 0)
      return { kind: 'call', say: 'Reading.', calls: [{ name: 'read_file', args: {} }], malformed: true };
    if (seen.length === 1) return call('Again, properly.', 'read_file', { path: SAMPLE });
    return { kind: 'answer', text: `Recovered after: ${seen[0].content.slice(0, 120)}` };
  },
  // Files that configure the editor: nothing may be written before the user approves.
  protected: (seen) => {
    if (seen.length === 0)
      return call('Widening my permissions.', 'create_file', {
        path: '.vscode/settings.json',
        content: '{ "chat.tools.autoApprove": true }\n',
      });
    if (seen.length === 1)
      return call('And a task.', 'create_file', {
        path: '.vscode/tasks.json',
        content: '{ "version": "2.0.0", "tasks": [] }\n',
      });
    return {
      kind: 'answer',
      text: `Protected results: ${seen.map((o) => o.content.slice(0, 80)).join(' | ')}`,
    };
  },
  // Reads that must be refused: a secrets file and a path outside the workspace.
  refusals: (seen) => {
    if (seen.length === 0) return call('Reading the secrets.', 'read_file', { path: '.env' });
    if (seen.length === 1) return call('And outside.', 'read_file', { path: '../outside.txt' });
    return { kind: 'answer', text: `Refused: ${seen.map((o) => o.content.slice(0, 100)).join(' | ')}` };
  },
  // An edit of the file named `[[file:PATH]]` in the prompt (its line endings are the test's), then a new file
  // beside it, then an answer (Restore Checkpoint tests).
  crlf: (seen, prompt) => {
    const path = /\[\[file:([^\]]+)\]\]/.exec(prompt)?.[1] ?? SAMPLE;
    if (seen.length === 0)
      return call('Editing the named file.', 'edit_file', {
        path,
        edits: [{ oldText: 'beta', newText: 'beta (edited)' }],
      });
    if (seen.length === 1)
      return call('And notes beside it.', 'create_file', { path: `${path}.notes.md`, content: 'Notes.\n' });
    return { kind: 'answer', text: `Edited ${path}: ${seen.map((o) => o.content.slice(0, 80)).join(' | ')}` };
  },
  // One edit of the named file in two places far apart (`first` and `last` lines), so its review has two hunks.
  'edit-hunks': (seen, prompt) => {
    const path = /\[\[file:([^\]]+)\]\]/.exec(prompt)?.[1] ?? SAMPLE;
    if (seen.length === 0)
      return call('Editing both ends of the file.', 'edit_file', {
        path,
        edits: [
          { oldText: 'first', newText: 'first (edited)' },
          { oldText: 'last', newText: 'last (edited)' },
        ],
      });
    return { kind: 'answer', text: `${EDIT_HUNKS_ANSWER} ${seen[0].content.slice(0, 80)}` };
  },
  // The same call again and again: the loop stops it.
  loop: () => call('Once more.', 'read_file', { path: SAMPLE }),
  // One line per step, forever: the step limit stops it.
  long: (seen) =>
    call(`Line ${seen.length + 1}.`, 'read_file', {
      path: SAMPLE,
      startLine: seen.length + 1,
      endLine: seen.length + 1,
    }),
  // VS Code's agent mode through the language-model provider: the test fixture's tool, then an answer that
  // quotes its result.
  weather: (seen) =>
    seen.length === 0
      ? call('Checking the weather.', 'getWeather', { city: 'Lisbon' })
      : { kind: 'answer', text: `${WEATHER_ANSWER_PREFIX}${seen[0].content}` },
  // The MCP fixture server's tools (issue 27): a lookup, a tool that fails and one that answers an image, then an
  // answer that quotes each result.
  mcp: (seen) => {
    const tools = ['lookup', 'fail', 'picture'];
    if (seen.length < tools.length)
      return call(
        `Calling ${tools[seen.length]}.`,
        `${MCP_FIXTURE_SERVER}.${tools[seen.length]}`,
        seen.length === 0 ? { word: 'gateway' } : {},
      );
    return { kind: 'answer', text: `${MCP_ANSWER_PREFIX}${seen.map((o) => o.content).join(' | ')}` };
  },
  // The fixture's tool that never answers: the result (a timeout, or Stop) is quoted.
  'mcp-hang': (seen) =>
    seen.length === 0
      ? call('Calling hang.', `${MCP_FIXTURE_SERVER}.hang`, {})
      : { kind: 'answer', text: `${MCP_ANSWER_PREFIX}${seen[0].content}` },
  // The fixture server exits during a call; a second call of its tools in the same run.
  'mcp-crash': (seen) => {
    if (seen.length === 0) return call('Calling crash.', `${MCP_FIXTURE_SERVER}.crash`, {});
    if (seen.length === 1) return call('Calling lookup.', `${MCP_FIXTURE_SERVER}.lookup`, { word: 'after' });
    return { kind: 'answer', text: `${MCP_ANSWER_PREFIX}${seen.map((o) => o.content).join(' | ')}` };
  },
  // run_command (issue 27): a quick command, a failing one, a long one (Stop and timeout tests).
  'command-print': commandScript(COMMANDS.print),
  'command-fail': commandScript(COMMANDS.fail),
  'command-long': commandScript(COMMANDS.long),
  // A plain command, then a chained one with the same prefix (which must still ask), then an answer with both.
  'command-chain': (seen) => {
    if (seen.length === 0) return call('First a plain one.', 'run_command', { command: COMMANDS.print });
    if (seen.length === 1) return call('Now two at once.', 'run_command', { command: COMMANDS.chained });
    return { kind: 'answer', text: `Both: ${seen.map((o) => o.content).join(' | ')}` };
  },
  // A command that makes shell integration lose track of the terminal, then the print command, then both results.
  'command-untracked': (seen) => {
    if (seen.length === 0) return call('Untracking.', 'run_command', { command: COMMANDS.untrack });
    if (seen.length === 1) return call('Now the print.', 'run_command', { command: COMMANDS.print });
    return { kind: 'answer', text: `Both: ${seen.map((o) => o.content).join(' | ')}` };
  },
  // A command in a folder outside the workspace: refused before anyone is asked.
  'command-outside': (seen) =>
    seen.length === 0
      ? call('Running above.', 'run_command', { command: COMMANDS.print, cwd: '..' })
      : { kind: 'answer', text: `${COMMAND_ANSWER_PREFIX}${seen[0].content}` },
  // A read, then a stream that holds after its first words (Stop tests).
  stall: (seen) =>
    seen.length === 0
      ? call('Reading first.', 'read_file', { path: SAMPLE })
      : { kind: 'stall', say: 'Thinking it over' },
};

/** The names of the scripts, for tests and docs. */
export const AGENT_SCRIPTS = Object.keys(SCRIPTS);

/** The next action of a scripted run; a plain answer when the request offers no tools or names no script. */
export function nextAgentAction(state: AgentRunState): AgentAction {
  const script = SCRIPTS[state.script];
  if (!script) return { kind: 'answer', text: `No agent script named "${state.script}".` };
  if (state.protocol === 'none')
    return { kind: 'answer', text: 'No tools were offered, so I can only answer.' };
  return script(state.observations, state.prompt, state.previous);
}

/** The text-protocol form of one call, as the model writes it. */
export function textCallBlock(name: string, args: Json): string {
  return `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
}

/** The stream of one action under one protocol, `size` characters of text per chunk. */
export function planAgentStream(
  action: AgentAction,
  protocol: OfferedProtocol,
  identity: ChunkIdentity,
  size: number,
): StreamItem[] {
  const base = chunkBase(identity);
  const text = (t: string): StreamItem[] =>
    splitText(t, Math.max(1, size)).map((piece) => choiceChunk(base, { content: piece }));
  const end = (finish: string): StreamItem[] => [choiceChunk(base, {}, finish), { kind: 'done' }];
  if (action.kind === 'answer') return [...text(action.text), ...end('stop')];
  if (action.kind === 'stall') return [...text(`${action.say}…`), { kind: 'stall' }, ...end('stop')];
  if (protocol === 'text') {
    const blocks = action.calls.map((c) =>
      action.malformed
        ? `<tool_call>\n{"name": "${c.name}", "arguments": {path: }}\n</tool_call>`
        : textCallBlock(c.name, c.args),
    );
    return [...text(`${action.say}\n${blocks.join('\n')}`), ...end('stop')];
  }
  const id = identity.id.replace(/\D/g, '');
  return [
    ...text(action.say),
    ...action.calls.flatMap((c, index) => {
      const args = action.malformed ? '{"path": ' : JSON.stringify(c.args);
      return [
        choiceChunk(base, {
          tool_calls: [
            {
              index,
              id: `call_emu_${id}_${index}`,
              type: 'function',
              function: { name: c.name, arguments: '' },
            },
          ],
        }),
        ...splitText(args, Math.max(1, size)).map((piece) =>
          choiceChunk(base, { tool_calls: [{ index, function: { arguments: piece } }] }),
        ),
      ];
    }),
    ...end('tool_calls'),
  ];
}
